import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, uploadAs } from '../../test/harness';

// 导入号码 of a seat task from an uploaded .xlsx or .txt (calltask/numberfile): the entries in file
// order, for the form to check as typed lines; the file's size limit at both edges.

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const upload = async (user: string, name: string, data: Buffer) => {
  const res = await uploadAs(t, as(user), name, data);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.id as number;
};
const read = (fileId: number, user = 'admin') => t.post('/api/frontend/calltask/numberfile', { fileId }, as(user));
const xlsxOf = async (rows: (string | number)[][]) => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('号码');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
};
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `138${String(i).padStart(8, '0')}`);

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => {
  await t.close();
});

describe('calltask/numberfile', () => {
  it('reads every cell of an .xlsx and the lines of a .txt, in file order, unchecked', async () => {
    const xlsx = await upload('admin', '名单.xlsx', await xlsxOf([['号码', '备注'], [13600000001, '老客户'], ['136 0000 0002']]));
    const res = await read(xlsx);
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { lines: ['号码', '备注', '13600000001', '老客户', '136 0000 0002'] },
    });
    const txt = await upload('admin', '名单.txt', Buffer.from('13600000003\r\n13600000004，13600000005\n\n'));
    expect((await read(txt)).json().data.lines).toEqual(['13600000003', '13600000004', '13600000005']);
  });

  it('takes 20,000 entries and refuses 20,001 with a Chinese message', async () => {
    const atCap = await upload('admin', '两万.txt', Buffer.from(numbers(20_000).join('\n')));
    const ok = await read(atCap);
    expect(ok.json().code, ok.body).toBe(0);
    expect(ok.json().data.lines).toHaveLength(20_000);
    const over = await upload('admin', '超限.xlsx', await xlsxOf(numbers(20_001).map((n) => [n])));
    const res = await read(over);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 115033, msg: '文件中的号码超过20000个，请分批导入' });
  });

  it('refuses other file types, another company’s file, and staff without 坐席任务', async () => {
    const png = await upload(
      'admin',
      '图片.png',
      Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
    );
    expect((await read(png)).json()).toMatchObject({ code: 110032, msg: '请上传 .xlsx 或 .txt 文件' });
    const theirs = await upload('other_admin', '名单.txt', Buffer.from('13600000009'));
    const res = await read(theirs);
    expect(res.statusCode).toBe(404);
    const mine = await upload('admin', '名单2.txt', Buffer.from('13600000010'));
    expect((await read(mine, 'lisi')).statusCode).toBe(403);
  });
});
