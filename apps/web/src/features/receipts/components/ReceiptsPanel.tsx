import { PAY_TYPE_LABEL, type ReceiptListQuery, type ReceiptRow } from '@crm/contracts';
import { DatePicker, Form, Select, Table, type TableColumnsType, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { SearchActions } from '../../../components/SearchActions';
import { useTablePaging } from '../../../components/useTablePaging';
import { StaffSearchSelect } from '../../orders/components/StaffSearchSelect';
import { VerifyStatusTag } from '../../orders/components/VerifyStatusTag';
import { useReceiptList } from '../api';

type SearchValues = { staff_id?: number; pay_type?: number; day?: [Dayjs, Dayjs] | null };
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

/** 回款管理 · 回款记录: receipts in the caller's scope, filtered by owner, pay type and date. */
export const ReceiptsPanel = ({ onCustomer }: { onCustomer: (id: number) => void }) => {
  const [form] = Form.useForm<SearchValues>();
  const [filters, setFilters] = useState<Partial<ReceiptListQuery>>({});
  const paging = useTablePaging();
  const list = useReceiptList({ ...filters, page: paging.page, limit: paging.limit });
  const search = (v: SearchValues) => {
    setFilters({
      staff_id: v.staff_id,
      pay_type: v.pay_type,
      start: v.day?.[0]?.format('YYYY-MM-DD') ?? '',
      end: v.day?.[1]?.format('YYYY-MM-DD') ?? '',
    });
    paging.resetPage();
  };
  return (
    <>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
        <Form.Item name="staff_id">
          <StaffSearchSelect placeholder="负责人" allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="pay_type">
          <Select placeholder="付款方式" allowClear options={PAY_OPTIONS} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="day">
          <DatePicker.RangePicker placeholder={['回款开始日期', '回款结束日期']} style={{ width: 260 }} />
        </Form.Item>
        <SearchActions
          onReset={() => {
            form.resetFields();
            search({});
          }}
        />
      </Form>
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
