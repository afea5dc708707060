import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type FileStorage } from './storage';

/**
 * The local driver: one file per key in `root` (DATA_DIR/files). A put writes a temporary file
 * and renames it into place, so a reader never sees half a file and a crash leaves no torn one.
 */
export const createLocalStorage = (root: string): FileStorage => {
  const full = (key: string) => {
    assertKey(key);
    return path.join(root, key);
  };
  return {
    driver: 'local',
    put: async (key, body) => {
      const target = full(key);
      await fs.promises.mkdir(root, { recursive: true });
      const tmp = path.join(root, `.tmp-${randomUUID()}`);
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(tmp));
        await fs.promises.rename(tmp, target);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
      const { size } = await fs.promises.stat(target);
      return { size };
    },
    get: async (key) => {
      const target = full(key);
      try {
        const handle = await fs.promises.open(target, 'r');
        return handle.createReadStream();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    delete: async (key) => {
      await fs.promises.rm(full(key), { force: true });
    },
    exists: async (key) => {
      try {
        return (await fs.promises.stat(full(key))).isFile();
      } catch {
        return false;
      }
    },
  };
};
