import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { fetchStaffOptions } from '../../customers/api';

/** Staff of the caller's data scope (the server limits the options), searchable by name. */
export const StaffPicker = (props: Omit<SelectProps<number | number[]>, 'options'>) => {
  const staff = useQuery({ queryKey: ['staff', 'options', ''], queryFn: () => fetchStaffOptions(''), staleTime: 60_000 });
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      loading={staff.isLoading}
      placeholder="请选择员工"
      options={(staff.data ?? []).map((s) => ({ value: s.staff_id, label: s.linkman }))}
      {...props}
    />
  );
};
