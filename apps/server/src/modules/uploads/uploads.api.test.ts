import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

// ---------- a real 1x1 PNG, built byte by byte ----------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const tinyPng = (): Buffer => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const scanline = Buffer.from([0, 0xff, 0x00, 0x00, 0xff]); // filter 0, one red pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
};
const PNG = tinyPng();

// ---------- multipart/form-data by hand ----------
type Part = { name: string; data: Buffer; type?: string };
const multipart = (parts: Part[], fields: Record<string, string> = {}) => {
  const boundary = `----crmtest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`));
  }
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${p.name}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
};

let t: TestApp;
let dataDir: string;
let admin: string;
let other: string;

const upload = (
  token: string | undefined,
  parts: Part[],
  opts: { method?: 'POST' | 'PUT'; fields?: Record<string, string> } = {},
) => {
  const { payload, contentType } = multipart(parts, opts.fields);
  const method = opts.method ?? 'POST';
  return t.app.inject({
    method,
    url: method === 'PUT' ? '/api/v1/upload/file' : '/api/frontend/upload/file',
    payload,
    headers: { 'content-type': contentType, ...(token ? { authorization: token } : {}) },
  });
};
const fileCount = async () => (await t.database.db.select({ id: files.id }).from(files)).length;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-uploads-'));
  t = await createTestApp({ dataDir });
  admin = await t.login('admin');
  other = await t.login('other_admin');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('uploading', () => {
  let url: string;
  let id: number;

  it('stores a PNG under a generated name and answers its url', async () => {
    const res = await upload(admin, [{ name: 'avatar.png', data: PNG, type: 'image/png' }], { fields: { scene: 'avatar' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 0, msg: '上传成功', data: { name: 'avatar.png', size: PNG.length } });
    url = body.data.url;
    id = body.data.id;
    expect(url).toMatch(/^\/api\/files\/[\w-]+\.png$/);
    expect(url).not.toContain('avatar');
    expect(body.data.list).toHaveLength(1);

    const [row] = await t.database.db.select().from(files).where(eq(files.id, id));
    expect(row).toMatchObject({ originalName: 'avatar.png', mime: 'image/png', size: PNG.length, scene: 'avatar' });
    expect(fs.readFileSync(path.join(dataDir, 'files', row.storedName)).equals(PNG)).toBe(true);
  });

  it('keeps a client file name as readable text PostgreSQL can store: no NUL or control characters, at most 200 characters', async () => {
    const res = await upload(admin, [{ name: `a\u0000b\u0007c${'长'.repeat(300)}.png`, data: PNG, type: 'image/png' }]);
    expect(res.json()).toMatchObject({ code: 0, msg: '上传成功' });
    const [row] = await t.database.db.select().from(files).where(eq(files.id, res.json().data.id));
    expect(row.originalName).toBe(`abc${'长'.repeat(197)}`);
    const edge = await upload(admin, [{ name: `${'名'.repeat(196)}.png`, data: PNG, type: 'image/png' }]);
    expect(edge.json().data.name).toBe(`${'名'.repeat(196)}.png`);
  });

  it('serves the file to its own company, by header or cookie', async () => {
    const res = await t.get(url, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(PNG)).toBe(true);
    const lisi = await t.login('lisi');
    expect((await t.get(url, lisi)).statusCode).toBe(200);
    const byCookie = await t.app.inject({ method: 'GET', url, headers: { cookie: `token=${encodeURIComponent(admin)}` } });
    expect(byCookie.statusCode).toBe(200);
  });

  it('hides the file from another company and from callers without a token', async () => {
    const res = await t.get(url, other);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(100005);
    const anonymous = await t.get(url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe(100002);
    expect((await t.get('/api/files/..%2F..%2Fetc%2Fpasswd', admin)).statusCode).toBe(404);
  });

  it('lets the company use its own image as an avatar or logo, but not another company', async () => {
    const personal = await t.post('/api/frontend/user/edit', { name: '系统管理员', sex: 1, email: '', cbAhid: id }, admin);
    expect(personal.json()).toMatchObject({ code: 0, data: { userInfo: { cbAhid: id, cbAhidUrl: url } } });
    const logo = await t.post('/api/frontend/company/edit', { name: '演示科技有限公司', logoFileId: id }, admin);
    expect(logo.json().code).toBe(0);
    expect((await t.get('/api/frontend/company/info', admin)).json().data).toMatchObject({ logoFileId: id, logoUrl: url });

    const otherAvatar = await t.post('/api/frontend/user/edit', { name: '其他管理员', sex: 1, email: '', cbAhid: id }, other);
    expect(otherAvatar.statusCode).toBe(404);
    expect(otherAvatar.json().code).toBe(100005);
    const otherLogo = await t.post('/api/frontend/company/edit', { name: '测试二公司', logoFileId: id }, other);
    expect(otherLogo.json().code).toBe(100005);
  });

  it('accepts the PUT route and several files at once', async () => {
    const res = await upload(
      other,
      [
        { name: 'a.png', data: PNG },
        { name: 'notes.txt', data: Buffer.from('跟进记录：客户有意向\n') },
      ],
      { method: 'PUT' },
    );
    expect(res.json().code).toBe(0);
    const list = res.json().data.list as { url: string; name: string }[];
    expect(list.map((f) => f.name)).toEqual(['a.png', 'notes.txt']);
    const txt = await t.get(list[1].url, other);
    expect(txt.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(txt.body).toBe('跟进记录：客户有意向\n');
    expect((await t.get(list[0].url, admin)).statusCode).toBe(404);
  });

  it('keeps a Chinese file name', async () => {
    const res = await upload(admin, [{ name: '头像.png', data: PNG }]);
    expect(res.json().data.name).toBe('头像.png');
    const file = await t.get(res.json().data.url, admin);
    expect(file.headers['content-disposition']).toBe(`inline; filename*=UTF-8''${encodeURIComponent('头像.png')}`);
  });
});

describe('upload rules', () => {
  it('refuses an extension not on the list (105001)', async () => {
    const before = await fileCount();
    const res = await upload(admin, [{ name: 'setup.exe', data: Buffer.from('MZ\x90\x00') }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 105001, msg: '不支持的文件格式' });
    expect((await upload(admin, [{ name: 'noextension', data: PNG }])).json().code).toBe(105001);
    expect(await fileCount()).toBe(before);
  });

  it('refuses content that does not match the extension (105005)', async () => {
    const before = await fileCount();
    const res = await upload(admin, [{ name: 'x.png', data: Buffer.from('just some text, not an image') }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 105005, msg: '文件内容与扩展名不符' });
    // A PNG named .txt or .pdf is refused too.
    expect((await upload(admin, [{ name: 'x.txt', data: PNG }])).json().code).toBe(105005);
    expect((await upload(admin, [{ name: 'x.pdf', data: PNG }])).json().code).toBe(105005);
    expect(await fileCount()).toBe(before);
  });

  it('refuses more than 5 files in one request (105002)', async () => {
    const parts = Array.from({ length: 6 }, (_, i) => ({ name: `p${i}.png`, data: PNG }));
    const res = await upload(admin, parts);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 105002, msg: '请先移除已有文件再进行选择' });
    // Exactly 5 is fine.
    const five = await upload(admin, parts.slice(0, 5));
    expect(five.json().data.list).toHaveLength(5);
  });

  it('keeps nothing of a refused request of 6 files', async () => {
    const before = await fileCount();
    const onDisk = fs.readdirSync(path.join(dataDir, 'files')).length;
    const parts = Array.from({ length: 6 }, (_, i) => ({ name: `q${i}.png`, data: PNG }));
    expect((await upload(admin, parts)).json().code).toBe(105002);
    expect(await fileCount()).toBe(before);
    expect(fs.readdirSync(path.join(dataDir, 'files')).length).toBe(onDisk);
  });

  it('refuses a request without a file (105004) or an empty file', async () => {
    const none = await upload(admin, [], { fields: { scene: 'avatar' } });
    expect(none.json()).toMatchObject({ code: 105004, msg: '请选择要上传的文件' });
    expect((await upload(admin, [{ name: 'empty.png', data: Buffer.alloc(0) }])).json().code).toBe(105004);
  });

  it('needs a token', async () => {
    const res = await upload(undefined, [{ name: 'a.png', data: PNG }]);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(100002);
  });

  it('refuses a non-image file as avatar (105001)', async () => {
    const txt = await upload(admin, [{ name: 'n.txt', data: Buffer.from('hello') }]);
    const res = await t.post(
      '/api/frontend/user/edit',
      { name: '系统管理员', sex: 1, email: '', cbAhid: txt.json().data.id },
      admin,
    );
    expect(res.json()).toMatchObject({ code: 105001, msg: '不支持的文件格式' });
  });
});
