import type { Readable } from 'node:stream';

/**
 * Where the server keeps file bytes (uploads, imports, exports, import reports, recordings),
 * by key. The `files` table holds what a file is and whose; a driver only holds bytes. Modules
 * reach bytes through uploads.service, never through a path.
 *
 * Drivers (STORAGE_DRIVER): `local` (DATA_DIR/files, the default) and `s3`, an S3-compatible
 * bucket (PutObject or a multipart upload / GetObject / DeleteObject / HeadObject); docs/ARCHITECTURE.md.
 */
export interface FileStorage {
  readonly driver: string;
  /** Stores the bytes under `key` (replacing any), returns the size written. */
  put: (key: string, body: Buffer | Readable) => Promise<{ size: number }>;
  /** The bytes of `key` as a stream; null when there is no such file. */
  get: (key: string) => Promise<Readable | null>;
  /** Removes `key`; no error when it is already gone. */
  delete: (key: string) => Promise<void>;
  exists: (key: string) => Promise<boolean>;
}

/** A storage key: a generated file name (`2026-11-<uuid>.xlsx`), never a path. */
export const STORAGE_KEY = /^[\w-]{1,120}\.[a-z0-9]{1,8}$/;

export class StorageKeyError extends Error {
  constructor(key: string) {
    super(`invalid storage key: ${JSON.stringify(key).slice(0, 80)}`);
  }
}

export const assertKey = (key: string) => {
  if (!STORAGE_KEY.test(key)) throw new StorageKeyError(key);
};

/** Reads a whole stored file (for files already bounded in size, such as a 20 MB upload). */
export const readAll = async (storage: FileStorage, key: string): Promise<Buffer | null> => {
  const stream = await storage.get(key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
};
