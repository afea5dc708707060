import { DownloadOutlined } from '@ant-design/icons';
import { CONTRACT_LIMITS, CONTRACT_STATUS, type ContractRow } from '@crm/contracts';
import { App, Badge, Button, Card, DatePicker, Form, Input, Space, Table, type TableColumnsType, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { ExportProgressModal } from '../../../components/JobExportButton';
import { formatMoney } from '../../../components/money';
import { SearchActions } from '../../../components/SearchActions';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useButtonLock } from '../../../components/useButtonLock';
import { useTablePaging } from '../../../components/useTablePaging';
import { type ContractFilters, useContractList, useContractStatusInfo, useStartBatchDownload } from '../api';
import { DiscardDialog, downloadContract, SignLinkDialog, useConfirmArchive } from '../components/ContractActions';
import { ContractDetailDrawer } from '../components/ContractDetailDrawer';
import { ContractStatusTag } from '../components/ContractStatusTag';

type SearchValues = { number?: string; customer_name?: string; owner_id?: number; range?: [Dayjs, Dayjs] | null };
/** '' = every status, else the status number as text (a Tabs key). */
type StatusTab = string;

const toFilters = (v: SearchValues): ContractFilters & { customer_name?: string } => ({
  number: v.number?.trim() ?? '',
  customer_name: v.customer_name?.trim() ?? '',
  owner_id: v.owner_id,
  start: v.range?.[0]?.format('YYYY-MM-DD') ?? '',
  end: v.range?.[1]?.format('YYYY-MM-DD') ?? '',
});

/** 合同列表 (/contract/list): the caller's contracts by status, filters, batch download and the row actions. */
export const ContractsPage = () => {
  const [form] = Form.useForm<SearchValues>();
  const { message } = App.useApp();
  const [filters, setFilters] = useState<ContractFilters>({});
  const [tab, setTab] = useState<StatusTab>('');
  const [selected, setSelected] = useState<number[]>([]);
  const [openId, setOpenId] = useState<number | null>(null);
  const [sendId, setSendId] = useState<number | null>(null);
  const [discarding, setDiscarding] = useState<ContractRow | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const paging = useTablePaging(CONTRACT_LIMITS.pageSize);
  const status = tab === '' ? undefined : (Number(tab) as 0 | 1 | 2 | 3 | 4);
  const list = useContractList({ ...filters, status, page: paging.page, limit: paging.limit });
  const info = useContractStatusInfo(filters);
  const startZip = useStartBatchDownload();
  const confirmArchive = useConfirmArchive();

  const search = (v: SearchValues) => {
    setFilters(toFilters(v));
    setSelected([]);
    paging.resetPage();
  };

  const [batchDownload, isLocked] = useButtonLock(async () => {
    if (selected.length === 0) {
      message.warning('请选择合同');
      return;
    }
    try {
      setJobId((await startZip.mutateAsync({ ids: selected })).jobId);
    } catch {
      // the http client has shown the server's message
    }
  });

  const columns: TableColumnsType<ContractRow> = [
    {
      title: '合同编号',
      dataIndex: 'contract_no',
      width: 170,
      render: (v: string, r) => (
        <Typography.Link onClick={() => setOpenId(r.id)} style={{ whiteSpace: 'nowrap' }}>
          {v}
        </Typography.Link>
      ),
    },
    { title: '合同名称', dataIndex: 'title', ellipsis: true },
    { title: '客户', dataIndex: 'customer_name', width: 150, ellipsis: true, render: (v: string) => v || '未命名' },
    { title: '金额(元)', dataIndex: 'amount', width: 110, align: 'right', render: formatMoney },
    { title: '状态', dataIndex: 'status', width: 80, render: (v: number) => <ContractStatusTag status={v} /> },
    { title: '负责人', dataIndex: 'owner_name', width: 80, ellipsis: true },
    { title: '创建时间', dataIndex: 'created_at', width: 135, render: (v: string) => v.slice(0, 16) },
    {
      title: '操作',
      key: 'actions',
      width: 210,
      render: (_, r) => (
        <Space size={10}>
          <Typography.Link onClick={() => setOpenId(r.id)}>查看</Typography.Link>
          {r.status === CONTRACT_STATUS.draft && r.seal_approval !== 1 && (
            <Typography.Link onClick={() => setSendId(r.id)}>发起签署</Typography.Link>
          )}
          {r.status === CONTRACT_STATUS.signed && <Typography.Link onClick={() => confirmArchive(r)}>归档</Typography.Link>}
          <Typography.Link onClick={() => downloadContract(r)}>下载</Typography.Link>
          {r.status !== CONTRACT_STATUS.discarded && r.status !== CONTRACT_STATUS.archived && (
            <Typography.Link type="danger" onClick={() => setDiscarding(r)}>
              作废
            </Typography.Link>
          )}
        </Space>
      ),
    },
  ];

  const tabLabel = (name: string, count: number | undefined) => (
    <Space size={6}>
      {name}
      <Badge count={count ?? 0} showZero overflowCount={99999} color={count ? '#1677ff' : '#d9d9d9'} />
    </Space>
  );

  return (
    <Card title="合同列表">
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k);
          setSelected([]);
          paging.resetPage();
        }}
        items={[
          { key: '', label: tabLabel('全部', info.data?.total) },
          ...(info.data?.list ?? []).map((s) => ({ key: String(s.status), label: tabLabel(s.name, s.count) })),
        ]}
      />
      <Form form={form} name="contractSearch" layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
        <Form.Item name="number">
          <Input placeholder="合同编号" aria-label="合同编号" allowClear maxLength={50} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="customer_name">
          <Input placeholder="客户名称" aria-label="客户名称" allowClear maxLength={50} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="owner_id">
          <StaffSearchSelect placeholder="负责人" aria-label="负责人" allowClear style={{ width: 130 }} />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker placeholder={['创建开始日期', '创建结束日期']} style={{ width: 250 }} />
        </Form.Item>
        <SearchActions
          onReset={() => {
            form.resetFields();
            search({});
          }}
        >
          <Button
            icon={<DownloadOutlined />}
            disabled={isLocked && !startZip.isPending}
            loading={startZip.isPending}
            onClick={batchDownload}
          >
            批量下载{selected.length > 0 ? `（${selected.length}）` : ''}
          </Button>
        </SearchActions>
      </Form>
      <Table<ContractRow>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        locale={{ emptyText: '暂无合同，可在已通过审批的订单详情中点击“生成合同”' }}
        pagination={paging.pagination(list.data?.count ?? 0)}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys as number[]),
        }}
      />
      <ContractDetailDrawer id={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
      <SignLinkDialog contractId={sendId} mode="send" onClose={() => setSendId(null)} />
      <DiscardDialog contract={discarding} onClose={() => setDiscarding(null)} />
      <ExportProgressModal jobId={jobId} title="批量下载合同" onClose={() => setJobId(null)} />
    </Card>
  );
};
