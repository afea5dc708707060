import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageOf } from '../../lib/storage';
import { sheetRows, waitJob } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { startS3Double } from '../../test/s3-double';

// The app with STORAGE_DRIVER=s3 against s3rver, the stand-in for a real object store
// (test/s3-double.ts): an upload goes to the bucket, under the prefix, and is served back from it.
let double: Awaited<ReturnType<typeof startS3Double>>;
let t: TestApp;
let dataDir: string;
let admin: string;

const uploadText = (token: string, name: string, text: string) => {
  const boundary = `----crmtest${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/frontend/upload/file',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: token },
  });
};

beforeAll(async () => {
  double = await startS3Double();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-uploads-s3-'));
  t = await createTestApp({ dataDir, config: { storage: { driver: 's3', s3: { ...double.config, prefix: 'crm' } } } });
  admin = await t.login('admin');
});
afterAll(async () => {
  await t?.close();
  await double?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('uploads on the S3 driver', () => {
  it('an uploaded file is stored in the bucket under the prefix, not in DATA_DIR, and served back whole', async () => {
    const text = `客户名单\n${'张三 13800000000\n'.repeat(40_000)}`;
    const res = await uploadText(admin, '名单.txt', text);
    expect(res.json()).toMatchObject({ code: 0, msg: '上传成功', data: { name: '名单.txt', size: Buffer.byteLength(text) } });
    const url: string = res.json().data.url;
    const key = url.replace('/api/files/', '');
    expect(double.keys()).toContain(`crm/${key}`);
    expect(fs.existsSync(path.join(dataDir, 'files', key))).toBe(false);

    const served = await t.get(url, admin);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(served.payload).toBe(text);
  });

  it('a file whose object is gone from the bucket is 404, as on the local driver', async () => {
    const res = await uploadText(admin, 'gone.txt', 'bye');
    const url: string = res.json().data.url;
    const key = url.replace('/api/files/', '');
    expect(storageOf(dataDir).driver).toBe('s3');
    await storageOf(dataDir).delete(key);
    const served = await t.get(url, admin);
    expect(served.statusCode).toBe(404);
    expect(served.json().code).toBe(100005);
  });

  it('a file the server writes (a customer export, put as a stream by a job worker) goes to the bucket too', async () => {
    const started = await t.post('/api/frontend/customer/allotexportlist', {}, admin);
    expect(started.json()).toMatchObject({ code: 0, msg: '导出任务已开始' });
    const job = await waitJob(t, admin, started.json().data.jobId);
    expect(job).toMatchObject({ kind: 'export', status: 'done', error: '' });
    const key = job.fileUrl.replace('/api/files/', '');
    expect(double.keys()).toContain(`crm/${key}`);
    expect(fs.existsSync(path.join(dataDir, 'files', key))).toBe(false);
    const served = await t.get(job.fileUrl, admin);
    expect(served.statusCode).toBe(200);
    const rows = await sheetRows(served.rawPayload);
    expect(rows[0]).toContain('客户名称');
    expect(rows.length).toBeGreaterThan(1);
  });
});
