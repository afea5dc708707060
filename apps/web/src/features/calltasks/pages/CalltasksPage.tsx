import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { CALLTASK_STATUS, CALLTASK_STATUS_LABEL, type CalltaskRow } from '@crm/contracts';
import {
  App,
  Button,
  Card,
  Empty,
  Input,
  Popconfirm,
  Progress,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tooltip,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTablePaging } from '../../../components/useTablePaging';
import { type TaskMove, useCalltaskList, useDeleteCalltask, useMoveCalltask } from '../api';
import { TaskDetailDrawer } from '../components/TaskDetailDrawer';
import { TaskFormModal } from '../components/TaskFormModal';
import { TaskStatusTag } from '../components/TaskStatusTag';
import { formatBillsec, progressPercent } from '../components/taskForm';
import { useTaskProgress } from '../components/useTaskProgress';

const { draft, running, paused, stopped, completed } = CALLTASK_STATUS;

const MOVE_TEXT: Record<TaskMove, { label: string; title: string; content: string; done: string }> = {
  start: { label: '开始', title: '开始任务', content: '开始后，坐席开始工作即自动拨打任务号码。', done: '任务已开始' },
  pause: { label: '暂停', title: '暂停任务', content: '暂停后不再拨打新的号码，进行中的通话不受影响。', done: '任务已暂停' },
  resume: { label: '继续', title: '继续任务', content: '继续后，工作中的坐席将接着拨打剩余号码。', done: '任务已继续' },
  stop: { label: '停止', title: '停止任务', content: '停止后任务不能再开始，剩余号码不再拨打。确定停止？', done: '任务已停止' },
};

/** The moves a task in each state offers. */
const MOVES_OF: Record<number, TaskMove[]> = {
  [draft]: ['start', 'stop'],
  [running]: ['pause', 'stop'],
  [paused]: ['resume', 'stop'],
  [stopped]: [],
  [completed]: [],
};

const STATUS_OPTIONS = Object.entries(CALLTASK_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

/** /calltask/tasklist 坐席任务 (issue 15): the managers' list of seat tasks, live over the socket. */
export const CalltasksPage = () => {
  const { message, modal } = App.useApp();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const paging = useTablePaging(20);
  const query = useMemo(
    () => ({ name: name || undefined, status, page: paging.page, limit: paging.limit }),
    [name, status, paging.page, paging.limit],
  );
  const list = useCalltaskList(query);
  const move = useMoveCalltask();
  const remove = useDeleteCalltask();
  const [detailId, setDetailId] = useState<number | null>(null);
  const [form, setForm] = useState<{ row: CalltaskRow | null } | null>(null);
  useTaskProgress();

  const confirmMove = (row: CalltaskRow, m: TaskMove) => {
    const t = MOVE_TEXT[m];
    modal.confirm({
      title: `${t.title}「${row.name}」`,
      content: t.content,
      okText: t.label,
      cancelText: '取消',
      okButtonProps: { danger: m === 'stop' },
      onOk: async () => {
        try {
          await move.mutateAsync({ cmStid: row.cmStid, move: m });
        } catch {
          return;
        }
        message.success(t.done);
      },
    });
  };

  const onDelete = async (row: CalltaskRow) => {
    try {
      await remove.mutateAsync({ cmStid: row.cmStid, confirm: 1 });
    } catch {
      return;
    }
    message.success('删除成功');
  };

  const columns: TableColumnsType<CalltaskRow> = [
    {
      title: '任务名称',
      dataIndex: 'name',
      fixed: 'left',
      width: 150,
      ellipsis: true,
      render: (v: string, r) => <Typography.Link onClick={() => setDetailId(r.cmStid)}>{v}</Typography.Link>,
    },
    { title: '状态', dataIndex: 'status', width: 84, render: (v: number) => <TaskStatusTag status={v} /> },
    {
      title: '进度',
      key: 'progress',
      width: 140,
      render: (_, r) => (
        <Progress percent={progressPercent(r)} size="small" status={r.status === running ? 'active' : 'normal'} />
      ),
    },
    {
      title: '坐席',
      dataIndex: 'cmSidInfo',
      width: 140,
      ellipsis: { showTitle: false },
      render: (v: CalltaskRow['cmSidInfo']) => {
        const text = v.map((a) => a.name).join('、');
        return (
          <Tooltip title={text} placement="topLeft">
            {text || '-'}
          </Tooltip>
        );
      },
    },
    { title: '总数', dataIndex: 'totalNum', width: 64, align: 'right' },
    { title: '已呼', dataIndex: 'zcallNum', width: 64, align: 'right' },
    { title: '接通', dataIndex: 'zcallCnum', width: 64, align: 'right' },
    { title: '未接通', dataIndex: 'zcallWnum', width: 72, align: 'right' },
    {
      title: <Tooltip title="导入时或拨打时命中黑名单、禁拨名单而跳过的号码">黑名单</Tooltip>,
      dataIndex: 'zcallBnum',
      width: 72,
      align: 'right',
    },
    { title: '通话时长', dataIndex: 'zcallBillsec', width: 100, render: (v: number) => formatBillsec(v) },
    { title: '创建时间', dataIndex: 'createTime', width: 164 },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 210,
      render: (_, r) => (
        <Space size={0} wrap={false}>
          <Button type="link" size="small" onClick={() => setDetailId(r.cmStid)}>
            详情
          </Button>
          {MOVES_OF[r.status]?.map((m) => (
            <Button key={m} type="link" size="small" danger={m === 'stop'} onClick={() => confirmMove(r, m)}>
              {MOVE_TEXT[m].label}
            </Button>
          ))}
          {(r.status === draft || r.status === paused) && (
            <Button type="link" size="small" onClick={() => setForm({ row: r })}>
              编辑
            </Button>
          )}
          {r.status !== running && (
            <Popconfirm
              title="删除任务"
              description="删除后任务和统计不再显示，确定删除？"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => onDelete(r)}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title="坐席任务">
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          placeholder="搜索任务名称"
          aria-label="搜索任务名称"
          allowClear
          maxLength={30}
          style={{ width: 220 }}
          onSearch={(v) => {
            setName(v.trim());
            paging.resetPage();
          }}
        />
        <Select
          allowClear
          placeholder="全部状态"
          aria-label="任务状态"
          style={{ width: 140 }}
          options={STATUS_OPTIONS}
          value={status}
          onChange={(v) => {
            setStatus(v);
            paging.resetPage();
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => list.refetch()}>
          刷新
        </Button>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ row: null })}>
          新建任务
        </Button>
      </Space>
      <Table<CalltaskRow>
        rowKey="cmStid"
        size="middle"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isLoading}
        scroll={{ x: 1400 }}
        pagination={paging.pagination(list.data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无坐席任务，点击「新建任务」创建" /> }}
      />
      <TaskDetailDrawer id={detailId} onClose={() => setDetailId(null)} />
      {form && <TaskFormModal isOpen row={form.row} onClose={() => setForm(null)} />}
    </Card>
  );
};
