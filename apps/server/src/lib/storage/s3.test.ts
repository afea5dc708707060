import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Config } from '../../config';
import { startS3Double } from '../../test/s3-double';
import { createS3Storage, type S3Storage } from './s3';
import { readAll, StorageKeyError } from './storage';

// s3rver (test/s3-double.ts) stands in for a real object store: every call below is a real
// S3 HTTP request, signed and answered as MinIO or AWS would.
let double: Awaited<ReturnType<typeof startS3Double>>;
let storage: S3Storage;
const opened: S3Storage[] = [];
const open = (config: Partial<S3Config> = {}) => {
  const s = createS3Storage({ ...double.config, ...config });
  opened.push(s);
  return s;
};

beforeAll(async () => {
  double = await startS3Double();
  storage = open();
});
afterAll(async () => {
  for (const s of opened) s.close();
  await double?.close();
});

describe('S3-compatible file storage', () => {
  it('put bytes, get them back as a stream, exists, delete', async () => {
    expect(storage.driver).toBe('s3');
    expect(await storage.put('2026-11-a.txt', Buffer.from('你好'))).toEqual({ size: 6 });
    expect(await storage.exists('2026-11-a.txt')).toBe(true);
    const stream = await storage.get('2026-11-a.txt');
    expect(stream).toBeInstanceOf(Readable);
    expect((await readAll(storage, '2026-11-a.txt'))?.toString()).toBe('你好');
    stream?.destroy();
    await storage.delete('2026-11-a.txt');
    expect(await storage.exists('2026-11-a.txt')).toBe(false);
    expect(await storage.get('2026-11-a.txt')).toBeNull();
  });

  it('a missing key: exists is false, get is null (as the local driver), delete is no error', async () => {
    expect(await storage.exists('2026-11-never.png')).toBe(false);
    expect(await storage.get('2026-11-never.png')).toBeNull();
    await expect(storage.delete('2026-11-never.png')).resolves.toBeUndefined();
  });

  it('a stream of unknown length above one part goes up as a multipart upload and comes back whole', async () => {
    const big = randomBytes(12 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: Math.ceil(big.length / 65536) }, (_, i) => big.subarray(i * 65536, (i + 1) * 65536));
    expect(await storage.put('2026-11-big.bin', Readable.from(chunks))).toEqual({ size: big.length });
    const back = await readAll(storage, '2026-11-big.bin');
    expect(back?.length).toBe(big.length);
    expect(back?.equals(big)).toBe(true);
  });

  it('a small stream is one object; a second put replaces it whole', async () => {
    expect(await storage.put('2026-11-b.bin', Readable.from([Buffer.from('first '), Buffer.from('version')]))).toEqual({
      size: 13,
    });
    expect((await readAll(storage, '2026-11-b.bin'))?.toString()).toBe('first version');
    await storage.put('2026-11-b.bin', Buffer.from('short'));
    expect((await readAll(storage, '2026-11-b.bin'))?.toString()).toBe('short');
  });

  // s3rver does not implement AbortMultipartUpload: the stream's error must still be the one seen
  it('a stream that fails before or after its first part stores nothing and rejects with its error', async () => {
    for (const megabytes of [3, 7]) {
      let sent = 0;
      const failing = new Readable({
        read() {
          if (sent++ < megabytes) this.push(Buffer.alloc(1024 * 1024, 1));
          else this.destroy(new Error('client went away'));
        },
      });
      await expect(storage.put('2026-11-c.bin', failing)).rejects.toThrow('client went away');
      expect(await storage.exists('2026-11-c.bin')).toBe(false);
      expect(double.keys()).not.toContain('2026-11-c.bin');
    }
  });

  it('keys go under S3_PREFIX; a storage without the prefix does not see them', async () => {
    const prefixed = open({ prefix: 'crm/prod' });
    await prefixed.put('2026-11-p.txt', Buffer.from('p'));
    await prefixed.put('2026-11-q.txt', Readable.from([Buffer.from('q')]));
    expect(double.keys()).toEqual(expect.arrayContaining(['crm/prod/2026-11-p.txt', 'crm/prod/2026-11-q.txt']));
    expect(double.keys()).not.toContain('2026-11-p.txt');
    expect(await prefixed.exists('2026-11-p.txt')).toBe(true);
    expect(await storage.exists('2026-11-p.txt')).toBe(false);
    expect((await readAll(prefixed, '2026-11-q.txt'))?.toString()).toBe('q');
    await prefixed.delete('2026-11-p.txt');
    expect(double.keys()).not.toContain('crm/prod/2026-11-p.txt');
  });

  it('a key is a file name, never a path: refused before any request', async () => {
    for (const key of ['../escape.txt', 'a/b.txt', '/etc/passwd', '', 'no-extension', '..', 'a.txt\0.png']) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(StorageKeyError);
      await expect(storage.get(key), key).rejects.toBeInstanceOf(StorageKeyError);
      await expect(storage.exists(key), key).rejects.toBeInstanceOf(StorageKeyError);
    }
  });

  it('a refusal of the store (wrong credentials, missing bucket) is an error, never "no such file"', async () => {
    const stranger = open({ accessKeyId: 'NOBODY', secretAccessKey: 'wrong' });
    await expect(stranger.exists('2026-11-b.bin')).rejects.toThrow();
    await expect(stranger.get('2026-11-b.bin')).rejects.toThrow();
    const noBucket = open({ bucket: 'no-such-bucket' });
    await expect(noBucket.get('2026-11-b.bin')).rejects.toThrow();
  });
});
