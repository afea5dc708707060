import {
  WORK_LIST_TABS,
  WORK_PRIORITY_LABEL,
  WORK_STATUS_LABEL,
  type WorkOrderCounts,
  type WorkOrderListQuery,
  type WorkOrderRow,
} from '@crm/contracts';
import { Badge, Card, Form, Input, Select, Space, Table, type TableColumnsType, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { JobExportButton } from '../../../components/JobExportButton';
import { SearchActions } from '../../../components/SearchActions';
import { useTablePaging } from '../../../components/useTablePaging';
import { hasPermission, useSession } from '../../../stores/session';
import { CustomerDetailDrawer } from '../../customers/components/detail/CustomerDetailDrawer';
import { useStartWorkOrderExport, useWorkOrderCounts, useWorkOrderList, useWorkTypes } from '../api';
import { WorkOrderDetailDrawer } from '../components/WorkOrderDetailDrawer';
import { workOrderColumns } from '../components/WorkOrdersTab';
import { WorkStageChart } from '../components/WorkStageChart';
import { WorkStatusTag } from '../components/WorkTags';

type Tab = (typeof WORK_LIST_TABS)[number];
type SearchValues = { keyword?: string; type_id?: number; stage_id?: number; status?: number; priority?: number };

const TAB_LABEL: Record<Tab, string> = { all: '全部', mine: '我创建的', assigned: '分配给我', overdue: '已超时' };
const toOptions = (labels: Record<number, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value: Number(value), label }));
const STATUS_OPTIONS = toOptions(WORK_STATUS_LABEL);
const PRIORITY_OPTIONS = toOptions(WORK_PRIORITY_LABEL);

/** 'YYYY-MM-DD HH:mm:ss' to the minute. */
const minute = (v: string) => v.slice(0, 16) || '-';

const toFilters = (v: SearchValues): Partial<WorkOrderListQuery> => ({
  keyword: v.keyword?.trim() ?? '',
  type_id: v.type_id,
  stage_id: v.stage_id,
  status: v.status,
  priority: v.priority,
});

/** 工单管理 (/workorder/list): the caller's work orders by tab (全部/我创建的/分配给我/已超时), filters, export. */
export const WorkOrdersPage = () => {
  const [form] = Form.useForm<SearchValues>();
  const [tab, setTab] = useState<Tab>('all');
  const [filters, setFilters] = useState<Partial<WorkOrderListQuery>>({});
  const startExport = useStartWorkOrderExport();
  const [openId, setOpenId] = useState<number | null>(null);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const paging = useTablePaging();
  const canExport = hasPermission(
    useSession((s) => s.permissions),
    'frontend/workorder/export',
  );
  const types = useWorkTypes();
  const counts = useWorkOrderCounts();
  const list = useWorkOrderList({ ...filters, tab, page: paging.page, limit: paging.limit });
  const typeId = Form.useWatch('type_id', form);
  const stageOptions = (types.data?.find((t) => t.id === typeId)?.stages ?? [])
    .toSorted((a, b) => a.sort - b.sort)
    .map((s) => ({ value: s.id, label: s.name }));

  const search = (v: SearchValues) => {
    setFilters(toFilters(v));
    paging.resetPage();
  };

  // 1366 px without a horizontal scroll: times to the minute, 已完结 beside the stage (创建时间 is in the detail).
  const columns: TableColumnsType<WorkOrderRow> = [
    {
      title: '客户',
      dataIndex: 'customer_name',
      width: 120,
      ellipsis: true,
      render: (v: string, r) => (
        <Typography.Link
          onClick={(e) => {
            e.stopPropagation();
            setCustomerId(r.customer_id);
          }}
        >
          {v || '未命名'}
        </Typography.Link>
      ),
    },
    workOrderColumns[0],
    { title: '工单类型', dataIndex: 'type_name', width: 100, ellipsis: true },
    { ...workOrderColumns[1], width: 80 },
    { ...workOrderColumns[2], width: 80 },
    {
      title: '当前阶段',
      dataIndex: 'node_name',
      width: 130,
      render: (v: string, r) => (
        <Space size={4}>
          {v}
          {r.status === 1 && <WorkStatusTag status={1} />}
        </Space>
      ),
    },
    { title: '截止时间', dataIndex: 'due_at', width: 150, render: minute },
    { title: '最后更新', dataIndex: 'last_time', width: 150, render: minute },
  ];

  const badge = (k: Tab) => {
    const n = counts.data?.[k as keyof WorkOrderCounts] ?? 0;
    return (
      <Space size={6}>
        {TAB_LABEL[k]}
        <Badge count={n} overflowCount={9999} color={k === 'overdue' ? 'red' : '#1677ff'} title={`未完结 ${n} 个`} />
      </Space>
    );
  };

  return (
    <Card
      title="工单管理"
      extra={canExport && <JobExportButton title="导出工单" start={startExport} input={{ ...filters, tab }} />}
    >
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k as Tab);
          paging.resetPage();
        }}
        items={WORK_LIST_TABS.map((k) => ({ key: k, label: badge(k) }))}
      />
      <Form form={form} name="workOrderSearch" layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
        <Form.Item name="keyword">
          <Input placeholder="工单名称/客户名称" aria-label="关键词" allowClear maxLength={50} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="type_id">
          <Select
            placeholder="工单类型"
            aria-label="工单类型"
            allowClear
            options={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            onChange={() => form.setFieldValue('stage_id', undefined)}
            style={{ width: 150 }}
          />
        </Form.Item>
        <Form.Item name="stage_id">
          <Select
            placeholder={typeId ? '当前阶段' : '先选工单类型'}
            aria-label="当前阶段"
            allowClear
            disabled={!typeId}
            options={stageOptions}
            style={{ width: 140 }}
          />
        </Form.Item>
        <Form.Item name="status">
          <Select placeholder="状态" aria-label="状态" allowClear options={STATUS_OPTIONS} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="priority">
          <Select placeholder="优先级" aria-label="优先级" allowClear options={PRIORITY_OPTIONS} style={{ width: 110 }} />
        </Form.Item>
        <SearchActions
          onReset={() => {
            form.resetFields();
            search({});
          }}
        />
      </Form>
      <WorkStageChart types={types.data ?? []} base={{ ...filters, tab }} />
      <Table<WorkOrderRow>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        locale={{ emptyText: '暂无工单' }}
        pagination={paging.pagination(list.data?.count ?? 0)}
        onRow={(r) => ({ onClick: () => setOpenId(r.id), style: { cursor: 'pointer' } })}
      />
      <WorkOrderDetailDrawer id={openId} onClose={() => setOpenId(null)} />
      <CustomerDetailDrawer cmCtid={customerId} onClose={() => setCustomerId(null)} />
    </Card>
  );
};
