import { Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import type { LabeledValue } from './control-values';
import { useCompanyOptions } from './useCompanyOptions';

type Props = {
  value?: LabeledValue;
  onChange?: (value: LabeledValue | undefined) => void;
  placeholder?: string;
  id?: string;
};

/** Typing pauses this long before a search (the search bar's 2500 ms rule is for lists). */
const DEBOUNCE_MS = 300;

/** Company control (kind 20): a remote search over the customers; the value is a cmCtid. */
export const CompanySelect = ({ value, onChange, placeholder, id }: Props) => {
  const [isOpen, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(text.trim()), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  const { data: options = [], isFetching } = useCompanyOptions(search, isOpen);
  return (
    <Select<LabeledValue>
      id={id}
      labelInValue
      allowClear
      value={value}
      onChange={(v) => onChange?.(v ? { value: String(v.value), label: String(v.label) } : undefined)}
      placeholder={placeholder}
      options={options}
      showSearch={{ filterOption: false, onSearch: setText }}
      onOpenChange={setOpen}
      notFoundContent={isFetching ? <Spin size="small" /> : '暂无数据'}
    />
  );
};
