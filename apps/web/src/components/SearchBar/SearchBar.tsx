import { DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { Badge, Button, Cascader, DatePicker, Form, Input, Select, Space } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { DatetimePairInput } from './DatetimePairInput';
import { NumberRangeInput } from './NumberRangeInput';
import { RemoteSelect } from './RemoteSelect';
import styles from './SearchBar.module.css';
import { checkFieldLimits, initialFormValues, toSearchValues } from './searchValues';
import type { SearchField, SearchValues } from './types';

/** SPEC §5: inputs default to 200 px wide and 20 characters. */
const DEFAULT_WIDTH = 200;
const DEFAULT_MAX_LENGTH = 20;

type Props = {
  fields: SearchField[];
  /** Filters built at run time (e.g. from a template): always in 更多筛选, not counted against the SPEC limits. */
  dynamicFields?: SearchField[];
  onSearch: (values: SearchValues) => void;
  /** Extra buttons at the right of the bar (export, import, …). */
  extra?: ReactNode;
  /** The add button, rightmost. */
  addButton?: ReactNode;
  /** Form name; two bars on one page need different names. */
  name?: string;
};

const control = (field: SearchField): ReactNode => {
  const width = field.width ?? DEFAULT_WIDTH;
  switch (field.kind) {
    case 'text':
      return <Input placeholder={field.label} allowClear maxLength={field.maxLength ?? DEFAULT_MAX_LENGTH} style={{ width }} />;
    case 'remoteSelect':
      return <RemoteSelect placeholder={field.label} fetchOptions={field.fetchOptions} width={width} />;
    case 'select':
      return (
        <Select
          placeholder={field.label}
          allowClear
          mode={field.isMultiple ? 'multiple' : undefined}
          maxTagCount="responsive"
          options={field.options}
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width }}
        />
      );
    case 'cascader':
      return (
        <Cascader
          placeholder={field.label}
          options={field.options}
          changeOnSelect={field.isAnyLevel}
          showSearch
          allowClear
          style={{ width }}
        />
      );
    case 'date':
      return <DatePicker placeholder={field.label} style={{ width }} />;
    case 'dateRange':
      return <DatePicker.RangePicker style={{ width: field.width ?? 240 }} />;
    case 'datetimePair':
      return <DatetimePairInput width={field.width ?? 360} />;
    case 'numberRange':
      return <NumberRangeInput min={field.min} max={field.max} width={width} />;
    case 'custom':
      return field.render();
  }
};

/** Pickers and ranges carry their name as a label; inputs and selects as a placeholder. */
const isLabelled = (field: SearchField) =>
  field.kind === 'dateRange' || field.kind === 'datetimePair' || field.kind === 'numberRange' || field.kind === 'date';

const item = (field: SearchField) => (
  <Form.Item key={field.name} name={field.name} label={isLabelled(field) ? field.label : undefined}>
    {control(field)}
  </Form.Item>
);

/**
 * The reusable search bar of SPEC §2 and §5: fields configured by props, 查询 emits the
 * non-empty values, 重置 clears them (the datetime pair returns to its defaults) and emits.
 */
export const SearchBar = ({ fields, dynamicFields = [], onSearch, extra, addButton, name = 'searchBar' }: Props) => {
  const [form] = Form.useForm();
  const [isMoreOpen, setMoreOpen] = useState(false);
  const [moreInUse, setMoreInUse] = useState(0);
  const allFields = useMemo(() => [...fields, ...dynamicFields], [fields, dynamicFields]);
  const main = fields.filter((f) => !f.isMore);
  const more = [...fields.filter((f) => f.isMore), ...dynamicFields];
  const [initialValues] = useState(() => initialFormValues(fields));

  useEffect(() => {
    if (import.meta.env.DEV) for (const problem of checkFieldLimits(fields)) console.warn(problem);
  }, [fields]);

  const emit = (raw: Record<string, unknown>) => {
    const values = toSearchValues(allFields, raw);
    setMoreInUse(more.filter((f) => values[f.name] !== undefined).length);
    onSearch(values);
  };
  const reset = () => {
    form.resetFields();
    form.setFieldsValue(initialFormValues(fields));
    emit(form.getFieldsValue(true));
  };

  return (
    <Form form={form} name={name} layout="inline" className={styles.bar} initialValues={initialValues} onFinish={emit}>
      {main.map(item)}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            查询
          </Button>
          <Button onClick={reset}>重置</Button>
          {more.length > 0 && (
            <Badge count={moreInUse} size="small">
              <Button type="link" onClick={() => setMoreOpen((v) => !v)}>
                更多筛选 {isMoreOpen ? <UpOutlined /> : <DownOutlined />}
              </Button>
            </Badge>
          )}
        </Space>
      </Form.Item>
      {(extra || addButton) && (
        <div className={styles.actions}>
          {extra}
          {addButton}
        </div>
      )}
      {more.length > 0 && (
        <div className={isMoreOpen ? styles.more : `${styles.more} ${styles.moreHidden}`}>{more.map(item)}</div>
      )}
    </Form>
  );
};
