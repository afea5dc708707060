import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const S3 = { STORAGE_DRIVER: 's3', S3_BUCKET: 'crm', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' };

describe('STORAGE_DRIVER', () => {
  it('is local by default', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'local' });
  });

  it('s3 reads the bucket settings; path-style addressing is on for an own endpoint, off for AWS', () => {
    expect(loadConfig({ ...S3, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_PREFIX: '/crm/prod/' }).storage).toEqual({
      driver: 's3',
      s3: {
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        bucket: 'crm',
        accessKeyId: 'key',
        secretAccessKey: 'secret',
        prefix: 'crm/prod',
        forcePathStyle: true,
      },
    });
    const aws = loadConfig({ ...S3, S3_REGION: 'cn-north-1' }).storage;
    expect(aws).toMatchObject({ s3: { endpoint: '', region: 'cn-north-1', prefix: '', forcePathStyle: false } });
    const oss = loadConfig({ ...S3, S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com', S3_FORCE_PATH_STYLE: 'false' });
    expect(oss.storage).toMatchObject({ s3: { forcePathStyle: false } });
  });

  it('refuses to boot with s3 chosen and a required value missing', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(
      '配置错误: STORAGE_DRIVER=s3 需要 S3_BUCKET、S3_ACCESS_KEY_ID、S3_SECRET_ACCESS_KEY',
    );
    expect(() => loadConfig({ ...S3, S3_SECRET_ACCESS_KEY: '' })).toThrow(/需要 S3_SECRET_ACCESS_KEY$/);
    expect(() => loadConfig({ ...S3, S3_REGION: '' })).toThrow(/需要 S3_REGION$/);
  });

  it('refuses a bad driver, endpoint or prefix', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
    expect(() => loadConfig({ ...S3, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    for (const prefix of ['crm/../x', 'a b', 'crm//x', './crm']) {
      expect(() => loadConfig({ ...S3, S3_PREFIX: prefix }), prefix).toThrow(/S3_PREFIX/);
    }
  });
});
