import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local';
import { readAll, StorageKeyError } from './storage';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-storage-'));
const storage = createLocalStorage(path.join(root, 'files'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('local file storage', () => {
  it('put bytes, get them back as a stream, exists, delete', async () => {
    expect(await storage.put('2026-11-a.txt', Buffer.from('你好'))).toEqual({ size: 6 });
    expect(await storage.exists('2026-11-a.txt')).toBe(true);
    expect((await readAll(storage, '2026-11-a.txt'))?.toString()).toBe('你好');
    await storage.delete('2026-11-a.txt');
    expect(await storage.exists('2026-11-a.txt')).toBe(false);
    expect(await storage.get('2026-11-a.txt')).toBeNull();
    await storage.delete('2026-11-a.txt');
  });

  it('put a stream; a second put replaces the file whole; no scratch file stays behind', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    expect(await storage.put('b.bin', Readable.from([big.subarray(0, 1000), big.subarray(1000)]))).toEqual({ size: big.length });
    await storage.put('b.bin', Buffer.from('short'));
    expect((await readAll(storage, 'b.bin'))?.toString()).toBe('short');
    expect(fs.readdirSync(path.join(root, 'files'))).toEqual(['b.bin']);
  });

  it('a failed stream leaves neither the file nor a scratch file', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('c.bin', failing)).rejects.toThrow('client went away');
    expect(await storage.exists('c.bin')).toBe(false);
    expect(fs.readdirSync(path.join(root, 'files')).filter((n) => n.startsWith('.tmp'))).toEqual([]);
  });

  it('a key is a file name, never a path', async () => {
    for (const key of ['../escape.txt', 'a/b.txt', '/etc/passwd', '', 'no-extension', '..', 'a.txt\0.png']) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(StorageKeyError);
      await expect(storage.get(key), key).rejects.toBeInstanceOf(StorageKeyError);
    }
    expect(fs.existsSync(path.join(root, 'escape.txt'))).toBe(false);
  });
});
