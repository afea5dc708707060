import { PlusOutlined } from '@ant-design/icons';
import {
  ACTION_STATE_LABEL,
  CALL_STATUS_LABEL,
  PHONE_STATE_LABEL,
  REGISTER_STATUS_LABEL,
  SIP_DM_TYPE_LABEL,
  type SipAdminInfo,
  type SipListQuery,
} from '@crm/contracts';
import { App, Badge, Button, Card, Dropdown, Empty, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { SearchBar } from '../../../components/SearchBar/SearchBar';
import type { SearchField, SearchOption, SearchValues } from '../../../components/SearchBar/types';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useTablePaging } from '../../../components/useTablePaging';
import { fetchStaffOptions } from '../../customers/api';
import { useDeleteSip, useResetDeviceSecret, useSipList } from '../api';
import { BindStaffModal, SimIncomingModal } from '../components/SipActionModals';
import { SipFormModal, type SipFormTarget } from '../components/SipFormModal';

const staffOptions = async (keyword: string): Promise<SearchOption[]> =>
  (await fetchStaffOptions(keyword)).map((s) => ({ value: s.staff_id, label: s.linkman }));

const REGISTER_BADGE: Record<number, 'default' | 'success' | 'warning' | 'processing' | 'error'> = {
  0: 'default',
  1: 'success',
  2: 'warning',
  3: 'processing',
  4: 'error',
};

const FIELDS: SearchField[] = [
  { kind: 'text', name: 'user', label: '分机号' },
  {
    kind: 'select',
    name: 'actionState',
    label: '状态',
    options: Object.entries(ACTION_STATE_LABEL).map(([value, label]) => ({ value: Number(value), label })),
  },
  { kind: 'remoteSelect', name: 'cmSid', label: '绑定员工', fetchOptions: staffOptions },
];

/** /call/sip: the company's extensions with their live state; add, edit, bind staff, simulate a call. */
export const SipPage = () => {
  const { modal, message } = App.useApp();
  const [filters, setFilters] = useState<Partial<SipListQuery>>({});
  const paging = useTablePaging(20);
  const query = useMemo(() => ({ ...filters, page: paging.page, limit: paging.limit }), [filters, paging.page, paging.limit]);
  const { data, isFetching } = useSipList(query);
  const remove = useDeleteSip();
  const resetSecret = useResetDeviceSecret();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<SipFormTarget>();
  const [bindTarget, setBindTarget] = useState<SipAdminInfo | null>(null);
  const [simTarget, setSimTarget] = useState<SipAdminInfo | null>(null);

  const onSearch = (v: SearchValues) => {
    setFilters({
      user: v.user as string | undefined,
      actionState: v.actionState as number | undefined,
      cmSid: v.cmSid as number | undefined,
    });
    paging.resetPage();
  };

  const showSecret = (sip: SipAdminInfo, secret: string) =>
    modal.info({
      title: `分机 ${sip.user} 的设备密钥`,
      content: (
        <>
          <Typography.Paragraph copyable={{ text: secret }} code style={{ marginTop: 8 }}>
            {secret}
          </Typography.Paragraph>
          <Typography.Text type="secondary">在手机外呼助手中填写 IMEI 与此密钥即可连接；重置后旧密钥立即失效。</Typography.Text>
        </>
      ),
      okText: '知道了',
    });

  const confirmResetSecret = (sip: SipAdminInfo) =>
    modal.confirm({
      title: '重置设备密钥',
      content: '重置后手机需使用新密钥重新连接，确定重置吗？',
      okText: '重置',
      cancelText: '取消',
      onOk: async () => {
        try {
          const r = await resetSecret.mutateAsync({ cmSipid: sip.cmSipid });
          message.success('操作成功');
          showSecret(sip, r.deviceSecret);
        } catch {
          // the http client has shown the message
        }
      },
    });

  const columns: TableColumnsType<SipAdminInfo> = [
    {
      title: '分机号',
      dataIndex: 'user',
      width: 100,
      fixed: 'left',
      render: (v: string, s) => (
        <Space size={4}>
          {v}
          {s.isDefault === 1 && <Tag color="blue">默认</Tag>}
        </Space>
      ),
    },
    { title: '外呼方式', dataIndex: 'dmType', width: 100, render: (v: number) => SIP_DM_TYPE_LABEL[v] ?? '-' },
    {
      title: '绑定员工',
      dataIndex: 'cmSidName',
      width: 110,
      render: (v: string) => v || <Typography.Text type="secondary">未绑定</Typography.Text>,
    },
    { title: '绑定号码', dataIndex: 'phone', width: 130, render: (v: string) => v || '-' },
    {
      title: '绑定设备',
      dataIndex: 'imei',
      width: 190,
      render: (v: string, s) =>
        v ? <Badge status={s.deviceOnline ? 'success' : 'default'} text={`${v}${s.deviceOnline ? '（在线）' : ''}`} /> : '-',
    },
    {
      title: '注册状态',
      dataIndex: 'registerStatus',
      width: 100,
      render: (v: number) => <Badge status={REGISTER_BADGE[v] ?? 'default'} text={REGISTER_STATUS_LABEL[v] ?? '-'} />,
    },
    { title: '电话状态', dataIndex: 'phoneState', width: 100, render: (v: number) => PHONE_STATE_LABEL[v] ?? '-' },
    {
      title: '通话状态',
      dataIndex: 'callStatus',
      width: 90,
      render: (v: number) =>
        v >= 2 ? <Tag color={v === 3 ? 'green' : 'processing'}>{CALL_STATUS_LABEL[v]}</Tag> : (CALL_STATUS_LABEL[v] ?? '未通话'),
    },
    { title: '最后通话', dataIndex: 'lastCallTime', width: 170, render: (v: string) => v || '-' },
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 72,
      render: (v: number) => <Tag color={v === 0 ? 'green' : 'default'}>{ACTION_STATE_LABEL[v]}</Tag>,
    },
    { title: '创建时间', dataIndex: 'createTime', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 220,
      fixed: 'right',
      render: (_, sip) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => formModal.open({ mode: 'edit', sip })}>
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => setBindTarget(sip)}>
            绑定员工
          </Button>
          <Dropdown
            menu={{
              items: [
                { key: 'sim', label: '模拟来电', disabled: !sip.cmSid },
                { key: 'secret', label: sip.deviceSecret ? '查看设备密钥' : '生成设备密钥', disabled: !sip.imei },
                { key: 'reset', label: '重置设备密钥', disabled: !sip.imei || !sip.deviceSecret },
                { type: 'divider' },
                { key: 'del', label: '删除', danger: true },
              ],
              onClick: ({ key }) => {
                if (key === 'sim') setSimTarget(sip);
                else if (key === 'secret') sip.deviceSecret ? showSecret(sip, sip.deviceSecret) : confirmResetSecret(sip);
                else if (key === 'reset') confirmResetSecret(sip);
                else if (key === 'del') confirmDelete(() => remove.mutateAsync({ cmSipid: sip.cmSipid }));
              },
            }}
          >
            <Button type="link" size="small">
              更多
            </Button>
          </Dropdown>
        </Space>
      ),
    },
  ];

  return (
    <Card title="分机管理">
      <SearchBar
        name="sipSearch"
        fields={FIELDS}
        onSearch={onSearch}
        addButton={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open({ mode: 'create' })}>
            新增分机
          </Button>
        }
      />
      <Table<SipAdminInfo>
        style={{ marginTop: 16 }}
        rowKey="cmSipid"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: columns.reduce((sum, c) => sum + Number(c.width ?? 120), 0) }}
        pagination={paging.pagination(data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无分机，点击「新增分机」添加后绑定给员工" /> }}
      />
      <SipFormModal key={formModal.openKey} isOpen={formModal.isOpen} target={formModal.target} onClose={formModal.close} />
      <BindStaffModal sip={bindTarget} onClose={() => setBindTarget(null)} />
      <SimIncomingModal sip={simTarget} onClose={() => setSimTarget(null)} />
    </Card>
  );
};
