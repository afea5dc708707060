import path from 'node:path';
import type { Config } from '../../config';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import type { FileStorage } from './storage';

export { type FileStorage, readAll, STORAGE_KEY, StorageKeyError } from './storage';

const byDataDir = new Map<string, FileStorage>();

/**
 * Opens the file storage STORAGE_DRIVER chose, for the app's data directory (buildApp, once);
 * `storageOf(dataDir)` returns it from then on. Returns what ends its connections on close.
 */
export const openStorage = (config: Pick<Config, 'dataDir' | 'storage'>): { close: () => void } => {
  if (config.storage.driver === 's3') {
    const storage = createS3Storage(config.storage.s3);
    byDataDir.set(config.dataDir, storage);
    return { close: storage.close };
  }
  byDataDir.set(config.dataDir, createLocalStorage(path.join(config.dataDir, 'files')));
  return { close: () => undefined };
};

/** The file storage of a data directory: the one the app opened, else the local driver over DATA_DIR/files. */
export const storageOf = (dataDir: string): FileStorage => {
  let s = byDataDir.get(dataDir);
  if (!s) {
    s = createLocalStorage(path.join(dataDir, 'files'));
    byDataDir.set(dataDir, s);
  }
  return s;
};
