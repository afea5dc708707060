/** A staff picker searched on the server by name: collaborators, transfers, approvers, work-order handlers. */
import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { http } from '../api/http';

/** A staff member as the staff search returns him: id and name. */
export type StaffName = { staff_id: number; linkman: string };

/** SPEC §7 staff search {linkman}: the staff options of collaborators, transfer and free approval nodes. */
const searchStaff = async (linkman: string) =>
  (await http.get<{ list: StaffName[] }>('/api/frontend/staff/search', { linkman })).list;

const useStaffSearch = (linkman: string) =>
  useQuery({ queryKey: ['staff', 'search', linkman], queryFn: () => searchStaff(linkman), staleTime: 60_000 });

type Props = Omit<SelectProps<number | number[]>, 'options' | 'onSearch' | 'filterOption'> & {
  /** staff known beforehand (current collaborators, preset approvers) so their names show at once */
  known?: StaffName[];
};

/**
 * Staff picked by name (SPEC §7 staff search {linkman}): the server searches, names already seen
 * stay known so chosen tags keep their labels while the list changes.
 */
export const StaffSearchSelect = ({ known, ...props }: Props) => {
  const [typed, setTyped] = useState('');
  const [linkman, setLinkman] = useState('');
  useEffect(() => {
    const t = window.setTimeout(() => setLinkman(typed.trim()), 300);
    return () => window.clearTimeout(t);
  }, [typed]);
  const staff = useStaffSearch(linkman);
  const seen = useRef(new Map<number, string>());
  for (const s of [...(known ?? []), ...(staff.data ?? [])]) seen.current.set(s.staff_id, s.linkman);
  const shown = new Set((staff.data ?? []).map((s) => s.staff_id));
  const selected = ([] as number[]).concat(props.value ?? []).filter((id) => !shown.has(id));
  const options = [
    ...(staff.data ?? []).map((s) => ({ value: s.staff_id, label: s.linkman })),
    ...selected.map((id) => ({ value: id, label: seen.current.get(id) ?? String(id) })),
  ];
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={staff.isFetching}
      placeholder="请选择员工"
      notFoundContent={staff.isFetching ? '搜索中…' : '暂无员工'}
      options={options}
      onOpenChange={(open) => !open && setTyped('')}
      {...props}
    />
  );
};
