import { PlusOutlined } from '@ant-design/icons';
import type { AireceptionSetting } from '@crm/contracts';
import { Badge, Button, Card, Empty, Space, Table, type TableColumnsType, Tabs, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { AiCallsTable } from '../../aicall/components/AiCallsTable';
import { SpeechAlert } from '../../aicall/components/SpeechAlert';
import { useStaffOptions } from '../../staff/api';
import { useDeleteReception, useReceptionSettings } from '../api';
import { ReceptionFormModal } from '../components/ReceptionFormModal';
import { SimCallModal } from '../components/SimCallModal';

/** 接待设置: the numbers the bot answers, with add / edit / delete (confirmed). */
const ReceptionSettings = () => {
  const settings = useReceptionSettings();
  const staff = useStaffOptions('');
  const remove = useDeleteReception();
  const confirmDelete = useConfirmDelete();
  const [form, setForm] = useState<{ row: AireceptionSetting | null } | null>(null);
  const [simTarget, setSimTarget] = useState<AireceptionSetting | null>(null);
  const names = useMemo(() => new Map((staff.data ?? []).map((s) => [s.staff_id, s.linkman])), [staff.data]);

  const columns: TableColumnsType<AireceptionSetting> = [
    { title: '接待号码', dataIndex: 'number', width: 150 },
    { title: '话术', dataIndex: 'flowName', width: 180, ellipsis: true },
    { title: '接待时间', key: 'hours', width: 130, render: (_, r) => `${r.from}–${r.to}` },
    {
      title: '转人工坐席',
      dataIndex: 'cmSidInfo',
      ellipsis: { showTitle: false },
      render: (ids: number[]) => {
        const text = ids.map((id) => names.get(id) ?? `#${id}`).join('、');
        return (
          <Tooltip title={text} placement="topLeft">
            {text || '不转人工'}
          </Tooltip>
        );
      },
    },
    {
      title: '状态',
      dataIndex: 'isEnabled',
      width: 90,
      render: (v: number) => (v ? <Badge status="success" text="启用" /> : <Badge status="default" text="停用" />),
    },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setForm({ row: r })}>
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => setSimTarget(r)}>
            模拟来电
          </Button>
          <Button
            type="link"
            size="small"
            danger
            onClick={() => confirmDelete(() => remove.mutateAsync({ id: r.id }), `确定删除接待号码 ${r.number} 吗？`)}
          >
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 12 }} onClick={() => setForm({ row: null })}>
        新增接待号码
      </Button>
      <Table<AireceptionSetting>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={settings.data?.list}
        loading={settings.isLoading}
        pagination={false}
        locale={{ emptyText: <Empty description="暂无接待号码，点击「新增接待号码」把号码交给话术接待" /> }}
      />
      {form && <ReceptionFormModal row={form.row} onClose={() => setForm(null)} />}
      <SimCallModal setting={simTarget} onClose={() => setSimTarget(null)} />
    </>
  );
};

/** /aireception/Index AI接待 (issue 16, menu 400): the reception records and the numbers the bot answers. */
export const AireceptionPage = () => (
  <Card title="AI接待">
    <SpeechAlert />
    <Tabs
      items={[
        { key: 'records', label: '接待记录', children: <AiCallsTable source={2} isLive /> },
        { key: 'settings', label: '接待设置', children: <ReceptionSettings /> },
      ]}
    />
  </Card>
);
