import path from 'node:path';
import { createLocalStorage } from './local';
import type { FileStorage } from './storage';

export { type FileStorage, readAll, STORAGE_KEY, StorageKeyError } from './storage';

const byDataDir = new Map<string, FileStorage>();

/** The file storage of a data directory (local driver over DATA_DIR/files). */
export const storageOf = (dataDir: string): FileStorage => {
  let s = byDataDir.get(dataDir);
  if (!s) {
    s = createLocalStorage(path.join(dataDir, 'files'));
    byDataDir.set(dataDir, s);
  }
  return s;
};
