import { PlusOutlined } from '@ant-design/icons';
import type { WorkType } from '@crm/contracts';
import { App, Button, Card, Empty, Popconfirm, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useModalTarget } from '../../../components/useModalTarget';
import { useDeleteWorkType, useWorkTypes } from '../api';
import { StageChain } from '../components/StageChain';
import { WorkTypeFormModal } from '../components/WorkTypeFormModal';

/** /set/workorder 工单设置: the work-order types with their stages, default handler and SLA. */
export const WorkTypesPage = () => {
  const { message } = App.useApp();
  const types = useWorkTypes();
  const remove = useDeleteWorkType();
  const formModal = useModalTarget<WorkType | null>();
  const list = types.data ?? [];

  const onDelete = async (t: WorkType) => {
    try {
      await remove.mutateAsync({ id: t.id });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('删除成功');
  };

  const columns: TableColumnsType<WorkType> = [
    { title: '类型名称', dataIndex: 'name', width: 160 },
    { title: '默认处理人', dataIndex: 'default_handler_name', width: 110 },
    { title: '处理时限', dataIndex: 'sla_hours', width: 100, render: (v: number) => `${v} 小时` },
    { title: '处理阶段', dataIndex: 'stages', render: (v: WorkType['stages']) => <StageChain stages={v} /> },
    { title: '工单数', dataIndex: 'used', width: 80 },
    {
      title: '操作',
      key: 'actions',
      width: 120,
      render: (_, t) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => formModal.open(t)}>
            编辑
          </Button>
          <Popconfirm
            title="删除提示"
            description={t.used > 0 ? `该类型下有 ${t.used} 个工单，确定要删除吗？` : '确定要删除吗？'}
            okText="确定"
            cancelText="取消"
            okButtonProps={{ danger: true, loading: remove.isPending }}
            onConfirm={() => onDelete(t)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open(null)}>
      新建类型
    </Button>
  );

  return (
    <Card title="工单设置" extra={addButton}>
      <Typography.Paragraph type="secondary">
        工单类型决定工单经过的处理阶段、默认处理人和处理时限。员工在客户详情的「工单」页新建工单，处理人按阶段推进，超过截止时间仍未完结的工单会标记为已超时并提醒处理人。
      </Typography.Paragraph>
      <Table<WorkType>
        rowKey="id"
        columns={columns}
        dataSource={list}
        loading={types.isLoading}
        pagination={false}
        locale={{
          emptyText: types.isLoading ? (
            ' '
          ) : (
            <Empty description="还没有工单类型。新建一个类型（如「售后维修」：待受理 → 处理中 → 已完成），员工即可在客户详情中新建工单">
              {addButton}
            </Empty>
          ),
        }}
      />
      <WorkTypeFormModal
        key={formModal.openKey}
        isOpen={formModal.isOpen}
        type={formModal.target ?? null}
        onClose={formModal.close}
      />
    </Card>
  );
};
