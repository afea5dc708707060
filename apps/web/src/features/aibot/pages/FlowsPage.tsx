import { PlusOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { FlowRow } from '@crm/contracts';
import { Button, Card, Empty, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ListSearch } from '../../../components/ListSearch';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useTablePaging } from '../../../components/useTablePaging';
import { useDeleteFlow, useFlowList } from '../api';
import { FlowNameModal } from '../components/FlowNameModal';
import { FlowStatusTag } from '../components/FlowStatusTag';
import { LlmSettingsModal } from '../components/LlmSettingsModal';

/** /aicall/flow 话术管理 (issue 16): the bot's scripts, opened in the designer. */
export const FlowsPage = () => {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const paging = useTablePaging(20);
  const query = useMemo(
    () => ({ name: name || undefined, page: paging.page, limit: paging.limit }),
    [name, paging.page, paging.limit],
  );
  const list = useFlowList(query);
  const remove = useDeleteFlow();
  const confirmDelete = useConfirmDelete();
  const nameModal = useModalTarget<{ copyOf: FlowRow | null }>();
  const [isSettingsOpen, setSettingsOpen] = useState(false);

  const columns: TableColumnsType<FlowRow> = [
    {
      title: '话术名称',
      dataIndex: 'name',
      ellipsis: true,
      render: (v: string, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Link onClick={() => navigate(`/aicall/flow/${r.id}`)}>{v}</Typography.Link>
          {r.remark && (
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 320 }}>
              {r.remark}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: '状态', dataIndex: 'status', width: 120, render: (v: number) => <FlowStatusTag status={v} /> },
    { title: '版本', dataIndex: 'version', width: 80, render: (v: number) => (v > 0 ? `v${v}` : '-') },
    { title: '节点数', dataIndex: 'nodes', width: 80, align: 'right' },
    { title: '创建人', dataIndex: 'creator', width: 110, ellipsis: true },
    { title: '更新时间', dataIndex: 'updated_at', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 170,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(`/aicall/flow/${r.id}`)}>
            设计
          </Button>
          <Button type="link" size="small" onClick={() => nameModal.open({ copyOf: r })}>
            复制
          </Button>
          <Button
            type="link"
            size="small"
            danger
            onClick={() =>
              confirmDelete(
                () => remove.mutateAsync({ id: r.id }),
                `确定要删除话术「${r.name}」吗？使用它的AI外呼任务将不能再开始。`,
              )
            }
          >
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card title="话术管理">
      <Space style={{ marginBottom: 16 }} wrap>
        <ListSearch
          placeholder="搜索话术名称"
          maxLength={30}
          width={220}
          onSearch={(v) => {
            setName(v);
            paging.resetPage();
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => list.refetch()}>
          刷新
        </Button>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => nameModal.open({ copyOf: null })}>
          新建话术
        </Button>
        <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)}>
          大模型设置
        </Button>
      </Space>
      <Table<FlowRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isLoading}
        pagination={paging.pagination(list.data?.count ?? 0)}
        locale={{
          emptyText: <Empty description={name ? '没有找到匹配的话术' : '暂无话术，点击「新建话术」开始设计机器人的对话流程'} />,
        }}
      />
      <FlowNameModal
        key={nameModal.openKey}
        open={nameModal.isOpen}
        copyOf={nameModal.target?.copyOf ?? null}
        onClose={nameModal.close}
        onCreated={(id) => navigate(`/aicall/flow/${id}`)}
      />
      <LlmSettingsModal open={isSettingsOpen} onClose={() => setSettingsOpen(false)} />
    </Card>
  );
};
