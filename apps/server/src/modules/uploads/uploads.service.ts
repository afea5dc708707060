import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { extensionOf, IMAGE_EXTENSIONS, UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, type UploadResult } from '@crm/contracts';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { readAll, storageOf } from '../../lib/storage';
import * as repo from './uploads.repo';

/** What the content sniffer may say for each allowed extension (SPEC §5: checked by extension and content). */
const CONTENT_OF: Record<string, readonly string[] | 'text'> = {
  jpg: ['jpg'],
  jpeg: ['jpg'],
  png: ['png'],
  wav: ['wav'],
  mp4: ['mp4', 'm4v', 'mov'],
  mp3: ['mp3'],
  m4a: ['m4a', 'mp4'],
  doc: ['cfb'],
  xls: ['cfb'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pdf: ['pdf'],
  rar: ['rar'],
  zip: ['zip', 'docx', 'xlsx', 'pptx', 'jar', 'epub'],
  txt: 'text',
};

const MIME_OF: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  rar: 'application/vnd.rar',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
};

export const fileUrl = (storedName: string) => `/api/files/${storedName}`;

/** Files only their creator may read: exports can hold numbers other staff may not see unmasked. */
const PRIVATE_SCENES = new Set(['export', 'import', 'import-report']);

const looksLikeText = (buf: Buffer) => !buf.subarray(0, 8192).includes(0);

/** Checks one uploaded file by extension and by its bytes; returns the extension. */
export const checkUpload = async (name: string, buf: Buffer): Promise<string> => {
  const ext = extensionOf(name);
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) throw new AppError('UPLOAD_TYPE');
  if (buf.length === 0) throw new AppError('UPLOAD_EMPTY');
  if (buf.length > UPLOAD_MAX_BYTES) throw new AppError('UPLOAD_TOO_LARGE');
  const expected = CONTENT_OF[ext];
  const sniffed = await fileTypeFromBuffer(buf);
  if (expected === 'text') {
    if (sniffed || !looksLikeText(buf)) throw new AppError('UPLOAD_CONTENT');
  } else if (!sniffed || !expected.includes(sniffed.ext)) {
    throw new AppError('UPLOAD_CONTENT');
  }
  return ext;
};

/**
 * Scenes only the server gives the files it keeps: an import file is one whose preview succeeded
 * (importstart trusts it), the others are files the server wrote. A client's upload never claims one.
 */
const SERVER_SCENES = new Set(['import', 'import-report', 'export', 'recording']);

const newKey = (ext: string) => `${new Date().toISOString().slice(0, 7)}-${randomUUID()}.${ext}`;

/** Control characters and lone surrogates (which PostgreSQL cannot store) of a client's file name. */
const UNSTORABLE = /[\p{Cc}\p{Cs}]/gu;

/** A client's file name as stored and shown: readable characters only, at most 200 of them, never empty. */
export const cleanFileName = (name: string): string =>
  Array.from(name.replace(UNSTORABLE, '')).slice(0, 200).join('') || '未命名文件';

/**
 * Stores a checked upload under a generated name in the file storage and records it for the tenant.
 * `by`: 'client' when the scene comes from the request (a server scene is then dropped).
 */
export const saveUpload = async (
  db: Db,
  dataDir: string,
  actor: Actor,
  file: { name: string; buf: Buffer; scene: string },
  by: 'client' | 'server' = 'client',
): Promise<UploadResult> => {
  const ext = await checkUpload(file.name, file.buf);
  const storedName = newKey(ext);
  await storageOf(dataDir).put(storedName, file.buf);
  const id = await repo.insertFile(db, {
    tenantId: actor.tenantId,
    staffId: actor.staffId,
    originalName: cleanFileName(file.name),
    storedName,
    mime: MIME_OF[ext],
    size: file.buf.length,
    scene: by === 'client' && SERVER_SCENES.has(file.scene) ? '' : file.scene,
  });
  return { id, url: fileUrl(storedName), name: file.name, size: file.buf.length };
};

/** Opens a stored file for the caller's tenant only. */
export const openTenantFile = async (db: Db, dataDir: string, actor: Actor, storedName: string) => {
  if (!/^[\w-]+\.[a-z0-9]+$/.test(storedName)) throw new AppError('NOT_FOUND');
  const row = await repo.findFileByStoredName(db, storedName);
  if (!row || row.tenantId !== actor.tenantId) throw new AppError('NOT_FOUND');
  if (PRIVATE_SCENES.has(row.scene) && row.staffId !== actor.staffId) throw new AppError('NOT_FOUND');
  const stream = await storageOf(dataDir).get(row.storedName);
  if (!stream) throw new AppError('NOT_FOUND');
  return { stream, mime: row.mime, size: row.size, name: row.originalName };
};

/** Refuses a file id that is not the tenant's (or not an image when one is required). */
export const requireOwnFile = async (db: Db, actor: Actor, id: number, kind?: 'image') => {
  const row = await repo.findTenantFile(db, actor.tenantId, id);
  if (!row) throw new AppError('NOT_FOUND');
  if (kind === 'image' && !(IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(row.storedName))) {
    throw new AppError('UPLOAD_TYPE');
  }
  return row;
};

/**
 * Registers a file the server itself produces (export, import report, recording) for the
 * caller's tenant: `write` fills a scratch file (spreadsheet writers want a path), whose bytes
 * then go to the file storage; the file is recorded once stored.
 */
export const storeGeneratedFile = async (
  db: Db,
  dataDir: string,
  actor: Actor,
  meta: { originalName: string; ext: string; scene: string },
  write: (fullPath: string) => Promise<void>,
) => {
  const storedName = newKey(meta.ext);
  const scratchDir = path.join(dataDir, 'tmp');
  await fs.promises.mkdir(scratchDir, { recursive: true });
  const scratch = path.join(scratchDir, storedName);
  let size: number;
  try {
    await write(scratch);
    ({ size } = await storageOf(dataDir).put(storedName, fs.createReadStream(scratch)));
  } finally {
    await fs.promises.rm(scratch, { force: true });
  }
  const id = await repo.insertFile(db, {
    tenantId: actor.tenantId,
    staffId: actor.staffId,
    originalName: meta.originalName,
    storedName,
    mime: MIME_OF[meta.ext] ?? 'application/octet-stream',
    size,
    scene: meta.scene,
  });
  return { id, storedName, url: fileUrl(storedName) };
};

/** The bytes of a tenant's stored file (an uploaded import or number file, at most 20 MB). */
export const readTenantFile = async (db: Db, dataDir: string, actor: Actor, id: number) => {
  const row = await requireOwnFile(db, actor, id);
  const buf = await readAll(storageOf(dataDir), row.storedName);
  if (!buf) throw new AppError('NOT_FOUND');
  return { buf, row };
};

/** A tenant's stored file and its bytes, or undefined when the file or its bytes are gone (a bot's node recording). */
export const findTenantFileBytes = async (db: Db, dataDir: string, tenantId: number, id: number) => {
  const row = await repo.findTenantFile(db, tenantId, id);
  if (!row) return undefined;
  const buf = await readAll(storageOf(dataDir), row.storedName);
  return buf ? { buf, row } : undefined;
};

/** A tenant's stored file as a stream (null when its bytes are gone). */
export const streamTenantFile = async (db: Db, dataDir: string, actor: Actor, id: number): Promise<Readable | null> => {
  const row = await requireOwnFile(db, actor, id);
  return storageOf(dataDir).get(row.storedName);
};

/** Removes a tenant's file: its bytes from the storage, then its row (a refused import preview). */
export const deleteTenantFile = async (db: Db, dataDir: string, tenantId: number, id: number) => {
  const row = await repo.findTenantFile(db, tenantId, id);
  if (!row) return;
  await storageOf(dataDir).delete(row.storedName);
  await repo.deleteTenantFile(db, tenantId, id);
};

/** Names and links of a tenant's files by id (file controls of customers). */
export const fileInfosByIds = async (db: Db, tenantId: number, ids: number[]) =>
  new Map(
    (await repo.findTenantFiles(db, tenantId, [...new Set(ids)])).map((f) => [
      f.id,
      { name: f.originalName, url: fileUrl(f.storedName) },
    ]),
  );
