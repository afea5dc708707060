import { DatePicker, Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { DepartmentTreeSelect } from '../../../components/DepartmentTreeSelect';
import { SearchActions } from '../../../components/SearchActions';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useDepartmentTree } from '../../departments/api';

type Values = { range?: [Dayjs, Dayjs] | null; staffId?: number; departmentId?: number; kind?: string; number?: string };

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
  onSearch,
  children,
}: {
  kinds: { value: string; label: string }[];
  withKind?: boolean;
  withNumber?: boolean;
  onSearch: (search: BillingSearch) => void;
  children?: ReactNode;
}) => {
  const [form] = Form.useForm<Values>();
  const departments = useDepartmentTree();
  const search = (v: Values) =>
    onSearch({
      from: v.range?.[0]?.format('YYYY-MM-DD') ?? '',
      to: v.range?.[1]?.format('YYYY-MM-DD') ?? '',
      staffId: v.staffId,
      departmentId: v.departmentId,
      kind: withKind ? v.kind : undefined,
      number: withNumber ? v.number?.trim() || undefined : undefined,
    });
  return (
    <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
      <Form.Item name="range">
        <DatePicker.RangePicker placeholder={['开始日期', '结束日期']} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="staffId">
        <StaffSearchSelect placeholder="员工" allowClear style={{ width: 120 }} />
      </Form.Item>
      <Form.Item name="departmentId">
        <DepartmentTreeSelect departments={departments.data ?? []} placeholder="部门" style={{ width: 140 }} />
      </Form.Item>
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
