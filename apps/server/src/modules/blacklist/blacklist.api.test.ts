import type { BlackCheckResult, BlackFile } from '@crm/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, uploadAs } from '../../test/harness';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const upload = async (user: string, name: string, data: Buffer) => {
  const res = await uploadAs(t, as(user), name, data);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.id as number;
};

const xlsxOf = async (rows: (string | number)[][]) => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('号码');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
};

const files = async (user: string, query = '') => {
  const res = await t.get(`/api/frontend/black/file/list${query}`, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { list: BlackFile[]; count: number };
};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => {
  await t.close();
});

describe('blacklist files', () => {
  it('imports a .txt and an .xlsx, lists and filters them', async () => {
    const txt = await upload(
      'admin',
      '投诉号码.txt',
      Buffer.from('13600000001\n13600000002, 13600000002\nnot-a-number\n010-62345678\n'),
    );
    const created = await t.post('/api/frontend/black/file/create', { name: '投诉号码', fileId: txt }, as('admin'));
    expect(created.json()).toMatchObject({ code: 0, msg: '导入成功' });
    const xlsx = await upload(
      'admin',
      '退订.xlsx',
      await xlsxOf([
        ['号码', '备注'],
        ['13600000003', '退订'],
        [13600000004, ''],
      ]),
    );
    expect((await t.post('/api/frontend/black/file/create', { name: '退订名单', fileId: xlsx }, as('admin'))).json().code).toBe(
      0,
    );

    const all = await files('admin');
    expect(all.count).toBe(2);
    expect(all.list.find((f) => f.name === '投诉号码')).toMatchObject({
      numberCount: 3,
      invalidCount: 1,
      dmState: 0,
      cmSidName: '系统管理员',
    });
    expect(all.list.find((f) => f.name === '退订名单')).toMatchObject({ numberCount: 2 });
    expect((await files('admin', `?name=${encodeURIComponent('投诉')}`)).count).toBe(1);
    expect((await files('admin', '?dmState=1')).count).toBe(0);
    expect((await files('admin', '?createStartTime=2000-01-01&createEndTime=2000-01-02')).count).toBe(0);
    expect((await files('other_admin')).count).toBe(0);
    // the menu: application 6 only
    expect((await t.get('/api/frontend/black/file/list', as('lisi'))).json().code).toBe(100003);

    const id = all.list.find((f) => f.name === '投诉号码')?.cmBfid;
    const numbers = (await t.get(`/api/frontend/black/number/list?cmBfid=${id}`, as('admin'))).json().data;
    expect(numbers.list.map((n: { phone: string }) => n.phone).sort()).toEqual(['01062345678', '13600000001', '13600000002']);

    const empty = await upload('admin', 'empty.txt', Buffer.from('abc\n'));
    expect((await t.post('/api/frontend/black/file/create', { name: '空', fileId: empty }, as('admin'))).json()).toMatchObject({
      code: 110031,
    });
    const png = await t.post('/api/frontend/black/file/create', { name: '别人的', fileId: 999999 }, as('admin'));
    expect(png.json().code).toBe(100005);
  });

  it('a switched-off file is not checked; a deleted one is gone', async () => {
    const all = await files('admin');
    const complaints = all.list.find((f) => f.name === '投诉号码') as BlackFile;
    const check = async (numbers: string) => {
      const res = await t.post('/api/frontend/black/check', { numbers }, as('admin'));
      expect(res.json().code, res.body).toBe(0);
      return res.json().data as BlackCheckResult;
    };
    expect((await check('13600000001')).blackCount).toBe(1);
    await t.post('/api/frontend/black/file/edit', { cmBfid: complaints.cmBfid, name: '投诉号码', dmState: 1 }, as('admin'));
    expect((await check('13600000001')).blackCount).toBe(0);
    await t.post('/api/frontend/black/file/edit', { cmBfid: complaints.cmBfid, name: '投诉号码', dmState: 0 }, as('admin'));
    const unsub = all.list.find((f) => f.name === '退订名单') as BlackFile;
    expect((await t.post('/api/frontend/black/file/del', { cmBfid: unsub.cmBfid }, as('admin'))).json().code).toBe(0);
    expect((await check('13600000003')).blackCount).toBe(0);
    expect((await t.post('/api/frontend/black/file/del', { cmBfid: unsub.cmBfid }, as('admin'))).json().code).toBe(110030);
  });
});

describe('manual entries', () => {
  it('adds, refuses duplicates and bad numbers, deletes', async () => {
    const add = (phone: string) => t.post('/api/frontend/black/number/create', { phone, remark: '手动' }, as('admin'));
    expect((await add('13700000001')).json().code).toBe(0);
    expect((await add('137 0000 0001')).json()).toMatchObject({ code: 110034, msg: '该号码已在黑名单中' });
    expect((await add('123')).json()).toMatchObject({ code: 110033 });
    const list = (await t.get('/api/frontend/black/number/list', as('admin'))).json().data;
    expect(list.list[0]).toMatchObject({ phone: '13700000001', remark: '手动', cmBfid: 0 });
    // an id that is not the company's is skipped and not counted
    const del = await t.post('/api/frontend/black/number/del', { ids: [list.list[0].id, 2_000_000_000] }, as('admin'));
    expect(del.json()).toMatchObject({ code: 0, data: { count: 1 } });
    expect((await t.get('/api/frontend/black/number/list', as('admin'))).json().data.count).toBe(0);
  });
});

describe('blacklist check (/call/blackcheck)', () => {
  it('filters an uploaded list and offers the result as .xlsx', async () => {
    const list = await upload(
      'zhangsan',
      '待拨.xlsx',
      await xlsxOf([['13600000001'], ['13600000009'], ['13600000009'], ['无效']]),
    );
    const res = await t.post('/api/frontend/black/check', { fileId: list }, as('zhangsan'));
    expect(res.json()).toMatchObject({ code: 0, data: { total: 4, cleanCount: 1, blackCount: 1, invalidCount: 1 } });
    const result = res.json().data as BlackCheckResult;
    expect(result.blackSample).toEqual(['13600000001']);
    const file = await t.app.inject({ method: 'GET', url: result.url, headers: { authorization: as('zhangsan') } });
    expect(file.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['可拨打号码', '黑名单号码', '无效号码']);
    expect(wb.getWorksheet('可拨打号码')?.getRow(2).getCell(1).value).toBe('13600000009');
    expect(wb.getWorksheet('黑名单号码')?.getRow(2).getCell(1).value).toBe('13600000001');
    // the result is the checker's own file
    const foreign = await t.app.inject({ method: 'GET', url: result.url, headers: { authorization: as('admin') } });
    expect(foreign.statusCode).toBe(404);
    // nothing to check; a salesman without the menu
    expect((await t.post('/api/frontend/black/check', {}, as('zhangsan'))).json().code).toBe(100001);
    expect((await t.post('/api/frontend/black/check', { numbers: '13600000001' }, as('lisi'))).json().code).toBe(100003);
    // another company's blacklist is its own
    const other = await t.post('/api/frontend/black/check', { numbers: '13600000001' }, as('other_admin'));
    expect(other.json().data.blackCount).toBe(0);
  });
});
