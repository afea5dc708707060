import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { DM_TYPE, DM_TYPE_LABEL, ERRORS, type TemplateControl } from '@crm/contracts';
import { App, Button, Space, Switch, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { ApiError } from '../../../../api/http';
import { useConfirmDelete } from '../../../../components/useConfirmDelete';
import { useDeleteControl, useEditControl, useSortControls } from '../../templates-api';
import { bodyOf, movedOrder, siblingsOf, sortedByIds } from './control-tree';

type Props = {
  controls: TemplateControl[];
  isLoading: boolean;
  onEdit: (control: TemplateControl) => void;
  onAddChild: (group: TemplateControl) => void;
};

/** Table rows: antd shows an expand icon for any `children`, so leaves get none. */
type Row = Omit<TemplateControl, 'children'> & { children?: Row[] };
const toRows = (controls: TemplateControl[]): Row[] =>
  controls.map((c) => ({ ...c, children: c.children?.length ? toRows(c.children) : undefined }));

const FLAGS: { key: 'dmMust' | 'isJudge' | 'isFollowShow' | 'isSearch'; label: string; color: string }[] = [
  { key: 'dmMust', label: '必填', color: 'red' },
  { key: 'isJudge', label: '查重', color: 'orange' },
  { key: 'isFollowShow', label: '跟进显示', color: 'blue' },
  { key: 'isSearch', label: '可筛选', color: 'green' },
];

/** The template's controls in order, with their flags, state, order and actions. */
export const ControlTable = ({ controls, isLoading, onEdit, onAddChild }: Props) => {
  const { message, modal } = App.useApp();
  const edit = useEditControl();
  const remove = useDeleteControl();
  const sort = useSortControls();
  const confirmDelete = useConfirmDelete();
  // The new order shows at once; the server's answer replaces it.
  const [pendingOrder, setPendingOrder] = useState<number[] | null>(null);
  const shown = useMemo(() => (pendingOrder ? sortedByIds(controls, pendingOrder) : controls), [controls, pendingOrder]);
  const rows = useMemo(() => toRows(shown), [shown]);
  const [collapsed, setCollapsed] = useState<number[]>([]);
  const expandedKeys = shown.filter((c) => c.children?.length && !collapsed.includes(c.cbTacid)).map((c) => c.cbTacid);

  const byId = useMemo(
    () => new Map(controls.flatMap((c) => [c, ...(c.children ?? [])]).map((c) => [c.cbTacid, c] as const)),
    [controls],
  );

  const setState = async (c: TemplateControl, isEnabled: boolean) => {
    try {
      await edit.mutateAsync({ ...bodyOf(c), actionState: isEnabled ? 0 : 1 });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('保存成功');
  };

  const move = async (c: TemplateControl, step: -1 | 1) => {
    const ids = movedOrder(shown, c, step);
    if (!ids) return;
    setPendingOrder(ids);
    try {
      await sort.mutateAsync(ids);
      message.success('保存成功');
    } catch {
      // the http client has shown the server's message; the saved order comes back
    } finally {
      setPendingOrder(null);
    }
  };

  /** A control that customers already hold values of cannot go: offer to disable it instead. */
  const suggestDisable = (c: TemplateControl) =>
    modal.confirm({
      title: '无法删除',
      content: `「${c.name}」已有客户数据，不能删除。可以改为禁用：新增、编辑客户时不再显示该控件，已有的数据会保留。`,
      okText: '改为禁用',
      cancelText: '取消',
      onOk: () => setState(c, false),
    });

  const askDelete = (c: TemplateControl) =>
    confirmDelete(async () => {
      try {
        await remove.mutateAsync(c.cbTacid);
      } catch (err) {
        const isUsed =
          err instanceof ApiError &&
          err.code === ERRORS.TEMPLATE_CONTROL_USED.code &&
          err.message === ERRORS.TEMPLATE_CONTROL_USED.msg;
        if (isUsed && c.actionState === 0) suggestDisable(c);
        throw err;
      }
    }, `确定要删除控件「${c.name}」吗？`);

  const columns: TableColumnsType<Row> = [
    {
      title: '控件名称',
      dataIndex: 'name',
      // Indent, expand icon, name and kind stay on one line; the column grows instead.
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (name: string, r) => (
        <>
          <Typography.Text strong={r.dmType === DM_TYPE.group} type={r.actionState === 1 ? 'secondary' : undefined}>
            {name}
          </Typography.Text>
          <Tag variant="filled" style={{ marginInlineStart: 8, marginInlineEnd: 0 }}>
            {DM_TYPE_LABEL[r.dmType] ?? r.dmType}
          </Tag>
        </>
      ),
    },
    {
      title: '属性',
      key: 'flags',
      render: (_, r) => {
        const on = FLAGS.filter((f) => r[f.key] === 1);
        return on.length ? (
          <Space size={[4, 4]} wrap>
            {on.map((f) => (
              <Tag key={f.key} color={f.color} style={{ marginInlineEnd: 0 }}>
                {f.label}
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        );
      },
    },
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 96,
      render: (v: number, r) => {
        const parent = r.pid ? byId.get(r.pid) : undefined;
        return (
          <Tooltip title={parent?.actionState === 1 ? '所属分组已禁用，该控件不会显示' : undefined}>
            <Space size={6} style={{ whiteSpace: 'nowrap' }}>
              <Switch
                size="small"
                aria-label={`${r.name}可用`}
                checked={v === 0}
                loading={edit.isPending && edit.variables?.cbTacid === r.cbTacid}
                onChange={(isEnabled) => {
                  const c = byId.get(r.cbTacid);
                  if (c) void setState(c, isEnabled);
                }}
              />
              <Typography.Text type={v === 0 ? undefined : 'secondary'}>{v === 0 ? '可用' : '禁用'}</Typography.Text>
            </Space>
          </Tooltip>
        );
      },
    },
    {
      title: '排序',
      key: 'order',
      width: 84,
      render: (_, r) => {
        const c = byId.get(r.cbTacid);
        if (!c) return null;
        const siblings = siblingsOf(shown, c);
        const at = siblings.findIndex((s) => s.cbTacid === c.cbTacid);
        return (
          <Space size={4}>
            <Tooltip title="上移">
              <Button
                size="small"
                aria-label={`上移${c.name}`}
                icon={<ArrowUpOutlined />}
                disabled={at <= 0 || sort.isPending}
                onClick={() => move(c, -1)}
              />
            </Tooltip>
            <Tooltip title="下移">
              <Button
                size="small"
                aria-label={`下移${c.name}`}
                icon={<ArrowDownOutlined />}
                disabled={at < 0 || at >= siblings.length - 1 || sort.isPending}
                onClick={() => move(c, 1)}
              />
            </Tooltip>
          </Space>
        );
      },
    },
    {
      title: '操作',
      key: 'actions',
      width: 160,
      render: (_, r) => {
        const c = byId.get(r.cbTacid);
        if (!c) return null;
        return (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => onEdit(c)}>
              编辑
            </Button>
            {c.dmType === DM_TYPE.group && (
              <Button type="link" size="small" onClick={() => onAddChild(c)}>
                添加子控件
              </Button>
            )}
            <Button type="link" size="small" danger onClick={() => askDelete(c)}>
              删除
            </Button>
          </Space>
        );
      },
    },
  ];

  return (
    <Table<Row>
      rowKey="cbTacid"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={isLoading}
      pagination={false}
      expandable={{
        expandedRowKeys: expandedKeys,
        onExpand: (isExpanded, r) =>
          setCollapsed((list) => (isExpanded ? list.filter((id) => id !== r.cbTacid) : [...list, r.cbTacid])),
      }}
      locale={{ emptyText: '还没有控件，点击“添加控件”开始设计客户表单' }}
    />
  );
};
