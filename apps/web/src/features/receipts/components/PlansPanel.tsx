import { PLAN_STATUS_LABEL, type PlanListQuery, type PlanRow } from '@crm/contracts';
import { Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { JobExportButton } from '../../../components/JobExportButton';
import { formatMoney } from '../../../components/money';
import { useTablePaging } from '../../../components/useTablePaging';
import { usePlanList, useStartReceiptExport } from '../api';
import { PlanStatusTag } from './PlanStatusTag';
import { type ReceiptSearch, ReceiptSearchBar } from './ReceiptSearchBar';

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
  const [filters, setFilters] = useState<Partial<PlanListQuery>>({});
  const startExport = useStartReceiptExport();
  const paging = useTablePaging();
  const list = usePlanList({ ...filters, page: paging.page, limit: paging.limit });
  const search = (s: ReceiptSearch) => {
    setFilters({ staff_id: s.staff_id, status: s.choice, plan_start: s.from, plan_end: s.to });
    paging.resetPage();
  };
  return (
    <>
      <ReceiptSearchBar
        choice={{ placeholder: '回款状态', options: STATUS_OPTIONS }}
        rangePlaceholder={['计划开始日期', '计划结束日期']}
        onSearch={search}
      >
        {canExport && <JobExportButton title="导出回款计划" start={startExport} input={filters} />}
      </ReceiptSearchBar>
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
