import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMPORT_MAX_ROWS, UPLOAD_MAX_BYTES } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, staff } from '../../db/schema';
import { buildXlsx, grantRole, multipart, waitJob } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildXlsxParts, inlineRow, SHEET_HEAD, SHEET_TAIL, sharedStringsBomb } from '../../test/xlsx-build';

/**
 * Issue 11, holes 1 and 9: an untrusted .xlsx is read within bounds and refused with a Chinese
 * 4xx; a refused preview keeps nothing, and importstart takes only a file whose preview succeeded.
 */
let t: TestApp;
let dataDir: string;
const tokens: Record<string, string> = {};
const staffIds: Record<string, number> = {};
const as = (user: string) => tokens[user];

const send = (user: string, url: string, name: string, data: Buffer, fields: Record<string, string> = {}) => {
  const { payload, contentType } = multipart({ name, data });
  const boundary = contentType.split('boundary=')[1];
  const extra = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url,
    payload: Buffer.concat([Buffer.from(extra.join('')), payload]),
    headers: { 'content-type': contentType, authorization: as(user) },
  });
};
const preview = (user: string, name: string, data: Buffer) => send(user, '/api/frontend/customer/importpreview', name, data);
const start = (user: string, fileId: number) =>
  t.post('/api/frontend/customer/importstart', { fileId, mapping: [{ column: 0, target: 'name' }] }, as(user));

/** An .xlsx of a 客户名称 header and `n` one-cell rows, written by hand (fast at 100,000 rows). */
const namesSheet = (n: number, prefix: string) => {
  const rows = [inlineRow(1, ['客户名称'])];
  for (let i = 1; i <= n; i++)
    rows.push(`<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${prefix}${i}</t></is></c></row>`);
  return buildXlsxParts({ sheet: `${SHEET_HEAD}${rows.join('')}${SHEET_TAIL}` });
};

/** What the staff member has stored: rows of `files` and the files on disk. */
const stored = async (user: string) => ({
  rows: (await t.database.db.select({ id: files.id }).from(files).where(eq(files.staffId, staffIds[user]))).length,
  onDisk: fs.existsSync(path.join(dataDir, 'files')) ? fs.readdirSync(path.join(dataDir, 'files')).length : 0,
});

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-import-limits-'));
  t = await createTestApp({ dataDir });
  for (const u of ['admin', 'zhangsan', 'wangwu']) tokens[u] = await t.login(u);
  for (const row of await t.database.db.select({ id: staff.id, username: staff.username }).from(staff))
    staffIds[row.username] = row.id;
  await grantRole(t, as('admin'), '销售主管', { actions: ['frontend/customer/import'] });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('importpreview of untrusted files', () => {
  it('the 5 MB shared-string bomb (5.2 GB unpacked) answers 400 in Chinese within seconds; the server keeps answering', async () => {
    const bomb = sharedStringsBomb();
    expect(bomb.length).toBeLessThan(6 * 1024 * 1024);
    const before = await stored('admin');
    const started = performance.now();
    const res = await preview('admin', '炸弹.xlsx', bomb);
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 106009, msg: '单元格内容最多32767个字符' });
    expect(ms).toBeLessThan(5_000);
    expect(await stored('admin')).toEqual(before);
    // still serving, the same caller included
    const ok = await preview('admin', '正常.xlsx', await buildXlsx([['客户名称'], ['炸弹之后-甲公司']]));
    expect(ok.json()).toMatchObject({ code: 0, data: { rowCount: 1 } });
  });

  it(`the row cap at both edges: ${IMPORT_MAX_ROWS} rows are previewed, one more is refused and nothing is kept`, async () => {
    const atCap = await preview('admin', '十万.xlsx', namesSheet(IMPORT_MAX_ROWS, '上限'));
    expect(atCap.json().code, atCap.body).toBe(0);
    expect(atCap.json().data.rowCount).toBe(IMPORT_MAX_ROWS);
    const before = await stored('admin');
    const over = await preview('admin', '十万零一.xlsx', namesSheet(IMPORT_MAX_ROWS + 1, '超限'));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 106009, msg: `单次最多导入${IMPORT_MAX_ROWS}条客户` });
    expect(await stored('admin')).toEqual(before);
  });

  it('a file past the 20 MB upload limit answers 400 文件大小超出限制, at both edges', async () => {
    // A stored (uncompressed) zip part: the upload's own bytes are what is limited here.
    const padded = (bytes: number) => {
      const head = buildXlsxParts({ sheet: `${SHEET_HEAD}${inlineRow(1, ['客户名称'])}${SHEET_TAIL}` });
      return Buffer.concat([head, Buffer.alloc(bytes - head.length)]);
    };
    const atLimit = await preview('admin', '二十兆.xlsx', padded(UPLOAD_MAX_BYTES));
    expect(atLimit.json().code, atLimit.body).not.toBe(105003);
    const over = await preview('admin', '超过二十兆.xlsx', padded(UPLOAD_MAX_BYTES + 1));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 105003, msg: '文件大小超出限制' });
  });

  it('a refused preview keeps no file and no row, whatever the reason', async () => {
    const before = await stored('admin');
    const refused = [
      await preview('admin', '无表头.xlsx', await buildXlsx([])),
      await preview('admin', '坏文件.xlsx', Buffer.from('PK\u0003\u0004 not really a zip')),
      await preview(
        'admin',
        '太宽.xlsx',
        buildXlsxParts({ sheet: `${SHEET_HEAD}<row r="1"><c r="AMK1"><v>1</v></c></row>${SHEET_TAIL}` }),
      ),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(refused[2].json().msg).toBe('文件最多1024列');
    expect(await stored('admin')).toEqual(before);
  });
});

describe('importstart takes only a file whose preview succeeded', () => {
  it('a previewed file starts; the same file uploaded as scene "import" does not', async () => {
    const buf = await buildXlsx([['客户名称'], ['预览过-甲公司']]);
    const previewed = (await preview('admin', '预览过.xlsx', buf)).json().data.fileId as number;
    const res = await start('admin', previewed);
    expect(res.json()).toMatchObject({ code: 0, msg: '导入任务已开始' });
    const job = await waitJob(t, as('admin'), res.json().data.jobId);
    expect(job).toMatchObject({ status: 'done', total: 1 });
    // the demo template requires 联系人 and 手机: the row is read and rejected with its reason
    expect(job.result).toMatchObject({ created: 0, rejected: 1 });

    const uploaded = await send('admin', '/api/frontend/upload/file', '没预览.xlsx', namesSheet(IMPORT_MAX_ROWS + 1, '绕过'), {
      scene: 'import',
    });
    expect(uploaded.json().code, uploaded.body).toBe(0);
    const bypass = await start('admin', uploaded.json().data.id);
    expect(bypass.statusCode).toBe(404);
    expect(bypass.json()).toMatchObject({ code: 100005, msg: '导入文件不存在，请重新上传' });
  });

  it('a file previewed by one staff member cannot be started by another of the company', async () => {
    const fileId = (await preview('zhangsan', '张三的.xlsx', await buildXlsx([['客户名称'], ['张三-乙公司']]))).json().data
      .fileId as number;
    const res = await start('admin', fileId);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('导入文件不存在，请重新上传');
  });

  it('an import file over the cap that got in anyway (older data) fails its job at the cap, with nothing imported', async () => {
    // A file stored with the import scene before previews were checked: the job still reads within the cap.
    const uploaded = await send('admin', '/api/frontend/upload/file', '旧文件.xlsx', namesSheet(IMPORT_MAX_ROWS + 1, '旧数据'));
    const id = uploaded.json().data.id as number;
    await t.database.db.update(files).set({ scene: 'import' }).where(eq(files.id, id));
    const res = await start('admin', id);
    expect(res.json().code, res.body).toBe(0);
    const job = await waitJob(t, as('admin'), res.json().data.jobId);
    expect(job).toMatchObject({ status: 'failed', error: `单次最多导入${IMPORT_MAX_ROWS}条客户` });
    const list = await t.post('/api/frontend/customer/minelist', { name: '旧数据' }, as('admin'));
    expect(list.json().data.count).toBe(0);
  });
});

describe('blacklist files are read within the same bounds', () => {
  const upload = async (name: string, data: Buffer) => {
    const res = await send('admin', '/api/frontend/upload/file', name, data);
    expect(res.json().code, res.body).toBe(0);
    return res.json().data.id as number;
  };

  it('the shared-string bomb answers 400 in Chinese within seconds', async () => {
    const fileId = await upload('黑名单炸弹.xlsx', sharedStringsBomb());
    const started = performance.now();
    const res = await t.post('/api/frontend/black/file/create', { name: '炸弹', fileId }, as('admin'));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 106009, msg: '单元格内容最多32767个字符' });
    const check = await t.post('/api/frontend/black/check', { fileId }, as('admin'));
    expect(check.json()).toMatchObject({ code: 106009, msg: '单元格内容最多32767个字符' });
  });

  it('reading stops after 200,000 rows, even rows without a number', async () => {
    const blank = (n: number) => {
      const rows: string[] = [];
      for (let i = 1; i <= n; i++) rows.push(`<row r="${i}"><c r="A${i}"/></row>`);
      return buildXlsxParts({ sheet: `${SHEET_HEAD}${rows.join('')}${SHEET_TAIL}` });
    };
    const atCap = await t.post('/api/frontend/black/check', { fileId: await upload('二十万.xlsx', blank(200_000)) }, as('admin'));
    expect(atCap.json().code, atCap.body).toBe(0);
    const over = await t.post('/api/frontend/black/check', { fileId: await upload('超限.xlsx', blank(200_001)) }, as('admin'));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 110035, msg: '文件行数超出上限（20万行）' });
  });
});
