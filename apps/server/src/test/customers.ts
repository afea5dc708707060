import { randomBytes } from 'node:crypto';
import type { CustomerRow, JobInfo, TemplateControl } from '@crm/contracts';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { STRATEGY_DEFAULTS } from '../modules/strategy/strategy.service';
import type { TestApp } from './harness';

/** Helpers shared by the customers API tests (issue 3). */

export type Template = {
  cmAtid: number;
  isMustName: number;
  byName: Record<string, TemplateControl>;
  controls: TemplateControl[];
};

const flattenControls = (list: TemplateControl[]): TemplateControl[] => list.flatMap((c) => [c, ...flattenControls(c.children)]);

/** GET templateinfo (or templatedesign), indexed by control name. */
export const fetchTemplate = async (
  t: TestApp,
  token: string,
  url = '/api/frontend/customer/templateinfo',
): Promise<Template> => {
  const res = await t.get(url, token);
  expect(res.json().code).toBe(0);
  const data = res.json().data as { cmAtid: number; isMustName: number; templateControls: TemplateControl[] };
  const controls = flattenControls(data.templateControls);
  return {
    cmAtid: data.cmAtid,
    isMustName: data.isMustName,
    byName: Object.fromEntries(controls.map((c) => [c.name, c])),
    controls,
  };
};

/** The submitted templateControls of a customer form, from {controlName: values}. */
export const controlsOf = (tpl: Template, values: Record<string, string[] | string>) =>
  Object.entries(values).map(([name, v]) => {
    const c = tpl.byName[name];
    if (!c) throw new Error(`no control named ${name}`);
    return { cbTacid: c.cbTacid, dmValue: Array.isArray(v) ? v : [v] };
  });

let seq = 0;
/** A fresh valid mobile number (the demo seed never uses 13912xxxxxx). */
export const freshMobile = () => {
  seq += 1;
  return `13912${String(seq).padStart(6, '0')}`;
};

/** Values for every required control of the demo template, plus overrides. */
export const demoValues = (overrides: Record<string, string[] | string> = {}) => ({
  联系人: '测试联系人',
  手机: freshMobile(),
  ...overrides,
});

export const createCustomer = (
  t: TestApp,
  token: string,
  tpl: Template,
  name: string,
  values: Record<string, string[] | string>,
) => t.post('/api/frontend/customer/create', { cmAtid: tpl.cmAtid, name, templateControls: controlsOf(tpl, values) }, token);

/** Creates a customer and returns its id (the call must succeed). */
export const mustCreate = async (
  t: TestApp,
  token: string,
  tpl: Template,
  name: string,
  values: Record<string, string[] | string> = demoValues(),
): Promise<number> => {
  const res = await createCustomer(t, token, tpl, name, values);
  expect(res.json(), `create ${name}`).toMatchObject({ code: 0, msg: '提交成功' });
  return res.json().data.cmCtid as number;
};

export type ListResult = { list: CustomerRow[]; count: number; isCountCapped: boolean };

export const listCustomers = async (
  t: TestApp,
  token: string,
  kind: string,
  body: Record<string, unknown> = {},
): Promise<ListResult> => {
  const res = await t.post(`/api/frontend/customer/${kind}`, { limit: 200, ...body }, token);
  expect(res.json(), `${kind} ${JSON.stringify(body)}`).toMatchObject({ code: 0 });
  return res.json().data as ListResult;
};

/** The value of a control in a list/info row ([] when unset). */
export const valuesOf = (row: CustomerRow, name: string): string[] =>
  row.templateControls.find((c) => c.name === name)?.dmValue ?? [];
export const textOf = (row: CustomerRow, name: string): string[] =>
  row.templateControls.find((c) => c.name === name)?.dmValueText ?? [];

export const info = (t: TestApp, token: string, id: number) => t.get(`/api/frontend/customer/info?cmCtid=${id}`, token);

/** POST strategyset with every field (defaults of the product, then overrides). */
export const setStrategy = async (t: TestApp, admin: string, overrides: Record<string, number> = {}) => {
  const body = { ...STRATEGY_DEFAULTS, ...overrides };
  const res = await t.post('/api/frontend/customerset/strategyset', body, admin);
  expect(res.json()).toMatchObject({ code: 0, msg: '保存成功' });
};

type RoleRow = { cmArid: number; name: string; remark: string; dataScope: number; menuIds: number[]; actions: string[] };

/** Adds action permissions (and menus) to a demo role through the role API. */
export const grantRole = async (t: TestApp, admin: string, roleName: string, add: { actions?: string[]; menuIds?: number[] }) => {
  const roles = (await t.get('/api/frontend/role/list', admin)).json().data.list as RoleRow[];
  const role = roles.find((r) => r.name === roleName);
  if (!role) throw new Error(`no role ${roleName}`);
  const res = await t.post(
    '/api/frontend/role/edit',
    {
      cmArid: role.cmArid,
      name: role.name,
      remark: role.remark,
      dataScope: role.dataScope,
      menuIds: [...new Set([...role.menuIds, ...(add.menuIds ?? [])])],
      actions: [...new Set([...role.actions, ...(add.actions ?? [])])],
    },
    admin,
  );
  expect(res.json().code).toBe(0);
};

/** Polls GET job until it is no longer running (at most ~20 s). */
export const waitJob = async (t: TestApp, token: string, jobId: string): Promise<JobInfo> => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await t.get(`/api/frontend/customer/job?jobId=${jobId}`, token);
    expect(res.json().code).toBe(0);
    const job = res.json().data as JobInfo;
    if (job.status !== 'running') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still running: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Cell texts of a worksheet, row by row (index 0 = the header row). */
export const sheetRows = async (buf: Buffer, sheet = 1): Promise<string[][]> => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.getWorksheet(sheet);
  if (!ws) throw new Error('no worksheet');
  const rows: string[][] = [];
  ws.eachRow((row) => {
    const values = row.values as ExcelJS.CellValue[];
    const out: string[] = [];
    for (let i = 1; i < values.length; i++) out.push(values[i] === null || values[i] === undefined ? '' : String(values[i]));
    rows.push(out);
  });
  return rows;
};

/** A one-sheet .xlsx built in memory. */
export const buildXlsx = async (rows: (string | number)[][]): Promise<Buffer> => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('客户');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
};

/** multipart/form-data with one file field named "file". */
export const multipart = (file: { name: string; data: Buffer; type?: string }) => {
  const boundary = `----crmtest${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
};

/** Start of today in Asia/Shanghai, as an instant. */
export const startOfTodayShanghai = () => {
  const offset = 8 * 3600_000;
  const local = new Date(Date.now() + offset);
  local.setUTCHours(0, 0, 0, 0);
  return new Date(local.getTime() - offset);
};

/** The full templatecontroledit body of a control as templatedesign sends it, with overrides. */
export const controlEditBody = (c: TemplateControl, overrides: Record<string, unknown> = {}) => ({
  cbTacid: c.cbTacid,
  pid: c.pid,
  name: c.name,
  dmType: c.dmType,
  dmDesc: c.dmDesc,
  options: Array.isArray(c.dmValue) ? c.dmValue : [],
  tree: c.ctrlList,
  staticText: typeof c.dmValue === 'string' ? c.dmValue : '',
  dmMust: c.dmMust,
  isJudge: c.isJudge,
  isFollowShow: c.isFollowShow,
  isSearch: c.isSearch,
  sortNum: c.sortNum,
  actionState: c.actionState,
  ...overrides,
});
