import { Select } from 'antd';
import { useMemo } from 'react';
import type { LabeledValue } from './control-values';
import { useLabelOptions } from './useLabelOptions';

type Props = {
  value?: LabeledValue[];
  onChange?: (value: LabeledValue[]) => void;
  placeholder?: string;
  id?: string;
};

/** Tag multi-select (kind 19): tags grouped by their tag group; stored tags keep their names. */
export const TagSelect = ({ value, onChange, placeholder, id }: Props) => {
  const { data: labels = [], isLoading } = useLabelOptions();
  const options = useMemo(() => {
    const tags = labels.filter((l) => l.pid !== 0);
    const groups = labels.filter((l) => l.pid === 0 && tags.some((t) => t.pid === l.cmClid));
    const loose = tags.filter((t) => !groups.some((g) => g.cmClid === t.pid));
    return [
      ...groups.map((g) => ({
        label: g.name,
        title: g.name,
        options: tags.filter((t) => t.pid === g.cmClid).map((t) => ({ value: t.cmClid, label: t.name })),
      })),
      ...loose.map((t) => ({ value: t.cmClid, label: t.name })),
    ];
  }, [labels]);
  return (
    <Select<LabeledValue[]>
      id={id}
      mode="multiple"
      labelInValue
      allowClear
      value={value}
      onChange={(v) => onChange?.(v.map((t) => ({ value: t.value, label: String(t.label) })))}
      loading={isLoading}
      placeholder={placeholder}
      options={options}
      showSearch={{ optionFilterProp: 'label' }}
      notFoundContent="暂无标签"
    />
  );
};
