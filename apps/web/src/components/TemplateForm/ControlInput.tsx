import { DM_TYPE, type TemplateControl } from '@crm/contracts';
import { REGIONS } from '@crm/regions';
import { Cascader, DatePicker, Input, Select } from 'antd';
import type { DefaultOptionType } from 'antd/es/cascader';
import { CompanySelect } from './CompanySelect';
import { DATE_FORMAT, DATETIME_MINUTE_FORMAT, maxLengthOf, placeholderOf } from './control-values';
import { FileListUpload } from './FileListUpload';
import { NumericInput } from './NumericInput';
import { TagSelect } from './TagSelect';

type Props = {
  control: TemplateControl;
  isPreview?: boolean;
  /** Form.Item injects id, value and onChange; their types depend on the kind. */
  [injected: string]: unknown;
};

const optionsOf = (c: TemplateControl) =>
  (Array.isArray(c.dmValue) ? c.dmValue : []).map((text) => ({ value: text, label: text }));

/** Cascader search: any level's label contains the text. */
const cascaderSearch = {
  filter: (input: string, path: DefaultOptionType[]) => path.some((o) => String(o.label).includes(input.trim())),
};

const full = { width: '100%' };

/**
 * The input of one template control by its kind (SPEC §4). Used as the child of a Form.Item,
 * which passes value and onChange through the rest props.
 */
export const ControlInput = ({ control: c, isPreview, ...injected }: Props) => {
  const field = injected as Record<string, never>;
  const placeholder = placeholderOf(c);
  const maxLength = maxLengthOf(c.dmType);
  switch (c.dmType) {
    case DM_TYPE.textarea:
      return (
        <Input.TextArea
          {...field}
          placeholder={placeholder}
          maxLength={maxLength}
          showCount
          autoSize={{ minRows: 2, maxRows: 5 }}
        />
      );
    case DM_TYPE.integer:
    case DM_TYPE.number:
      return (
        <NumericInput
          {...field}
          allowDecimal={c.dmType === DM_TYPE.number}
          maxLength={maxLength ?? 20}
          placeholder={placeholder}
        />
      );
    case DM_TYPE.date:
      return <DatePicker {...field} style={full} format={DATE_FORMAT} placeholder={placeholder} />;
    case DM_TYPE.datetime:
      return (
        <DatePicker
          {...field}
          style={full}
          showTime={{ format: 'HH:mm' }}
          format={DATETIME_MINUTE_FORMAT}
          placeholder={placeholder}
        />
      );
    case DM_TYPE.select:
      return <Select {...field} allowClear placeholder={placeholder} options={optionsOf(c)} />;
    case DM_TYPE.multiSelect:
      return <Select {...field} mode="multiple" allowClear placeholder={placeholder} options={optionsOf(c)} />;
    case DM_TYPE.selectByText:
      return (
        <Select
          {...field}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={placeholder}
          options={optionsOf(c)}
        />
      );
    case DM_TYPE.address:
      // SPEC §1 region tree; a province or a city alone is a valid answer.
      return (
        <Cascader
          {...field}
          style={full}
          options={REGIONS}
          changeOnSelect
          allowClear
          showSearch={cascaderSearch}
          placeholder={placeholder}
        />
      );
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      return (
        <Cascader
          {...field}
          style={full}
          options={c.ctrlList ?? []}
          allowClear
          showSearch={cascaderSearch}
          placeholder={placeholder}
        />
      );
    case DM_TYPE.file:
      return <FileListUpload {...field} placeholder={c.dmDesc?.trim() || undefined} isPreview={isPreview} />;
    case DM_TYPE.tags:
      return <TagSelect {...field} placeholder={placeholder} />;
    case DM_TYPE.company:
      return <CompanySelect {...field} placeholder={placeholder} />;
    default:
      // 0 text, 6 phone, 99 the group's own text
      return <Input {...field} placeholder={placeholder} maxLength={maxLength} allowClear />;
  }
};
