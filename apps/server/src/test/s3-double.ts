import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { S3Config } from '../config';

/**
 * The stand-in for a real object store (MinIO, Ceph, OSS, AWS S3) in tests: s3rver, an S3 server
 * in this process that speaks the S3 HTTP protocol (signatures checked, path-style buckets) on
 * 127.0.0.1 and keeps objects in a scratch directory.
 */
export const startS3Double = async (
  bucket = 'crm-test',
): Promise<{ config: S3Config; keys: () => string[]; close: () => Promise<void> }> => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    config: {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket,
      // s3rver's fixed credentials
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      prefix: '',
      forcePathStyle: true,
    },
    /** The keys of the objects in the bucket, as the store keeps them on disk (`<key>._S3rver_object`). */
    keys: () =>
      fs
        .readdirSync(path.join(directory, bucket), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('._S3rver_object'))
        .map((name) => name.slice(0, -'._S3rver_object'.length).split(path.sep).join('/'))
        .sort(),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
};
