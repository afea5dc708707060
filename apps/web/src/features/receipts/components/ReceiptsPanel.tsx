import { PAY_TYPE_LABEL, type ReceiptListQuery, type ReceiptRow } from '@crm/contracts';
import { Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { JobExportButton } from '../../../components/JobExportButton';
import { formatMoney } from '../../../components/money';
import { useTablePaging } from '../../../components/useTablePaging';
import { VerifyStatusTag } from '../../../components/VerifyStatusTag';
import { useReceiptList, useStartReceiptListExport } from '../api';
import { type ReceiptSearch, ReceiptSearchBar } from './ReceiptSearchBar';

const PAY_OPTIONS = Object.entries(PAY_TYPE_LABEL).map(([value, label]) => ({ value: Number(value), label }));

const columns = (onCustomer: (id: number) => void): TableColumnsType<ReceiptRow> => [
  {
    title: '客户',
    dataIndex: 'customer_name',
    width: 150,
    ellipsis: true,
    render: (v: string, r) => <Typography.Link onClick={() => onCustomer(r.customer_id)}>{v || '未命名'}</Typography.Link>,
  },
  { title: '回款金额(元)', dataIndex: 'amount', width: 130, align: 'right', render: formatMoney },
  { title: '回款日期', dataIndex: 'repayment_at', width: 110 },
  { title: '计划日期', dataIndex: 'plan_at', width: 110 },
  { title: '付款方式', dataIndex: 'pay_type_name', width: 100 },
  {
    title: '审批状态',
    dataIndex: 'verify_status',
    width: 100,
    render: (v: number) => (v === -1 ? '无需审批' : <VerifyStatusTag status={v} />),
  },
  { title: '负责人', dataIndex: 'owner', width: 100 },
  { title: '备注', dataIndex: 'remark', ellipsis: true, render: (v: string) => v || '-' },
  { title: '创建时间', dataIndex: 'created_at', width: 160 },
];

/** 回款管理 · 回款记录: receipts in the caller's scope, filtered by owner, pay type and date; export. */
export const ReceiptsPanel = ({ canExport, onCustomer }: { canExport: boolean; onCustomer: (id: number) => void }) => {
  const [filters, setFilters] = useState<Partial<ReceiptListQuery>>({});
  const startExport = useStartReceiptListExport();
  const paging = useTablePaging();
  const list = useReceiptList({ ...filters, page: paging.page, limit: paging.limit });
  const search = (s: ReceiptSearch) => {
    setFilters({ staff_id: s.staff_id, pay_type: s.choice, start: s.from, end: s.to });
    paging.resetPage();
  };
  return (
    <>
      <ReceiptSearchBar
        choice={{ placeholder: '付款方式', options: PAY_OPTIONS }}
        rangePlaceholder={['回款开始日期', '回款结束日期']}
        onSearch={search}
      >
        {canExport && <JobExportButton title="导出回款记录" start={startExport} input={filters} />}
      </ReceiptSearchBar>
      <Table<ReceiptRow>
        rowKey="id"
        columns={columns(onCustomer)}
        dataSource={list.data?.list}
        loading={list.isFetching}
        scroll={{ x: 1040 }}
        locale={{ emptyText: '暂无回款记录' }}
        pagination={paging.pagination(list.data?.count ?? 0)}
      />
    </>
  );
};
