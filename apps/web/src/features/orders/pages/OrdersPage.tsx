import { type CustomerPickRow, ORDER_LIMITS, type OrderListQuery, type OrderRow, VERIFY_STATUS_LABEL } from '@crm/contracts';
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { JobExportButton } from '../../../components/JobExportButton';
import { yuanToMilli } from '../../../components/money';
import { SearchActions } from '../../../components/SearchActions';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useTablePaging } from '../../../components/useTablePaging';
import { YuanInput } from '../../../components/YuanInput';
import { hasPermission, useSession } from '../../../stores/session';
import { CustomerPickerModal } from '../../customers/components/CustomerPickerModal';
import { useOrderList, useStartOrderExport } from '../api';
import { OrderDetailDrawer } from '../components/OrderDetailDrawer';
import { OrderFormModal } from '../components/OrderFormModal';
import { orderColumns } from '../components/OrdersTab';

type SearchValues = {
  keyword?: string;
  staff_id?: number;
  verify_status?: number;
  deal?: [Dayjs, Dayjs] | null;
  amount_min?: string;
  amount_max?: string;
};

const STATUS_OPTIONS = Object.entries(VERIFY_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

const toFilters = (v: SearchValues): Partial<OrderListQuery> => ({
  keyword: v.keyword?.trim() ?? '',
  staff_id: v.staff_id,
  verify_status: v.verify_status,
  deal_start: v.deal?.[0]?.format('YYYY-MM-DD') ?? '',
  deal_end: v.deal?.[1]?.format('YYYY-MM-DD') ?? '',
  amount_min: yuanToMilli(v.amount_min),
  amount_max: yuanToMilli(v.amount_max),
});

const columns: TableColumnsType<OrderRow> = [
  {
    title: '客户',
    dataIndex: 'customer_name',
    width: 200,
    // the name gives way (ellipsis, full name on hover); the 低于最低价 tag always stays visible
    render: (v: string, r) => (
      <div style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
        <Typography.Link
          title={v || '未命名'}
          style={{ minWidth: 0, flex: '0 1 auto', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {v || '未命名'}
        </Typography.Link>
        {r.is_below_min === 1 && (
          <Tag color="red" style={{ flex: 'none', marginInlineEnd: 0 }}>
            低于最低价
          </Tag>
        )}
      </div>
    ),
  },
  ...orderColumns,
  {
    title: '协同人',
    dataIndex: 'cooperators',
    width: 140,
    render: (v: OrderRow['cooperators']) =>
      v.length === 0
        ? '-'
        : `${v
            .slice(0, 2)
            .map((c) => c.linkman)
            .join('、')}${v.length > 2 ? ` +${v.length - 2}` : ''}`,
  },
];

/** 订单管理: every order in the caller's scope, with filters, export and the order detail. */
export const OrdersPage = () => {
  const startExport = useStartOrderExport();
  const [form] = Form.useForm<SearchValues>();
  const [filters, setFilters] = useState<Partial<OrderListQuery>>({});
  const [orderId, setOrderId] = useState<number | null>(null);
  const paging = useTablePaging();
  const permissions = useSession((s) => s.permissions);
  const canExport = hasPermission(permissions, 'frontend/order/export');
  // issue 23: an order is created from here too, for a customer picked first (the drawer's 新建订单 flag)
  const canCreate = hasPermission(permissions, 'frontend/customer/detail/cOrder');
  const [isPicking, setPicking] = useState(false);
  const [orderFor, setOrderFor] = useState<CustomerPickRow | null>(null);
  const list = useOrderList({ ...filters, page: paging.page, limit: paging.limit });
  const search = (v: SearchValues) => {
    setFilters(toFilters(v));
    paging.resetPage();
  };
  return (
    <Card
      title="订单管理"
      extra={
        <Space>
          {canCreate && (
            <Button type="primary" onClick={() => setPicking(true)}>
              新建订单
            </Button>
          )}
          {canExport && <JobExportButton title="导出订单" start={startExport} input={filters} />}
        </Space>
      }
    >
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
        <Form.Item name="keyword">
          <Input placeholder="客户名称" allowClear maxLength={50} style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="staff_id">
          <StaffSearchSelect placeholder="负责人" allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="verify_status">
          <Select placeholder="审核状态" allowClear options={STATUS_OPTIONS} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="deal">
          <DatePicker.RangePicker placeholder={['成交开始日期', '成交结束日期']} style={{ width: 260 }} />
        </Form.Item>
        <Form.Item>
          <Space.Compact>
            <Form.Item name="amount_min" noStyle>
              <YuanInput placeholder="最低金额" style={{ width: 120 }} />
            </Form.Item>
            <Input disabled value="~" style={{ width: 32, textAlign: 'center', pointerEvents: 'none' }} />
            <Form.Item name="amount_max" noStyle>
              <YuanInput placeholder="最高金额" style={{ width: 120 }} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <SearchActions
          onReset={() => {
            form.resetFields();
            search({});
          }}
        />
      </Form>
      <Table<OrderRow>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        scroll={{ x: 1050 }}
        locale={{ emptyText: '暂无订单' }}
        pagination={{
          ...paging.pagination(list.data?.count ?? 0, list.data?.isCountEstimated),
          pageSizeOptions: [...ORDER_LIMITS.pageSizeOptions],
        }}
        onRow={(r) => ({ onClick: () => setOrderId(r.id), style: { cursor: 'pointer' } })}
      />
      <OrderDetailDrawer orderId={orderId} onClose={() => setOrderId(null)} />
      <CustomerPickerModal
        open={isPicking}
        title="新建订单"
        onPick={(c) => {
          setPicking(false);
          setOrderFor(c);
        }}
        onClose={() => setPicking(false)}
      />
      {orderFor && (
        <OrderFormModal
          open
          // a masked number is not a contact phone: the seller types it
          customer={{ cmCtid: orderFor.cmCtid, name: orderFor.name, phone: orderFor.encryptPhone ? '' : orderFor.contactPhone }}
          onClose={() => setOrderFor(null)}
        />
      )}
    </Card>
  );
};
