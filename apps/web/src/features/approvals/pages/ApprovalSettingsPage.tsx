import { PlusOutlined } from '@ant-design/icons';
import { type ApprovalTemplate, NODE_TYPE } from '@crm/contracts';
import { Button, Card, Space, Table, type TableColumnsType, Tag } from 'antd';
import { receiptFlowSettingSlot, SlotOutlet } from '../../../components/slots';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useDeleteTemplate, useTemplateList } from '../api';
import { TemplateEditorModal } from '../components/TemplateEditorModal';

const flowText = (t: ApprovalTemplate) =>
  t.nodes
    .map((n) => {
      const who = n.free ? '发起人自选' : n.staffS.map((s) => s.name).join('、');
      return `${n.type === NODE_TYPE.approver ? '审批' : '抄送'}：${who}`;
    })
    .join(' → ');

/** 审批设置: the company's approval templates; editing one saves a new version. */
export const ApprovalSettingsPage = () => {
  const list = useTemplateList(1);
  const remove = useDeleteTemplate();
  const confirmDelete = useConfirmDelete();
  const editor = useModalTarget<ApprovalTemplate | null>();
  const columns: TableColumnsType<ApprovalTemplate> = [
    { title: '流程名称', dataIndex: 'name', width: 160, ellipsis: true },
    {
      title: '用于',
      dataIndex: 'isOrder',
      width: 90,
      render: (v: number) =>
        v === 1 ? (
          <Tag color="blue">订单</Tag>
        ) : v === 2 ? (
          <Tag color="gold">回款</Tag>
        ) : v === 3 ? (
          <Tag color="red">用印</Tag>
        ) : (
          '-'
        ),
    },
    {
      title: '审批流程',
      key: 'flow',
      ellipsis: true,
      render: (_, t) => <span title={flowText(t)}>{flowText(t)}</span>,
    },
    { title: '控件数', key: 'controls', width: 80, render: (_, t) => t.templateControls.filter((c) => c.dmType !== 17).length },
    { title: '版本', dataIndex: 'version', width: 70, render: (v: number) => `v${v}` },
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 80,
      render: (v: number) => <Tag color={v === 0 ? 'green' : 'default'}>{v === 0 ? '启用' : '停用'}</Tag>,
    },
    { title: '更新时间', dataIndex: 'updated_at', width: 165 },
    {
      title: '操作',
      key: 'actions',
      width: 120,
      fixed: 'right',
      render: (_, t) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => editor.open(t)}>
            编辑
          </Button>
          <Button
            type="link"
            size="small"
            danger
            onClick={() =>
              confirmDelete(() => remove.mutateAsync(t.coMatid), `确定要删除审批流程「${t.name}」吗？已发起的审批不受影响。`)
            }
          >
            删除
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <Card
      title="审批设置"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => editor.open(null)}>
          新建审批流程
        </Button>
      }
    >
      <Table<ApprovalTemplate>
        rowKey="coMatid"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: '暂无审批流程' }}
        scroll={{ x: 980 }}
      />
      <TemplateEditorModal key={editor.openKey} open={editor.isOpen} template={editor.target} onClose={editor.close} />
      <SlotOutlet slot={receiptFlowSettingSlot} templates={(list.data?.list ?? []).filter((t) => t.isOrder === 2)} />
    </Card>
  );
};
