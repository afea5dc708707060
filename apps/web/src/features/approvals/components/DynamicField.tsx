import { APPROVAL_LIMITS, DM_TYPE } from '@crm/contracts';
import { Cascader, DatePicker, Form, Input, Select, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { Dayjs } from 'dayjs';
import type { StoredFile } from '../../../components/TemplateForm/control-values';
import { FileListUpload } from '../../../components/TemplateForm/FileListUpload';
import { NumericInput } from '../../../components/TemplateForm/NumericInput';
import { optionsOfPaths, regionLabelOptions } from './controlOptions';

/** A control of an order form or an approval template (SPEC §4 control kinds of order forms). */
export type DynamicControl = { name: string; dmType: number; dmMust: number; dmDesc: string; dmValue: string[] };

const isChoice = (dmType: number) =>
  (
    [
      DM_TYPE.date,
      DM_TYPE.datetime,
      DM_TYPE.select,
      DM_TYPE.multiSelect,
      DM_TYPE.address,
      DM_TYPE.file,
      DM_TYPE.cascader,
    ] as number[]
  ).includes(dmType);
/** kinds whose value is a list: several choices, files, a cascader's path */
const isListKind = (dmType: number) =>
  ([DM_TYPE.multiSelect, DM_TYPE.file, DM_TYPE.address, DM_TYPE.cascader] as number[]).includes(dmType);
const cascaderSearch = {
  filter: (input: string, path: { label?: unknown }[]) => path.some((o) => String(o.label ?? '').includes(input.trim())),
};

/** SPEC §5 deal form: 请输入{label}, or 请选择{label} for what is picked. */
export const requiredText = (c: DynamicControl) => `${isChoice(c.dmType) ? '请选择' : '请输入'}${c.name}`;

const rulesOf = (c: DynamicControl): Rule[] => {
  const rules: Rule[] = [];
  if (c.dmMust === 1) {
    if (isListKind(c.dmType)) rules.push({ required: true, type: 'array', min: 1, message: requiredText(c) });
    // dates are Dayjs objects: no string checks on them
    else if (c.dmType === DM_TYPE.date || c.dmType === DM_TYPE.datetime)
      rules.push({ required: true, type: 'object', message: requiredText(c) });
    else if (isChoice(c.dmType)) rules.push({ required: true, message: requiredText(c) });
    else rules.push({ required: true, whitespace: true, message: requiredText(c) });
  }
  if (c.dmType === DM_TYPE.integer) rules.push({ pattern: /^-?\d+$/, message: `${c.name}必须是整数` });
  if (c.dmType === DM_TYPE.number) rules.push({ pattern: /^-?\d+(\.\d+)?$/, message: `${c.name}必须是数字` });
  return rules;
};

const Control = ({ c, ...rest }: { c: DynamicControl; value?: unknown; onChange?: (v: unknown) => void; id?: string }) => {
  const placeholder = c.dmDesc || requiredText(c);
  const options = c.dmValue.map((v) => ({ value: v, label: v }));
  switch (c.dmType) {
    case DM_TYPE.textarea:
      return <Input.TextArea {...(rest as object)} rows={3} maxLength={500} placeholder={placeholder} />;
    case DM_TYPE.date:
      return <DatePicker {...(rest as object)} style={{ width: '100%' }} placeholder={placeholder} />;
    case DM_TYPE.datetime:
      return (
        <DatePicker
          {...(rest as object)}
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          placeholder={placeholder}
        />
      );
    case DM_TYPE.select:
      return <Select {...(rest as object)} allowClear options={options} placeholder={placeholder} />;
    case DM_TYPE.multiSelect:
      return <Select {...(rest as object)} mode="multiple" allowClear options={options} placeholder={placeholder} />;
    case DM_TYPE.file:
      return <FileListUpload {...(rest as object)} placeholder={placeholder} />;
    case DM_TYPE.integer:
    case DM_TYPE.number:
      // SPEC §5 numeric input: digits, a leading minus (and one dot for 数字), 20 characters
      return (
        <NumericInput
          {...(rest as { value?: string; onChange?: (v: string) => void; id?: string })}
          allowDecimal={c.dmType === DM_TYPE.number}
          maxLength={APPROVAL_LIMITS.numberInput}
          placeholder={placeholder}
        />
      );
    case DM_TYPE.address:
      // SPEC §4 kind 11: the built-in region tree; a province or a city alone is an answer
      return (
        <Cascader
          {...(rest as object)}
          options={regionLabelOptions()}
          changeOnSelect
          allowClear
          showSearch={cascaderSearch}
          placeholder={placeholder}
          style={{ width: '100%' }}
        />
      );
    case DM_TYPE.cascader:
      // SPEC §4 kind 24: the template's option paths as a tree; an answer is a whole path
      return (
        <Cascader
          {...(rest as object)}
          options={optionsOfPaths(c.dmValue)}
          allowClear
          showSearch={cascaderSearch}
          placeholder={placeholder}
          style={{ width: '100%' }}
        />
      );
    default:
      // SPEC §5 deal form: a phone input takes 20 characters, the other inputs 30
      return (
        <Input
          {...(rest as object)}
          maxLength={c.dmType === DM_TYPE.phone ? APPROVAL_LIMITS.numberInput : APPROVAL_LIMITS.controlText}
          placeholder={placeholder}
        />
      );
  }
};

/** One control as a Form.Item at `name`; static text shows its text, the hidden order link (17) shows nothing. */
export const DynamicField = ({ control: c, name }: { control: DynamicControl; name: (string | number)[] }) => {
  if (c.dmType === 17) return null;
  if (c.dmType === DM_TYPE.staticText)
    return (
      <Form.Item label={c.name}>
        <Typography.Text type="secondary">{c.dmValue.join('')}</Typography.Text>
      </Form.Item>
    );
  return (
    <Form.Item label={c.name} name={name} rules={rulesOf(c)}>
      <Control c={c} />
    </Form.Item>
  );
};

/** A form value as the strings the API keeps (dates formatted, files as ids). */
export const dynamicValueToStrings = (c: DynamicControl, raw: unknown): string[] => {
  if (raw === undefined || raw === null || raw === '') return [];
  if (c.dmType === DM_TYPE.date) return [(raw as Dayjs).format('YYYY-MM-DD')];
  if (c.dmType === DM_TYPE.datetime) return [(raw as Dayjs).format('YYYY-MM-DD HH:mm')];
  if (c.dmType === DM_TYPE.file) return (raw as StoredFile[]).map((f) => String(f.id));
  if (Array.isArray(raw)) return raw.map(String);
  return [String(raw).trim()].filter((v) => v !== '');
};
