import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { type AicallRow, CALLTASK_STATUS, CALLTASK_STATUS_LABEL, GRADES } from '@crm/contracts';
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
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTablePaging } from '../../../components/useTablePaging';
import { TaskStatusTag } from '../../calltasks/components/TaskStatusTag';
import { progressPercent } from '../../calltasks/components/taskForm';
import { useTaskProgress } from '../../calltasks/components/useTaskProgress';
import { type AiTaskMove, aicallKeys, useAicallList, useDeleteAicall, useMoveAicall } from '../api';
import { AiTaskDrawer } from '../components/AiTaskDrawer';
import { AiTaskFormModal } from '../components/AiTaskFormModal';
import { GRADE_COLOR } from '../components/GradeTag';

const { draft, running, paused, stopped, completed } = CALLTASK_STATUS;

const MOVE_TEXT: Record<AiTaskMove, { label: string; title: string; content: string; done: string }> = {
  start: { label: '开始', title: '开始任务', content: '开始后，机器人在外呼时段内自动拨打任务号码。', done: '任务已开始' },
  pause: { label: '暂停', title: '暂停任务', content: '暂停后不再拨打新的号码，进行中的通话会说完。', done: '任务已暂停' },
  resume: { label: '继续', title: '继续任务', content: '继续后，机器人接着拨打剩余号码。', done: '任务已继续' },
  stop: { label: '停止', title: '停止任务', content: '停止后任务不能再开始，剩余号码不再拨打。确定停止？', done: '任务已停止' },
};

const MOVES_OF: Record<number, AiTaskMove[]> = {
  [draft]: ['start', 'stop'],
  [running]: ['pause', 'stop'],
  [paused]: ['resume', 'stop'],
  [stopped]: [],
  [completed]: [],
};

const STATUS_OPTIONS = Object.entries(CALLTASK_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

/** A–E counts as small tags (zeros left out). */
const GradeSplit = ({ grades }: { grades: AicallRow['grades'] }) => {
  const shown = GRADES.filter((g) => grades[g] > 0);
  if (shown.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={2} wrap={false}>
      {shown.map((g) => (
        <Tooltip key={g} title={`${g}级 ${grades[g]}个`}>
          <Tag color={GRADE_COLOR[g]} style={{ marginInlineEnd: 0, paddingInline: 4 }} data-testid={`grade-${g}`}>
            {g} {grades[g]}
          </Tag>
        </Tooltip>
      ))}
    </Space>
  );
};

const connectRate = (r: AicallRow) => (r.zcallNum ? `${((r.zcallCnum / r.zcallNum) * 100).toFixed(1)}%` : '-');

/** /aicall/Index AI外呼任务 (issue 16, menu 300): the voice bot's call tasks, live, with their reports. */
export const AicallPage = () => {
  const { message, modal } = App.useApp();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const paging = useTablePaging(20);
  const query = useMemo(
    () => ({ name: name || undefined, status, page: paging.page, limit: paging.limit }),
    [name, status, paging.page, paging.limit],
  );
  const list = useAicallList(query);
  const move = useMoveAicall();
  const remove = useDeleteAicall();
  const [detailId, setDetailId] = useState<number | null>(null);
  const [form, setForm] = useState<{ row: AicallRow | null } | null>(null);
  useTaskProgress(aicallKeys.manage);

  const confirmMove = (row: AicallRow, m: AiTaskMove) => {
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

  const onDelete = async (row: AicallRow) => {
    try {
      await remove.mutateAsync({ cmStid: row.cmStid, confirm: 1 });
    } catch {
      return;
    }
    message.success('删除成功');
  };

  const columns: TableColumnsType<AicallRow> = [
    {
      title: '任务名称',
      dataIndex: 'name',
      fixed: 'left',
      width: 140,
      ellipsis: true,
      render: (v: string, r) => <Typography.Link onClick={() => setDetailId(r.cmStid)}>{v}</Typography.Link>,
    },
    { title: '话术', dataIndex: 'flowName', width: 110, ellipsis: true },
    { title: '状态', dataIndex: 'status', width: 80, render: (v: number) => <TaskStatusTag status={v} /> },
    {
      title: '进度',
      key: 'progress',
      width: 112,
      render: (_, r) => (
        <Tooltip title={`已呼 ${r.zcallNum} / 共 ${r.totalNum}，待拨打 ${r.leftNum}`}>
          <Progress percent={progressPercent(r)} size="small" status={r.status === running ? 'active' : 'normal'} />
        </Tooltip>
      ),
    },
    {
      title: '线路',
      key: 'lines',
      width: 60,
      align: 'right',
      render: (_, r) => (
        <Tooltip title="通话中 / 并发上限">
          <span data-testid="lines">
            {r.linesInUse}/{r.maxLines}
          </span>
        </Tooltip>
      ),
    },
    { title: '意向等级', key: 'grades', width: 150, render: (_, r) => <GradeSplit grades={r.grades} /> },
    { title: '接通率', key: 'rate', width: 70, align: 'right', render: (_, r) => connectRate(r) },
    {
      title: '创建时间',
      dataIndex: 'createTime',
      width: 100,
      render: (v: string) => <Tooltip title={v}>{v.slice(5, 16)}</Tooltip>,
    },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 226,
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
    <Card title="AI外呼任务">
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
      <Table<AicallRow>
        rowKey="cmStid"
        size="middle"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isLoading}
        scroll={{ x: 1048 }}
        pagination={paging.pagination(list.data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无AI外呼任务，点击「新建任务」创建" /> }}
      />
      <AiTaskDrawer id={detailId} onClose={() => setDetailId(null)} />
      {form && <AiTaskFormModal row={form.row} onClose={() => setForm(null)} />}
    </Card>
  );
};
