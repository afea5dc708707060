import { type CascaderOption, CONTROL_LIMITS, DM_TYPE, requiredControlMessage, type SubmittedControl } from '@crm/contracts';
import { isValidRegionPath, regionLabelPath } from '@crm/regions';
import { normalisePhone } from '../../lib/phone';
import type { ControlRow } from './customer-templates.service';

export type ParsedValues = {
  /** {"<cbTacid>": [...]} of every control with a value */
  vals: Record<string, string[]>;
  phones: { controlId: number; phone: string }[];
  /** ids the service must check belong to the company */
  refs: { fileIds: number[]; labelIds: number[]; customerIds: number[] };
};

export type ParseMode = {
  /** batch edit: only the controls submitted are touched, so missing required ones are fine */
  isPartial: boolean;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const ID = /^\d{1,10}$/;

const isRealDate = (s: string) => {
  const d = new Date(`${s.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s.slice(0, 10);
};

const treePathValid = (tree: CascaderOption[], path: string[]): boolean => {
  let level: CascaderOption[] | undefined = tree;
  for (const v of path) {
    const node: CascaderOption | undefined = level?.find((o) => o.value === v);
    if (!node) return false;
    level = node.children;
  }
  return path.length > 0;
};

export const treePathLabels = (tree: CascaderOption[], path: string[]): string[] => {
  const labels: string[] = [];
  let level: CascaderOption[] | undefined = tree;
  for (const v of path) {
    const node: CascaderOption | undefined = level?.find((o) => o.value === v);
    if (!node) break;
    labels.push(node.label);
    level = node.children;
  }
  return labels;
};

/** SPEC §5: the message of an empty required control (one rule with the web, in contracts). */
export const requiredMessage = (c: Pick<ControlRow, 'name' | 'dmType'>): string => requiredControlMessage(c);

/** Checks one control's value; returns the cleaned value or an error message. */
const parseOne = (c: ControlRow, raw: string[], out: ParsedValues): string[] | string => {
  const values = raw.map((v) => v.trim()).filter((v) => v !== '');
  if (values.length === 0) return [];
  const single = values[0];
  switch (c.dmType) {
    case DM_TYPE.text:
    case DM_TYPE.group:
      return single.length > CONTROL_LIMITS.text ? `${c.name}最多${CONTROL_LIMITS.text}个字符` : [single];
    case DM_TYPE.textarea:
      return single.length > CONTROL_LIMITS.textarea ? `${c.name}最多${CONTROL_LIMITS.textarea}个字符` : [single];
    case DM_TYPE.integer:
      if (single.length > CONTROL_LIMITS.number) return `${c.name}最多${CONTROL_LIMITS.number}位`;
      return INTEGER.test(single) ? [single] : `${c.name}必须是整数`;
    case DM_TYPE.number:
      if (single.length > CONTROL_LIMITS.number) return `${c.name}最多${CONTROL_LIMITS.number}位`;
      return NUMBER.test(single) ? [single] : `${c.name}必须是数字`;
    case DM_TYPE.date:
      return DATE.test(single) && isRealDate(single) ? [single] : `${c.name}日期格式不正确`;
    case DM_TYPE.datetime:
      return DATETIME.test(single) && isRealDate(single)
        ? [single.length === 16 ? `${single}:00` : single]
        : `${c.name}时间格式不正确`;
    case DM_TYPE.phone: {
      if (single.length > CONTROL_LIMITS.phone) return `${c.name}最多${CONTROL_LIMITS.phone}位`;
      const n = normalisePhone(single);
      if (!n) return `${c.name}“${single}”不是有效的电话号码`;
      out.phones.push({ controlId: c.id, phone: n.phone });
      return [n.ext ? `${n.phone}转${n.ext}` : n.phone];
    }
    case DM_TYPE.select:
    case DM_TYPE.selectByText:
      return c.options.includes(single) ? [single] : `${c.name}的选项“${single}”不存在`;
    case DM_TYPE.multiSelect: {
      const unique = [...new Set(values)];
      const bad = unique.find((v) => !c.options.includes(v));
      return bad ? `${c.name}的选项“${bad}”不存在` : unique;
    }
    case DM_TYPE.address:
      return isValidRegionPath(values.map(Number)) ? values.slice(0, 3) : `${c.name}无效，请选择正确的省/市/区`;
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      return treePathValid(c.tree as CascaderOption[], values) ? values : `${c.name}的选项无效`;
    case DM_TYPE.file: {
      if (values.length > 5) return `${c.name}最多上传5个文件`;
      if (!values.every((v) => ID.test(v))) return `${c.name}的文件无效`;
      out.refs.fileIds.push(...values.map(Number));
      return values;
    }
    case DM_TYPE.tags: {
      if (!values.every((v) => ID.test(v))) return `${c.name}的标签无效`;
      const unique = [...new Set(values)];
      out.refs.labelIds.push(...unique.map(Number));
      return unique;
    }
    case DM_TYPE.company:
      // SPEC §5: the company kind needs a number.
      if (!ID.test(single)) return `请选择${c.name}`;
      out.refs.customerIds.push(Number(single));
      return [single];
    default:
      return [];
  }
};

const flatten = (list: SubmittedControl[]): SubmittedControl[] => list.flatMap((c) => [c, ...flatten(c.children ?? [])]);

/**
 * Validates submitted control values against the enabled controls of the template
 * (SPEC §5 template controls). Returns the values to store, or the first error message.
 */
export const parseControlValues = (
  enabled: ControlRow[],
  submitted: SubmittedControl[],
  mode: ParseMode,
): { ok: true; value: ParsedValues } | { ok: false; msg: string } => {
  const byId = new Map(flatten(submitted).map((c) => [c.cbTacid, c.dmValue]));
  const out: ParsedValues = { vals: {}, phones: [], refs: { fileIds: [], labelIds: [], customerIds: [] } };
  for (const c of enabled) {
    if (c.dmType === DM_TYPE.staticText) continue;
    const raw = byId.get(c.id);
    if (mode.isPartial && raw === undefined) continue;
    const parsed = parseOne(c, raw ?? [], out);
    if (typeof parsed === 'string') return { ok: false, msg: parsed };
    if (parsed.length === 0) {
      if (c.dmMust === 1 && !mode.isPartial) return { ok: false, msg: requiredMessage(c) };
      continue;
    }
    out.vals[String(c.id)] = parsed;
  }
  return { ok: true, value: out };
};

/** Display text of a stored value (dmValueText): region, tree and option labels. */
export const valueText = (
  c: ControlRow,
  value: string[],
  names: { labels: Map<number, string>; customers: Map<number, string>; files: Map<number, string> },
): string[] => {
  switch (c.dmType) {
    case DM_TYPE.address:
      return regionLabelPath(value.map(Number));
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      return treePathLabels(c.tree as CascaderOption[], value);
    case DM_TYPE.tags:
      return value.map((v) => names.labels.get(Number(v)) ?? '');
    case DM_TYPE.company:
      return value.map((v) => names.customers.get(Number(v)) ?? '');
    case DM_TYPE.file:
      return value.map((v) => names.files.get(Number(v)) ?? '');
    default:
      return value;
  }
};
