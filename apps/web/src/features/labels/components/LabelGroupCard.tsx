import { PlusOutlined } from '@ant-design/icons';
import type { Label, LabelGroup } from '@crm/contracts';
import { Button, Card, Empty, Space, Switch, Table, type TableColumnsType, Typography } from 'antd';

type Props = {
  group: LabelGroup;
  /** the label whose 可用/禁用 change is on its way */
  togglingId?: number;
  onAddTag: (group: LabelGroup) => void;
  onEdit: (label: Label) => void;
  onDelete: (label: Label) => void;
  onToggle: (label: Label, isEnabled: boolean) => void;
};

/** One tag group: its own name, order, state and actions in the header, its tags in a table. */
export const LabelGroupCard = ({ group, togglingId, onAddTag, onEdit, onDelete, onToggle }: Props) => {
  const stateSwitch = (label: Label) => (
    <Switch
      aria-label={`${label.name}状态`}
      checked={label.actionState === 0}
      checkedChildren="可用"
      unCheckedChildren="禁用"
      loading={togglingId === label.cmClid}
      onChange={(isEnabled) => onToggle(label, isEnabled)}
    />
  );
  const isGroupDisabled = group.actionState !== 0;

  const columns: TableColumnsType<Label> = [
    { title: '标签名称', dataIndex: 'name' },
    { title: '排序', dataIndex: 'sortNum', width: 100 },
    { title: '客户数', dataIndex: 'customerNum', width: 100 },
    { title: '状态', dataIndex: 'actionState', width: 110, render: (_, label) => stateSwitch(label) },
    { title: '创建时间', dataIndex: 'createTime', width: 190 },
    {
      title: '操作',
      key: 'actions',
      width: 140,
      render: (_, label) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => onEdit(label)}>
            编辑
          </Button>
          <Button type="link" size="small" danger onClick={() => onDelete(label)}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      type="inner"
      role="region"
      aria-label={`标签分组 ${group.name}`}
      title={
        <Space size={12} wrap>
          <span>{group.name}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>
            排序 {group.sortNum} · {group.children.length} 个标签
            {isGroupDisabled && '（分组已禁用，组内标签暂不可选）'}
          </Typography.Text>
        </Space>
      }
      extra={
        <Space size={4}>
          {stateSwitch(group)}
          <Button type="link" size="small" icon={<PlusOutlined />} onClick={() => onAddTag(group)}>
            添加标签
          </Button>
          <Button type="link" size="small" onClick={() => onEdit(group)}>
            编辑分组
          </Button>
          <Button type="link" size="small" danger onClick={() => onDelete(group)}>
            删除分组
          </Button>
        </Space>
      }
    >
      <Table<Label>
        rowKey="cmClid"
        size="small"
        columns={columns}
        dataSource={group.children}
        pagination={false}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该分组下还没有标签，点击右上角「添加标签」添加" />,
        }}
      />
    </Card>
  );
};
