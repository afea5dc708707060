/** The import's .xlsx template: a column per importable control of the company's form, and a sheet of filling hints. */
import { DM_TYPE } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { loadExcel } from '../../lib/lazy-packages';
import { loadTemplate } from './customer-templates.service';
import { IMPORTABLE, isTreeKind } from './customers-import-values';

/** The .xlsx template built from the company's customer form. */
export const buildImportTemplate = async (db: Db, actor: Actor): Promise<Buffer> => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const controls = tpl.enabled.filter(IMPORTABLE);
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('客户');
  ws.columns = [{ header: '客户名称', width: 28 }, ...controls.map((c) => ({ header: c.name, width: 18 }))];
  ws.getRow(1).font = { bold: true };
  const help = wb.addWorksheet('填写说明');
  help.columns = [
    { header: '列名', width: 16 },
    { header: '是否必填', width: 10 },
    { header: '填写说明', width: 80 },
  ];
  help.getRow(1).font = { bold: true };
  help.addRow(['客户名称', tpl.isMustName ? '必填' : '选填', '最多50个字符']);
  for (const c of controls) {
    let hint = '最多50个字符';
    if (c.dmType === DM_TYPE.textarea) hint = '最多500个字符';
    if (c.dmType === DM_TYPE.integer) hint = '整数';
    if (c.dmType === DM_TYPE.number) hint = '数字';
    if (c.dmType === DM_TYPE.date) hint = '日期，如 2026-01-31';
    if (c.dmType === DM_TYPE.datetime) hint = '日期时间，如 2026-01-31 09:30';
    if (c.dmType === DM_TYPE.phone) hint = '手机或座机，如 13812345678、010-12345678';
    if (c.dmType === DM_TYPE.select || c.dmType === DM_TYPE.selectByText) hint = `可选：${c.options.join('、')}`;
    if (c.dmType === DM_TYPE.multiSelect) hint = `可选（多个用逗号分隔）：${c.options.join('、')}`;
    if (c.dmType === DM_TYPE.address) hint = '省/市/区，如 广东省/深圳市/南山区';
    if (isTreeKind(c)) hint = '级联选项用 / 分隔，如 一级/二级';
    if (c.dmType === DM_TYPE.tags) hint = '标签名称，多个用逗号分隔';
    help.addRow([c.name, c.dmMust ? '必填' : '选填', `${hint}${c.isJudge ? '；不能与已有客户重复' : ''}`]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
};
