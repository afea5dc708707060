import { type ControlFilter, DM_TYPE, type TemplateControl } from '@crm/contracts';
import { REGIONS } from '@crm/regions';
import type { NumberRange, SearchField, SearchSelectOption, SearchValues } from '../../../components/SearchBar/types';
import type { CustomerListFilters } from '../api';

/** The fixed filters of the customer lists (SPEC §7 minelist); each page picks the ones that apply. */
export type CustomerFilterKey =
  | 'name'
  | 'contactName'
  | 'contactPhone'
  | 'cmNid'
  | 'cmClids'
  | 'lastContactStatus'
  | 'followCmSid'
  | 'followCmDid'
  | 'createCmSid'
  | 'createCmDid'
  | 'createTime'
  | 'allotTime'
  | 'nextFollowTime'
  | 'lastContactTime'
  | 'followTime'
  | 'exRecoveryTime'
  | 'contactNum';

const TEXT_KEYS = ['name', 'contactName', 'contactPhone'] as const;
const NUMBER_KEYS = ['cmNid', 'lastContactStatus', 'followCmSid', 'followCmDid', 'createCmSid', 'createCmDid'] as const;
const RANGE_KEYS = ['createTime', 'allotTime', 'nextFollowTime', 'lastContactTime', 'followTime', 'exRecoveryTime'] as const;

/** SPEC §5: a numeric range end holds 8 characters, so a leading minus leaves 7 digits. */
const CONTROL_NUMBER_BOUNDS = { min: -9_999_999, max: 99_999_999 };

/** Search field name of a template control filter. */
export const controlFilterName = (cbTacid: number) => `tc_${cbTacid}`;

export type LabelOption = { cmClid: number; pid: number; name: string };

/** Tags grouped under their tag group (groups are the top-level labels that have children). */
export const labelSelectOptions = (labels: LabelOption[]): SearchSelectOption[] => {
  const groups = labels.filter((l) => l.pid === 0 && labels.some((c) => c.pid === l.cmClid));
  const groupIds = new Set(groups.map((g) => g.cmClid));
  const loose = labels.filter((l) => !groupIds.has(l.cmClid) && (l.pid === 0 || !groupIds.has(l.pid)));
  return [
    ...groups.map((g) => ({
      label: g.name,
      title: g.name,
      options: labels.filter((l) => l.pid === g.cmClid).map((l) => ({ value: l.cmClid, label: l.name })),
    })),
    ...loose.map((l) => ({ value: l.cmClid, label: l.name })),
  ];
};

/** The search field of one isSearch template control by its kind, or null when it cannot filter. */
export const controlSearchField = (c: TemplateControl, labelOptions: SearchSelectOption[]): SearchField | null => {
  const base = { name: controlFilterName(c.cbTacid), label: c.name };
  switch (c.dmType) {
    case DM_TYPE.text:
    case DM_TYPE.textarea:
    case DM_TYPE.phone:
      return { ...base, kind: 'text' };
    case DM_TYPE.integer:
    case DM_TYPE.number:
      return { ...base, kind: 'numberRange', ...CONTROL_NUMBER_BOUNDS };
    case DM_TYPE.date:
    case DM_TYPE.datetime:
      // Stored values are plain strings: bare days compare right for both kinds.
      return { ...base, kind: 'dateRange', valueFormat: 'date' };
    case DM_TYPE.select:
    case DM_TYPE.multiSelect:
    case DM_TYPE.selectByText: {
      const options = (Array.isArray(c.dmValue) ? c.dmValue : []).map((text) => ({ value: text, label: text }));
      return { ...base, kind: 'select', isMultiple: true, options };
    }
    case DM_TYPE.address:
      return { ...base, kind: 'cascader', options: REGIONS, isAnyLevel: true };
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      return { ...base, kind: 'cascader', options: c.ctrlList ?? [], isAnyLevel: true };
    case DM_TYPE.tags:
      return labelOptions.length > 0 ? { ...base, kind: 'select', isMultiple: true, options: labelOptions } : null;
    default:
      return null;
  }
};

/**
 * The template's isSearch controls as 更多筛选 fields. The first text control named 联系人 is
 * left out: the server copies it into contactName, which the fixed 联系人 input searches.
 */
export const controlSearchFields = (controls: TemplateControl[], labelOptions: SearchSelectOption[]): SearchField[] => {
  const contact = controls.find((c) => c.dmType === DM_TYPE.text && c.name.includes('联系人'));
  return controls
    .filter((c) => c !== contact)
    .map((c) => controlSearchField(c, labelOptions))
    .filter((f): f is SearchField => f !== null);
};

const controlFilter = (c: Pick<TemplateControl, 'cbTacid' | 'dmType'>, value: unknown): ControlFilter | null => {
  switch (c.dmType) {
    case DM_TYPE.integer:
    case DM_TYPE.number: {
      const { min, max } = value as NumberRange;
      return { cbTacid: c.cbTacid, dmValue: [], min, max };
    }
    case DM_TYPE.text:
    case DM_TYPE.textarea:
    case DM_TYPE.phone:
      return { cbTacid: c.cbTacid, dmValue: [String(value)] };
    default:
      // Date ranges [start, end], option lists, tag ids and cascader paths (the server matches the deepest level).
      return Array.isArray(value) && value.length > 0 ? { cbTacid: c.cbTacid, dmValue: value.map(String) } : null;
  }
};

/** SearchBar values → customerListBody filters (SPEC §7): the one place that knows both shapes. */
export const toListFilters = (
  values: SearchValues,
  controls: Pick<TemplateControl, 'cbTacid' | 'dmType'>[],
): CustomerListFilters => {
  const out: CustomerListFilters = {};
  for (const key of TEXT_KEYS) if (typeof values[key] === 'string') out[key] = values[key];
  for (const key of NUMBER_KEYS) if (values[key] !== undefined) out[key] = Number(values[key]);
  for (const key of RANGE_KEYS) if (Array.isArray(values[key])) out[key] = values[key] as string[];
  if (Array.isArray(values.cmClids)) out.cmClids = values.cmClids.map(Number);
  const contactNum = values.contactNum as NumberRange | undefined;
  if (contactNum?.min !== undefined) out.minContactNum = contactNum.min;
  if (contactNum?.max !== undefined) out.maxContactNum = contactNum.max;
  const templateControls: ControlFilter[] = [];
  for (const c of controls) {
    const value = values[controlFilterName(c.cbTacid)];
    const filter = value === undefined ? null : controlFilter(c, value);
    if (filter) templateControls.push(filter);
  }
  if (templateControls.length > 0) out.templateControls = templateControls;
  return out;
};
