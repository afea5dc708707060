import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CustomerRow, ImportPreview, JobInfo } from '@crm/contracts';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, staff } from '../../db/schema';
import {
  buildXlsx,
  fetchTemplate,
  grantRole,
  info,
  listCustomers,
  multipart,
  setStrategy,
  sheetRows,
  type Template,
  textOf,
  valuesOf,
  waitJob,
} from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

const CONTROL_NAMES = [
  '联系人',
  '手机',
  '座机',
  '微信',
  '地区',
  '行业',
  '客户来源',
  '客户级别',
  '意向产品',
  '预计成交金额',
  '备注',
];
const EXPORT_HEADER = [
  '客户编号',
  '客户名称',
  ...CONTROL_NAMES,
  '阶段',
  '标签',
  '负责人',
  '所属部门',
  '最近联系',
  '最近联系时间',
  '下次跟进时间',
  '联系次数',
  '创建人',
  '创建时间',
];
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let t: TestApp;
let dataDir: string;
let tpl: Template;
const tokens: Record<string, string> = {};
const staffIds: Record<string, number> = {};
const as = (user: string) => tokens[user];

const startExport = async (user: string, kind: string, body: Record<string, unknown> = {}) => {
  const res = await t.post(`/api/frontend/customer/${kind}`, body, as(user));
  expect(res.json()).toMatchObject({ code: 0, msg: '导出任务已开始' });
  return res.json().data.jobId as string;
};
const download = async (user: string, url: string) => {
  const res = await t.get(url, as(user));
  expect(res.statusCode, url).toBe(200);
  return res;
};
/** Runs an export to the end and returns its job and sheet rows. */
const exportRows = async (user: string, kind: string, body: Record<string, unknown> = {}) => {
  const job = await waitJob(t, as(user), await startExport(user, kind, body));
  expect(job).toMatchObject({ kind: 'export', status: 'done', error: '' });
  const file = await download(user, job.fileUrl);
  expect(file.headers['content-type']).toBe(XLSX_MIME);
  return { job, file, rows: await sheetRows(file.rawPayload) };
};
const col = (rows: string[][], name: string) => rows[0].indexOf(name);
const firstOwnedBy = async (user: string) => {
  const [row] = await t.database.db
    .select()
    .from(customers)
    .where(and(eq(customers.ownerId, staffIds[user]), isNull(customers.deletedAt)))
    .orderBy(asc(customers.id))
    .limit(1);
  return row;
};
const mobileOf = (row: typeof customers.$inferSelect) => row.vals[String(tpl.byName.手机.cbTacid)][0];

const preview = (user: string, name: string, data: Buffer) => {
  const { payload, contentType } = multipart({ name, data });
  return t.app.inject({
    method: 'POST',
    url: '/api/frontend/customer/importpreview',
    payload,
    headers: { 'content-type': contentType, authorization: as(user) },
  });
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-customers-io-'));
  t = await createTestApp({ dataDir });
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
  for (const row of await t.database.db.select({ id: staff.id, username: staff.username }).from(staff))
    staffIds[row.username] = row.id;
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('export', () => {
  it('needs the export action: a 销售 is refused (100004)', async () => {
    for (const kind of ['mineexportlist', 'subscribeexportlist', 'nevermentionedexportlist']) {
      const res = await t.post(`/api/frontend/customer/${kind}`, {}, as('lisi'));
      expect(res.statusCode, kind).toBe(403);
      expect(res.json()).toMatchObject({ code: 100004, msg: '您没有执行该操作的权限，请联系管理员' });
    }
  });

  it('mineexportlist: a job whose .xlsx holds exactly the rows and columns of the list', async () => {
    const list = await listCustomers(t, as('zhangsan'), 'minelist');
    expect(list.count).toBe(12);
    const { job, file, rows } = await exportRows('zhangsan', 'mineexportlist');
    expect(job.processed).toBe(12);
    expect(job.total).toBe(12);
    expect(job.fileUrl).toMatch(/^\/api\/files\/[\w-]+\.xlsx$/);
    expect(job.fileName).toMatch(/^我的客户_\d{12}\.xlsx$/);
    expect(job.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');

    expect(rows[0]).toEqual(EXPORT_HEADER);
    expect(rows).toHaveLength(list.count + 1);
    const byId = new Map(rows.slice(1).map((r) => [Number(r[0]), r]));
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual(list.list.map((r) => r.cmCtid).sort((a, b) => a - b));
    for (const c of list.list) {
      const r = byId.get(c.cmCtid) as string[];
      expect(r[col(rows, '客户名称')]).toBe(c.name);
      expect(r[col(rows, '联系人')]).toBe(valuesOf(c, '联系人')[0]);
      expect(r[col(rows, '手机')]).toBe(valuesOf(c, '手机')[0]);
      expect(r[col(rows, '地区')]).toBe(textOf(c, '地区').join(''));
      expect(r[col(rows, '行业')]).toBe(valuesOf(c, '行业')[0]);
      expect(r[col(rows, '意向产品')]).toBe(valuesOf(c, '意向产品').join('/'));
      expect(r[col(rows, '负责人')]).toBe('张三');
      expect(r[col(rows, '所属部门')]).toBe('销售一部');
      expect(r[col(rows, '最近联系')]).toBe('未联系');
      expect(r[col(rows, '创建时间')]).toBe(c.createTime);
    }
    // The file is the caller's company's: no token, no file; another company, no file.
    expect((await t.get(job.fileUrl)).statusCode).toBe(401);
    expect((await t.get(job.fileUrl, as('other_admin'))).statusCode).toBe(404);
  });

  it('allotexportlist follows the filters and the data scope', async () => {
    const filters = { templateControls: [{ cbTacid: tpl.byName.行业.cbTacid, dmValue: ['互联网', '制造业'] }] };
    const list = await listCustomers(t, as('zhangsan'), 'allotlist', filters);
    expect(list.count).toBeGreaterThan(0);
    expect(list.count).toBeLessThan(36);
    const { job, rows } = await exportRows('zhangsan', 'allotexportlist', { ...filters, page: 3, limit: 1 });
    expect(job.fileName).toMatch(/^客户分配_/);
    expect(rows).toHaveLength(list.count + 1);
    expect(
      rows
        .slice(1)
        .map((r) => Number(r[0]))
        .sort((a, b) => a - b),
    ).toEqual(list.list.map((r) => r.cmCtid).sort((a, b) => a - b));
    for (const r of rows.slice(1)) expect(['互联网', '制造业']).toContain(r[col(rows, '行业')]);
    for (const r of rows.slice(1)) expect(['张三', '李四', '王五']).toContain(r[col(rows, '负责人')]);

    // The admin exports the whole company.
    const all = await exportRows('admin', 'allotexportlist');
    expect(all.rows).toHaveLength(49);
    // An empty result is still a file with its header.
    const none = await exportRows('zhangsan', 'mineexportlist', { name: '不存在的客户名' });
    expect(none.job.total).toBe(0);
    expect(none.rows).toEqual([EXPORT_HEADER]);
  });

  it('a job belongs to whoever started it', async () => {
    const jobId = await startExport('zhangsan', 'mineexportlist');
    await waitJob(t, as('zhangsan'), jobId);
    for (const user of ['lisi', 'admin', 'other_admin']) {
      const res = await t.get(`/api/frontend/customer/job?jobId=${jobId}`, as(user));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 106008, msg: '任务不存在或已过期' });
    }
    expect(
      (await t.get('/api/frontend/customer/job?jobId=00000000-0000-0000-0000-000000000000', as('zhangsan'))).json().code,
    ).toBe(106008);
    expect((await t.get('/api/frontend/customer/job?jobId=x', as('zhangsan'))).json().code).toBe(100001);
  });

  it('with phoneEncryp the exported numbers stay masked', async () => {
    await grantRole(t, as('admin'), '销售', { actions: ['frontend/customer/export'] });
    const real = (await listCustomers(t, as('lisi'), 'minelist')).list.map((r) => valuesOf(r, '手机')[0]);
    expect(real).toHaveLength(12);
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    try {
      const { rows, file } = await exportRows('lisi', 'mineexportlist');
      expect(rows).toHaveLength(13);
      const phones = rows.slice(1).map((r) => r[col(rows, '手机')]);
      for (const p of phones) expect(p).toMatch(/^1\d\d\*{4}\d{4}$/);
      expect(phones.sort()).toEqual(real.map((p) => `${p.slice(0, 3)}****${p.slice(-4)}`).sort());
      const text = rows.flat().join('|');
      for (const p of real) expect(text).not.toContain(p);
      expect(file.rawPayload.includes(Buffer.from(real[0]))).toBe(false);
      // The super admin's export is not masked.
      const adminExport = await exportRows('admin', 'allotexportlist', { followCmSid: staffIds.lisi });
      const adminPhones = adminExport.rows.slice(1).map((r) => r[col(adminExport.rows, '手机')]);
      expect(adminPhones.sort()).toEqual([...real].sort());
    } finally {
      await setStrategy(t, as('admin'));
    }
  });

  it('an export file is served only to the staff member who made it', async () => {
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    try {
      // The admin's file holds every number unmasked: a masked 销售 who learns the link must not get it.
      const { job } = await exportRows('admin', 'allotexportlist');
      for (const user of ['lisi', 'zhangsan']) {
        const leaked = await t.get(job.fileUrl, as(user));
        expect(leaked.statusCode, user).toBe(404);
        expect(leaked.json().code).toBe(100005);
      }
      expect((await t.get(job.fileUrl, as('admin'))).statusCode).toBe(200);
    } finally {
      await setStrategy(t, as('admin'));
    }
  });
});

describe('import', () => {
  const header = ['客户名称', ...CONTROL_NAMES, '无关的列'];
  let fileId: number;
  let previewData: ImportPreview;
  let lisiDup: typeof customers.$inferSelect;
  let zhaoliuDup: typeof customers.$inferSelect;

  it('needs the import action: a 销售 is refused (100004)', async () => {
    for (const res of [
      await t.get('/api/frontend/customer/importtemplate', as('lisi')),
      await preview('lisi', 'a.xlsx', await buildXlsx([header])),
      await t.post('/api/frontend/customer/importstart', { fileId: 1, mapping: [{ column: 0, target: 'name' }] }, as('lisi')),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 100004 });
    }
    await grantRole(t, as('admin'), '销售主管', { actions: ['frontend/customer/import'] });
  });

  it('importtemplate: an .xlsx whose first row is 客户名称 and the control names', async () => {
    const res = await t.get('/api/frontend/customer/importtemplate', as('zhangsan'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(res.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('客户导入模板.xlsx')}`);
    const rows = await sheetRows(res.rawPayload);
    expect(rows).toEqual([['客户名称', ...CONTROL_NAMES]]);
    const help = await sheetRows(res.rawPayload, 2);
    expect(help[0]).toEqual(['列名', '是否必填', '填写说明']);
    const helpOf = (name: string) => help.find((r) => r[0] === name) as string[];
    expect(helpOf('联系人')[1]).toBe('必填');
    expect(helpOf('手机')).toEqual(['手机', '必填', '手机或座机，如 13812345678、010-12345678；不能与已有客户重复']);
    expect(helpOf('行业')[2]).toBe('可选：教育培训、互联网、制造业、金融保险、房产家居、医疗健康、零售电商、其他');
    expect(helpOf('地区')[2]).toBe('省/市/区，如 广东省/深圳市/南山区');
  });

  it('importpreview: stores the file and shows headers, row count and a suggested mapping', async () => {
    lisiDup = await firstOwnedBy('lisi');
    zhaoliuDup = await firstOwnedBy('zhaoliu');
    const buf = await buildXlsx([
      header,
      // row 2: good, region as text, multi-select with a comma, numbers as numeric cells
      [
        '导入-甲公司',
        '孙甲',
        13912600001,
        '',
        'wx_sun',
        '广东省/深圳市/南山区',
        '互联网',
        '展会',
        'A（重点客户）',
        '云外呼,AI外呼',
        8000,
        '第一行',
        'x',
      ],
      // row 3: good, spaced mobile, landline, region without separators
      [
        '导入-乙公司',
        '钱乙',
        '139 1260 0002',
        '010-12345678',
        '',
        '浙江省杭州市西湖区',
        '',
        '',
        '',
        'AI外呼，电销CRM',
        '',
        '',
        '',
      ],
      // row 4: duplicates 李四's mobile (typed with spaces)
      [
        '导入-重复李四',
        '李重',
        `${mobileOf(lisiDup).slice(0, 3)} ${mobileOf(lisiDup).slice(3, 7)} ${mobileOf(lisiDup).slice(7)}`,
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
      // row 5: invalid mobile
      ['导入-坏号码', '赵坏', '12345678901', '', '', '', '', '', '', '', '', '', ''],
      // row 6: no 联系人
      ['导入-缺联系人', '', '13912600006', '', '', '', '', '', '', '', '', '', ''],
      // row 7: duplicates 赵六's mobile (another department)
      ['导入-重复赵六', '赵重', mobileOf(zhaoliuDup), '', '', '', '', '', '', '', '', '', ''],
      // row 8: an option that does not exist
      ['导入-坏选项', '孙坏', '13912600008', '', '', '', '航天', '', '', '', '', '', ''],
      // row 9: the same mobile as row 2 (a duplicate inside the file)
      ['导入-文件内重复', '孙甲二', '13912600001', '', '', '', '', '', '', '', '', '', ''],
    ]);
    const res = await preview('zhangsan', '客户导入.xlsx', buf);
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(0);
    previewData = res.json().data;
    fileId = previewData.fileId;
    expect(fileId).toBeGreaterThan(0);
    expect(previewData.headers).toEqual(header);
    expect(previewData.rowCount).toBe(8);
    expect(previewData.sampleRows).toHaveLength(5);
    expect(previewData.sampleRows[0].slice(0, 3)).toEqual(['导入-甲公司', '孙甲', '13912600001']);
    expect(previewData.mapping).toEqual([
      { column: 0, target: 'name' },
      ...CONTROL_NAMES.map((name, i) => ({ column: i + 1, target: tpl.byName[name].cbTacid })),
    ]);
  });

  it('importpreview refuses what is not an .xlsx', async () => {
    const csv = await preview('zhangsan', 'a.csv', Buffer.from('客户名称,联系人\n'));
    expect(csv.statusCode).toBe(400);
    expect(csv.json()).toMatchObject({ code: 106009, msg: '请上传 .xlsx 格式的文件' });
    const fake = await preview('zhangsan', 'a.xlsx', Buffer.from('not a spreadsheet at all'));
    expect(fake.statusCode).toBe(400);
    expect([105005, 106009]).toContain(fake.json().code);
    const noHeader = await preview('zhangsan', 'empty.xlsx', await buildXlsx([]));
    expect(noHeader.json().code).toBe(106009);
  });

  it('importstart (skip): good rows are created, duplicates skipped, bad rows rejected with reasons', async () => {
    const before = await listCustomers(t, as('zhangsan'), 'minelist');
    const res = await t.post(
      '/api/frontend/customer/importstart',
      { fileId, mapping: previewData.mapping, duplicateMode: 'skip' },
      as('zhangsan'),
    );
    expect(res.json()).toMatchObject({ code: 0, msg: '导入任务已开始' });
    const job: JobInfo = await waitJob(t, as('zhangsan'), res.json().data.jobId);
    expect(job).toMatchObject({ kind: 'import', status: 'done', error: '', total: 8 });
    expect(job.result).toMatchObject({ created: 2, updated: 0, skipped: 3, rejected: 3 });
    const reasons = Object.fromEntries((job.result?.reasons ?? []).map((r) => [r.row, r.reason]));
    expect(reasons).toEqual({
      4: `已跳过：手机“${mobileOf(lisiDup)}”已存在，归属于李四（客户：${lisiDup.name}）`,
      5: '手机“12345678901”不是有效的电话号码',
      6: '联系人不能为空',
      // 赵六 is outside 张三's departments: the refusal names neither him nor his customer (issue 11)
      7: `已跳过：手机“${mobileOf(zhaoliuDup)}”已存在`,
      8: '行业的选项“航天”不存在',
      9: '已跳过：手机“13912600001”已存在，归属于张三（客户：导入-甲公司）',
    });

    // The rejected rows, downloadable.
    expect(job.fileUrl).toMatch(/^\/api\/files\/[\w-]+\.xlsx$/);
    expect(job.fileName).toMatch(/^导入失败数据_\d{12}\.xlsx$/);
    const rejected = await sheetRows((await download('zhangsan', job.fileUrl)).rawPayload);
    expect(rejected[0]).toEqual(['行号', ...header, '失败原因']);
    expect(rejected.slice(1).map((r) => [r[0], r[1], r[r.length - 1]])).toEqual([
      ['5', '导入-坏号码', '手机“12345678901”不是有效的电话号码'],
      ['6', '导入-缺联系人', '联系人不能为空'],
      ['8', '导入-坏选项', '行业的选项“航天”不存在'],
    ]);

    // The created customers are 张三's, with the values mapped.
    const after = await listCustomers(t, as('zhangsan'), 'minelist', { name: '导入-' });
    expect(after.list.map((r) => r.name).sort()).toEqual(['导入-乙公司', '导入-甲公司']);
    expect((await listCustomers(t, as('zhangsan'), 'minelist')).count).toBe(before.count + 2);
    const a = after.list.find((r) => r.name === '导入-甲公司') as CustomerRow;
    expect(a).toMatchObject({ ownerName: '张三', creatorName: '张三', contactName: '孙甲', contactPhone: '13912600001' });
    expect(valuesOf(a, '地区')).toEqual(['440000', '440300', '440305']);
    expect(textOf(a, '地区')).toEqual(['广东省', '深圳市', '南山区']);
    expect(valuesOf(a, '意向产品')).toEqual(['云外呼', 'AI外呼']);
    expect(valuesOf(a, '预计成交金额')).toEqual(['8000']);
    expect(valuesOf(a, '客户级别')).toEqual(['A（重点客户）']);
    expect(valuesOf(a, '微信')).toEqual(['wx_sun']);
    const b = after.list.find((r) => r.name === '导入-乙公司') as CustomerRow;
    expect(valuesOf(b, '手机')).toEqual(['13912600002']);
    expect(valuesOf(b, '座机')).toEqual(['01012345678']);
    expect(textOf(b, '地区')).toEqual(['浙江省', '杭州市', '西湖区']);
    expect(valuesOf(b, '意向产品')).toEqual(['AI外呼', '电销CRM']);
    expect(valuesOf(b, '行业')).toEqual([]);
    // Findable by region like any other customer.
    const shenzhen = await listCustomers(t, as('zhangsan'), 'minelist', {
      templateControls: [{ cbTacid: tpl.byName.地区.cbTacid, dmValue: ['440000', '440300'] }],
    });
    expect(shenzhen.list.map((r) => r.cmCtid)).toContain(a.cmCtid);
    // The duplicates were left alone.
    expect((await t.database.db.select().from(customers).where(eq(customers.id, lisiDup.id)))[0].vals).toEqual(lisiDup.vals);
  });

  it('importstart (overwrite): updates a duplicate the caller may see, refuses one he may not', async () => {
    const buf = await buildXlsx([
      header,
      ['', '李重', mobileOf(lisiDup), '', '', '四川省/成都市/武侯区', '', '', 'D（无意向）', '', '', '导入覆盖', ''],
      ['导入-重复赵六', '赵重', mobileOf(zhaoliuDup), '', '', '', '', '', 'D（无意向）', '', '', '', ''],
      ['导入-丙公司', '孙丙', '13912600010', '', '', '', '', '', '', '', '', '', ''],
      ['导入-覆盖缺联系人', '', mobileOf(lisiDup), '', '', '', '', '', '', '', '', '', ''],
    ]);
    const pre = (await preview('zhangsan', '覆盖.xlsx', buf)).json().data as ImportPreview;
    expect(pre.rowCount).toBe(4);
    const res = await t.post(
      '/api/frontend/customer/importstart',
      { fileId: pre.fileId, mapping: pre.mapping, duplicateMode: 'overwrite' },
      as('zhangsan'),
    );
    const job = await waitJob(t, as('zhangsan'), res.json().data.jobId);
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({ created: 1, updated: 1, skipped: 0, rejected: 2 });
    const reasons = Object.fromEntries((job.result?.reasons ?? []).map((r) => [r.row, r.reason]));
    expect(reasons).toEqual({
      3: `手机“${mobileOf(zhaoliuDup)}”已存在，无权覆盖`,
      5: '联系人不能为空',
    });

    // 李四's customer: values merged over the stored ones, still 李四's, name kept (empty in the file).
    const updated = (await info(t, as('zhangsan'), lisiDup.id)).json().data as CustomerRow;
    expect(updated).toMatchObject({ name: lisiDup.name, ownerName: '李四', contactName: '李重' });
    expect(valuesOf(updated, '客户级别')).toEqual(['D（无意向）']);
    expect(valuesOf(updated, '备注')).toEqual(['导入覆盖']);
    expect(textOf(updated, '地区')).toEqual(['四川省', '成都市', '武侯区']);
    expect(valuesOf(updated, '行业')).toEqual(lisiDup.vals[String(tpl.byName.行业.cbTacid)]);
    expect(valuesOf(updated, '手机')).toEqual([mobileOf(lisiDup)]);
    // 赵六's is untouched.
    const [z] = await t.database.db.select().from(customers).where(eq(customers.id, zhaoliuDup.id));
    expect(z.vals).toEqual(zhaoliuDup.vals);
    expect((await listCustomers(t, as('zhangsan'), 'minelist', { name: '导入-丙公司' })).count).toBe(1);
  });

  it('with repeatCustomerName, overwrite still updates the duplicate of the same name; another name clash is rejected', async () => {
    await setStrategy(t, as('admin'), { repeatCustomerName: 1 });
    try {
      const current = (await info(t, as('zhangsan'), lisiDup.id)).json().data as CustomerRow;
      const zhaoliuName = zhaoliuDup.name;
      const buf = await buildXlsx([
        header,
        [current.name, '李重', mobileOf(lisiDup), '', '', '', '', '', '', '', '', '再次覆盖', ''],
        [zhaoliuName, '撞名', '13912600020', '', '', '', '', '', '', '', '', '', ''],
      ]);
      const pre = (await preview('zhangsan', '同名覆盖.xlsx', buf)).json().data as ImportPreview;
      const res = await t.post(
        '/api/frontend/customer/importstart',
        { fileId: pre.fileId, mapping: pre.mapping, duplicateMode: 'overwrite' },
        as('zhangsan'),
      );
      const job = await waitJob(t, as('zhangsan'), res.json().data.jobId);
      expect(job.result).toMatchObject({ created: 0, updated: 1, rejected: 1 });
      expect(job.result?.reasons).toEqual([{ row: 3, reason: `客户名称“${zhaoliuName}”已存在` }]);
      expect(valuesOf((await info(t, as('zhangsan'), lisiDup.id)).json().data, '备注')).toEqual(['再次覆盖']);
    } finally {
      await setStrategy(t, as('admin'));
    }
  });

  it('region texts: a municipality without its repeated city keeps the district; an unknown region rejects the row', async () => {
    const buf = await buildXlsx([
      header,
      ['导入-北京朝阳', '北京人', '13912600030', '', '', '北京市/朝阳区', '', '', '', '', '', '', ''],
      ['导入-火星', '火星人', '13912600031', '', '', '火星/奥林匹斯山', '', '', '', '', '', '', ''],
    ]);
    const pre = (await preview('zhangsan', '地区.xlsx', buf)).json().data as ImportPreview;
    const res = await t.post('/api/frontend/customer/importstart', { fileId: pre.fileId, mapping: pre.mapping }, as('zhangsan'));
    const job = await waitJob(t, as('zhangsan'), res.json().data.jobId);
    expect(job.result, JSON.stringify(job)).toMatchObject({ created: 1, rejected: 1 });
    expect(job.result?.reasons.map((r) => r.row)).toEqual([3]);
    expect(job.result?.reasons[0].reason).toContain('地区');
    const [beijing] = (await listCustomers(t, as('zhangsan'), 'minelist', { name: '导入-北京朝阳' })).list;
    expect(valuesOf(beijing, '地区')).toEqual(['110000', '110100', '110105']);
    expect((await listCustomers(t, as('zhangsan'), 'minelist', { name: '导入-火星' })).count).toBe(0);
  });

  it('importstart refuses a file that is not the company’s', async () => {
    const otherFile = await preview('zhangsan', 'x.xlsx', await buildXlsx([header]));
    const id = otherFile.json().data.fileId as number;
    const res = await t.post(
      '/api/frontend/customer/importstart',
      { fileId: id, mapping: [{ column: 0, target: 'name' }] },
      as('other_admin'),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(100005);
    expect(
      (await t.post('/api/frontend/customer/importstart', { fileId: id, mapping: [] }, as('zhangsan'))).json(),
    ).toMatchObject({ code: 100001, msg: '请至少映射一列' });
  });
});
