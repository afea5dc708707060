import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../config';
import { loadS3Sdk } from '../lazy-packages';
import { assertKey, type FileStorage } from './storage';

/** Bytes a stream upload holds in memory: parts of 5 MB (S3's minimum), two in flight. */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export type S3Storage = FileStorage & {
  /** Closes the client's kept-alive connections (the app's close). */
  close: () => void;
};

/**
 * The S3-compatible driver: one object per key in one bucket, under an optional prefix.
 * A Buffer is one PutObject with its length; a stream (its length unknown here) goes through
 * lib-storage's Upload: one PutObject when it fits in a part, else a multipart upload that is
 * aborted when the stream fails, so a reader never sees half a file (as with the local driver).
 */
export const createS3Storage = (config: S3Config): S3Storage => {
  // the SDK is loaded and the client made on the first call (lib/lazy-packages.ts)
  let client: S3Client | undefined;
  const sdk = async () => {
    const loaded = await loadS3Sdk();
    client ??= new loaded.s3.S3Client({
      region: config.region,
      endpoint: config.endpoint || undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // The SDK's default checksums (CRC32, sent as aws-chunked trailers) are refused by several
      // S3-compatible stores (OSS, older MinIO and Ceph); checksums only where an operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { ...loaded, client };
  };
  const bucket = config.bucket;
  const objectKey = (key: string) => {
    assertKey(key);
    return config.prefix ? `${config.prefix}/${key}` : key;
  };

  const putStream = async (Key: string, body: Readable) => {
    const { Upload, client } = await sdk();
    let size = 0;
    let bodyError: unknown;
    const counted = Readable.from(
      (async function* () {
        try {
          for await (const chunk of body) {
            const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
            size += buf.length;
            yield buf;
          }
        } catch (err) {
          bodyError = err;
          throw err;
        }
      })(),
    );
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key, Body: counted },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      // the caller's stream failing is the cause, even when the store then refused the abort
      // (its parts are then left to the bucket's AbortIncompleteMultipartUpload rule)
      throw bodyError ?? err;
    }
    return { size };
  };

  return {
    driver: 's3',
    put: async (key, body) => {
      const Key = objectKey(key);
      if (!Buffer.isBuffer(body)) return putStream(Key, body);
      const { s3, client } = await sdk();
      await client.send(new s3.PutObjectCommand({ Bucket: bucket, Key, Body: body, ContentLength: body.length }));
      return { size: body.length };
    },
    get: async (key) => {
      const Key = objectKey(key);
      const { s3, client } = await sdk();
      try {
        const { Body } = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key }));
        if (!(Body instanceof Readable)) throw new Error(`S3 GetObject ${Key}: the body is not a Node stream`);
        return Body;
      } catch (err) {
        if (err instanceof s3.NoSuchKey) return null;
        throw err;
      }
    },
    delete: async (key) => {
      // S3 answers 204 for a key that is already gone
      const Key = objectKey(key);
      const { s3, client } = await sdk();
      await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key }));
    },
    exists: async (key) => {
      const Key = objectKey(key);
      const { s3, client } = await sdk();
      try {
        await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key }));
        return true;
      } catch (err) {
        // a HEAD answer has no body: 404 is all S3 says of a missing key; anything else (403, 5xx) is a real error
        if (err instanceof s3.S3ServiceException && err.$metadata.httpStatusCode === 404) return false;
        throw err;
      }
    },
    close: () => client?.destroy(),
  };
};
