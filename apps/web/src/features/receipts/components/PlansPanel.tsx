import { PLAN_STATUS_LABEL, type PlanListQuery, type PlanRow } from '@crm/contracts';
import { DatePicker, Form, Select, Table, type TableColumnsType, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { SearchActions } from '../../../components/SearchActions';
import { useTablePaging } from '../../../components/useTablePaging';
import { StaffSearchSelect } from '../../orders/components/StaffSearchSelect';
import { usePlanList } from '../api';
import { PlanStatusTag } from './PlanStatusTag';
import { ReceiptExportButton } from './ReceiptExportButton';

type SearchValues = { staff_id?: number; status?: number; plan?: [Dayjs, Dayjs] | null };
const STATUS_OPTIONS = Object.entries(PLAN_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

const columns = (onCustomer: (id: number) => void): TableColumnsType<PlanRow> => [
  {
    title: '客户',
    dataIndex: 'customer_name',
    width: 180,
    ellipsis: true,
    render: (v: string, r) => <Typography.Link onClick={() => onCustomer(r.customer_id)}>{v || '未命名'}</Typography.Link>,
  },
  { title: '计划金额(元)', dataIndex: 'amount', width: 130, align: 'right', render: formatMoney },
  { title: '已回款(元)', dataIndex: 'repaid_amount_sum', width: 130, align: 'right', render: formatMoney },
  { title: '计划日期', dataIndex: 'plan_at', width: 110 },
  { title: '状态', dataIndex: 'status', width: 100, render: (v: number) => <PlanStatusTag status={v} /> },
  { title: '负责人', dataIndex: 'owner', width: 100 },
  { title: '备注', dataIndex: 'remark', ellipsis: true, render: (v: string) => v || '-' },
  { title: '创建时间', dataIndex: 'created_at', width: 165 },
];

/** 回款管理 · 回款计划: plans in the caller's scope, filtered by owner, status and plan date; export. */
export const PlansPanel = ({ canExport, onCustomer }: { canExport: boolean; onCustomer: (id: number) => void }) => {
  const [form] = Form.useForm<SearchValues>();
  const [filters, setFilters] = useState<Partial<PlanListQuery>>({});
  const paging = useTablePaging();
  const list = usePlanList({ ...filters, page: paging.page, limit: paging.limit });
  const search = (v: SearchValues) => {
    setFilters({
      staff_id: v.staff_id,
      status: v.status,
      plan_start: v.plan?.[0]?.format('YYYY-MM-DD') ?? '',
      plan_end: v.plan?.[1]?.format('YYYY-MM-DD') ?? '',
    });
    paging.resetPage();
  };
  return (
    <>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
        <Form.Item name="staff_id">
          <StaffSearchSelect placeholder="负责人" allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="status">
          <Select placeholder="回款状态" allowClear options={STATUS_OPTIONS} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="plan">
          <DatePicker.RangePicker placeholder={['计划开始日期', '计划结束日期']} style={{ width: 260 }} />
        </Form.Item>
        <SearchActions
          onReset={() => {
            form.resetFields();
            search({});
          }}
        >
          {canExport && <ReceiptExportButton filters={filters} />}
        </SearchActions>
      </Form>
      <Table<PlanRow>
        rowKey="id"
        columns={columns(onCustomer)}
        dataSource={list.data?.list}
        loading={list.isFetching}
        scroll={{ x: 1050 }}
        locale={{ emptyText: '暂无回款计划' }}
        pagination={paging.pagination(list.data?.count ?? 0)}
      />
    </>
  );
};
