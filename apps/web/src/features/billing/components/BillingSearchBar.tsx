import { DatePicker, Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { DepartmentTreeSelect } from '../../../components/DepartmentTreeSelect';
import { SearchActions } from '../../../components/SearchActions';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useDepartmentTree } from '../../departments/api';

type Values = { range?: [Dayjs, Dayjs] | null; staffId?: number; departmentId?: number; kind?: string; number?: string };

/** The department picker, its tree fetched only where the filter is shown (a staff member seeing his own charges has none). */
const DepartmentFilter = (props: { value?: number; onChange?: (value: number) => void }) => {
  const departments = useDepartmentTree();
  return <DepartmentTreeSelect {...props} departments={departments.data ?? []} placeholder="部门" style={{ width: 140 }} />;
};

/** What 消费明细's lists are filtered by: dates as YYYY-MM-DD ('' for open), the rest left out when not chosen. */
export type BillingSearch = { from: string; to: string; staffId?: number; departmentId?: number; kind?: string; number?: string };

/**
 * 消费明细's search bar, shared by its tabs: date range, 员工, 部门, 类型 and 号码 (the line or the
 * callee), with 查询/重置 and the tab's own buttons (导出). Tabs that do not filter by a field hide it.
 */
export const BillingSearchBar = ({
  kinds,
  withKind = true,
  withNumber = true,
  withStaff = true,
  onSearch,
  children,
}: {
  kinds: { value: string; label: string }[];
  withKind?: boolean;
  withNumber?: boolean;
  /** false for a staff member who sees only his own charges (the server ignores staff and department for him) */
  withStaff?: boolean;
  onSearch: (search: BillingSearch) => void;
  children?: ReactNode;
}) => {
  const [form] = Form.useForm<Values>();
  const search = (v: Values) =>
    onSearch({
      from: v.range?.[0]?.format('YYYY-MM-DD') ?? '',
      to: v.range?.[1]?.format('YYYY-MM-DD') ?? '',
      staffId: withStaff ? v.staffId : undefined,
      departmentId: withStaff ? v.departmentId : undefined,
      kind: withKind ? v.kind : undefined,
      number: withNumber ? v.number?.trim() || undefined : undefined,
    });
  return (
    <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
      <Form.Item name="range">
        <DatePicker.RangePicker placeholder={['开始日期', '结束日期']} style={{ width: 240 }} />
      </Form.Item>
      {withStaff && (
        <Form.Item name="staffId">
          <StaffSearchSelect placeholder="员工" allowClear style={{ width: 120 }} />
        </Form.Item>
      )}
      {withStaff && (
        <Form.Item name="departmentId">
          <DepartmentFilter />
        </Form.Item>
      )}
      {withKind && (
        <Form.Item name="kind">
          <Select placeholder="消费类型" allowClear options={kinds} style={{ width: 120 }} popupMatchSelectWidth={false} />
        </Form.Item>
      )}
      {withNumber && (
        <Form.Item name="number">
          <Input placeholder="线路/被叫号码" allowClear maxLength={20} style={{ width: 140 }} />
        </Form.Item>
      )}
      <SearchActions
        onReset={() => {
          form.resetFields();
          search({});
        }}
      >
        {children}
      </SearchActions>
    </Form>
  );
};
