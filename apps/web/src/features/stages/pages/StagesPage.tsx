import { PlusOutlined } from '@ant-design/icons';
import type { Stage } from '@crm/contracts';
import { App, Button, Card, Empty, Space, Switch, Table, type TableColumnsType, Typography } from 'antd';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useDeleteStage, useEditStage, useStages } from '../api';
import { StageFormModal, type StageFormTarget } from '../components/StageFormModal';

/** /set/node: the stages of the sales process, with add, edit, 可用/禁用 and delete. */
export const StagesPage = () => {
  const { message } = App.useApp();
  const { data, isLoading } = useStages();
  const edit = useEditStage();
  const remove = useDeleteStage();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<StageFormTarget>();
  const stages = data?.list ?? [];

  const toggleState = async (stage: Stage, isEnabled: boolean) => {
    const { cmNid, name, sortNum } = stage;
    try {
      await edit.mutateAsync({ cmNid, name, sortNum, actionState: isEnabled ? 0 : 1 });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('操作成功');
  };

  // A new stage goes last unless the user says otherwise.
  const addStage = () =>
    formModal.open({ mode: 'create', sortNum: Math.min(9999, stages.reduce((max, s) => Math.max(max, s.sortNum), 0) + 1) });

  const columns: TableColumnsType<Stage> = [
    { title: '阶段名称', dataIndex: 'name' },
    { title: '排序', dataIndex: 'sortNum', width: 100 },
    { title: '客户数', dataIndex: 'customerNum', width: 100 },
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 110,
      render: (v: number, stage) => (
        <Switch
          aria-label={`${stage.name}状态`}
          checked={v === 0}
          checkedChildren="可用"
          unCheckedChildren="禁用"
          loading={edit.isPending && edit.variables?.cmNid === stage.cmNid}
          onChange={(isEnabled) => toggleState(stage, isEnabled)}
        />
      ),
    },
    { title: '创建时间', dataIndex: 'createTime', width: 190 },
    {
      title: '操作',
      key: 'actions',
      width: 140,
      render: (_, stage) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => formModal.open({ mode: 'edit', stage })}>
            编辑
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync(stage.cmNid))}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title="阶段设置"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={addStage}>
          添加阶段
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        阶段按排序从小到大排列，用于写跟进时标记客户所处的销售阶段。禁用的阶段不再出现在选项中；已有客户的阶段不能删除，可改为禁用。
      </Typography.Paragraph>
      <Table<Stage>
        rowKey="cmNid"
        columns={columns}
        dataSource={stages}
        loading={isLoading}
        pagination={false}
        locale={{
          emptyText: isLoading ? (
            ' '
          ) : (
            <Empty description="还没有阶段。按销售流程添加阶段（如「初步接触」「方案报价」「成交」），写跟进时即可标记客户所处阶段">
              <Button type="primary" icon={<PlusOutlined />} onClick={addStage}>
                添加阶段
              </Button>
            </Empty>
          ),
        }}
      />
      <StageFormModal key={formModal.openKey} isOpen={formModal.isOpen} target={formModal.target} onClose={formModal.close} />
    </Card>
  );
};
