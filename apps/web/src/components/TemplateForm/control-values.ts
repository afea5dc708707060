import {
  type CascaderOption,
  CONTROL_LIMITS,
  type ControlValue,
  DM_TYPE,
  requiredControlMessage,
  type SubmittedControl,
  type TemplateControl,
} from '@crm/contracts';
import { regionLabelPath } from '@crm/regions';
import dayjs, { type Dayjs } from 'dayjs';

export const DATE_FORMAT = 'YYYY-MM-DD';
/** SPEC §4 datetime control: no seconds. */
export const DATETIME_MINUTE_FORMAT = 'YYYY-MM-DD HH:mm';

/** A file held by a file control: the id goes to the API, the name (and url when known) to the list. */
export type StoredFile = { id: number; name: string; url?: string };
/** A select value that keeps its label, for options that may not be loaded (tags, company). */
export type LabeledValue = { value: string | number; label: string };

/** Form values of the controls, keyed by String(cbTacid) (Form.Item name `['c', key]`). */
export type ControlFormValues = Record<string, unknown>;

/** The form path of a control's value. */
export const CONTROL_FIELD = 'c';
export const controlFieldName = (c: Pick<TemplateControl, 'cbTacid'>): [string, string] => [CONTROL_FIELD, String(c.cbTacid)];

/** Kinds picked from a list (placeholder 请选择…). */
const CHOICE_KINDS: readonly number[] = [
  DM_TYPE.date,
  DM_TYPE.datetime,
  DM_TYPE.select,
  DM_TYPE.multiSelect,
  DM_TYPE.address,
  DM_TYPE.file,
  DM_TYPE.customCascader,
  DM_TYPE.selectByText,
  DM_TYPE.tags,
  DM_TYPE.company,
  DM_TYPE.cascader,
];

/** Kinds whose form value is an array. */
export const ARRAY_KINDS: readonly number[] = [
  DM_TYPE.multiSelect,
  DM_TYPE.address,
  DM_TYPE.file,
  DM_TYPE.customCascader,
  DM_TYPE.tags,
  DM_TYPE.cascader,
];

/** Placeholder: the control's dmDesc, else 请输入{name} / 请选择{name}. */
export const placeholderOf = (c: Pick<TemplateControl, 'name' | 'dmType' | 'dmDesc'>): string =>
  c.dmDesc?.trim() || (CHOICE_KINDS.includes(c.dmType) ? `请选择${c.name}` : `请输入${c.name}`);

/** SPEC §5: the message of an empty required control (one rule with the server, in contracts). */
export const requiredMessage = (c: Pick<TemplateControl, 'name' | 'dmType'>): string => requiredControlMessage(c);

/** Max length of a typed value (SPEC §5 limits), or undefined for picked values. */
export const maxLengthOf = (dmType: number): number | undefined => {
  switch (dmType) {
    case DM_TYPE.text:
    case DM_TYPE.group:
      return CONTROL_LIMITS.text;
    case DM_TYPE.textarea:
      return CONTROL_LIMITS.textarea;
    case DM_TYPE.integer:
    case DM_TYPE.number:
      return CONTROL_LIMITS.number;
    case DM_TYPE.phone:
      return CONTROL_LIMITS.phone;
    default:
      return undefined;
  }
};

export const INTEGER_PATTERN = /^-?\d+$/;
export const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;

/**
 * SPEC §5 numeric input: strips everything but digits, keeps one leading minus and, for
 * decimals, the first dot.
 */
export const cleanNumeric = (raw: string, allowDecimal: boolean): string => {
  const isNegative = raw.trimStart().startsWith('-');
  let body = raw.replace(allowDecimal ? /[^\d.]/g : /\D/g, '');
  const dot = body.indexOf('.');
  if (dot >= 0) body = body.slice(0, dot + 1) + body.slice(dot + 1).replace(/\./g, '');
  return (isNegative ? '-' : '') + body;
};

/**
 * SPEC §5 numeric input clamps to min/max: a finished value above max becomes max, below min becomes min.
 * While typing only max is applied (more digits never bring a number back under max, but a number
 * on its way up may pass under min: '1' of '15' with min 10); min is applied when the input is left.
 * Text that is not a number yet ('', '-', '1.') is left as it is.
 */
export const clampNumeric = (value: string, bounds: { min?: number; max?: number }, isFinished: boolean): string => {
  if (!NUMBER_PATTERN.test(value)) return value;
  const n = Number(value);
  if (bounds.max !== undefined && n > bounds.max) return String(bounds.max);
  if (isFinished && bounds.min !== undefined && n < bounds.min) return String(bounds.min);
  return value;
};

/** On blur: '-' alone and a trailing dot go, '.5' becomes '0.5' (the server wants a digit first). */
export const finishNumeric = (value: string): string => {
  let v = value;
  if (v === '-' || v === '.' || v === '-.') return '';
  if (v.endsWith('.')) v = v.slice(0, -1);
  if (v.startsWith('.')) v = `0${v}`;
  if (v.startsWith('-.')) v = `-0${v.slice(1)}`;
  return v;
};

/** Labels along a path of a tree of options (what the server calls treePathLabels). */
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

/** Controls a form shows: enabled ones, and no children of a disabled group. */
export const enabledControls = (controls: TemplateControl[]): TemplateControl[] =>
  controls.filter((c) => c.actionState === 0).map((c) => ({ ...c, children: enabledControls(c.children ?? []) }));

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** One control's form value as the strings the API stores (SPEC §3: dmValue is a list of strings). */
const submittedValue = (c: TemplateControl, raw: unknown): { dmValue: string[]; dmValueText?: string[] } => {
  if (isEmpty(raw)) return { dmValue: [] };
  switch (c.dmType) {
    case DM_TYPE.date:
      return { dmValue: [(raw as Dayjs).format(DATE_FORMAT)] };
    case DM_TYPE.datetime:
      return { dmValue: [(raw as Dayjs).format(DATETIME_MINUTE_FORMAT)] };
    case DM_TYPE.multiSelect:
      return { dmValue: (raw as string[]).map(String) };
    case DM_TYPE.address: {
      const path = raw as number[];
      return { dmValue: path.map(String), dmValueText: regionLabelPath(path) };
    }
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader: {
      const path = (raw as (string | number)[]).map(String);
      return { dmValue: path, dmValueText: treePathLabels(c.ctrlList ?? [], path) };
    }
    case DM_TYPE.file:
      return { dmValue: (raw as StoredFile[]).map((f) => String(f.id)) };
    case DM_TYPE.tags:
      return { dmValue: (raw as LabeledValue[]).map((t) => String(t.value)) };
    case DM_TYPE.company:
      return { dmValue: [String((raw as LabeledValue).value)] };
    default:
      return { dmValue: [String(raw).trim()].filter((v) => v !== '') };
  }
};

/**
 * The form's control values (`values[String(cbTacid)]`) as the API's submitted controls:
 * every control but static text, empty ones as `dmValue: []` so an edit can clear a value;
 * a group carries its own text and its children.
 */
export const toSubmitted = (values: ControlFormValues | undefined, controls: TemplateControl[]): SubmittedControl[] =>
  controls
    .filter((c) => c.dmType !== DM_TYPE.staticText)
    .map((c) => {
      const out: SubmittedControl = { cbTacid: c.cbTacid, ...submittedValue(c, values?.[String(c.cbTacid)]) };
      if (c.dmType === DM_TYPE.group) out.children = toSubmitted(values, c.children ?? []);
      return out;
    });

const formValue = (c: TemplateControl, stored: ControlValue): unknown => {
  const v = stored.dmValue ?? [];
  const text = stored.dmValueText ?? [];
  if (v.length === 0) return undefined;
  switch (c.dmType) {
    case DM_TYPE.date:
    case DM_TYPE.datetime: {
      const d = dayjs(v[0]);
      return d.isValid() ? d : undefined;
    }
    case DM_TYPE.multiSelect:
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      return [...v];
    case DM_TYPE.address:
      return v.map(Number);
    case DM_TYPE.file:
      return v.map((id, i): StoredFile => ({ id: Number(id), name: text[i] || `附件${i + 1}`, url: stored.fileUrls?.[i] }));
    case DM_TYPE.tags:
      return v.map((id, i): LabeledValue => ({ value: Number(id), label: text[i] || id }));
    case DM_TYPE.company:
      return { value: v[0], label: text[0] || v[0] } satisfies LabeledValue;
    default:
      return v[0];
  }
};

const flatten = (controls: TemplateControl[]): TemplateControl[] => controls.flatMap((c) => [c, ...flatten(c.children ?? [])]);

/**
 * A customer's stored values (CustomerRow.templateControls) as form values for these
 * controls. Masked phone numbers stay as they are: sent back unchanged, the server keeps the
 * stored number.
 */
export const fromStored = (controls: TemplateControl[], stored: ControlValue[]): ControlFormValues => {
  const byId = new Map(stored.map((s) => [s.cbTacid, s]));
  const out: ControlFormValues = {};
  for (const c of flatten(controls)) {
    const s = byId.get(c.cbTacid);
    if (!s || c.dmType === DM_TYPE.staticText) continue;
    const value = formValue(c, s);
    if (value !== undefined) out[String(c.cbTacid)] = value;
  }
  return out;
};
