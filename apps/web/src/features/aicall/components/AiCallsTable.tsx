import { MessageOutlined, SearchOutlined } from '@ant-design/icons';
import {
  AI_CALL_END,
  AI_CALL_END_LABEL,
  AI_CALL_FAILED,
  type AicallCallRow,
  type AicallCallsBody,
  GRADE_LABEL,
  GRADES,
} from '@crm/contracts';
import { Button, DatePicker, Empty, Input, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { JobExportButton } from '../../../components/JobExportButton';
import { useTablePaging } from '../../../components/useTablePaging';
import { billsecText } from '../../calls/api';
import { useAicallCalls, useStartAicallExport } from '../api';
import { AiCallDetailModal } from './AiCallDetailModal';
import { GradeTag } from './GradeTag';

type Props = {
  /** the task's calls (AI外呼), or none for AI接待 */
  cmStid?: number;
  source: 1 | 2;
  /** refresh while calls are being made */
  isLive?: boolean;
  /** 导出 the task's calls (by a background job, with its progress) */
  canExport?: boolean;
};

type Filters = {
  grade?: AicallCallsBody['grade'];
  callEnd?: AicallCallsBody['callEnd'];
  phone?: string;
  range?: [Dayjs, Dayjs] | null;
};

const GRADE_OPTIONS = GRADES.map((g) => ({ value: g, label: GRADE_LABEL[g] }));
/** how a call ended; 留言 only happens on AI接待 */
const endOptions = (source: 1 | 2) =>
  AI_CALL_END.filter((e) => source === 2 || e !== 'message').map((e) => ({ value: e, label: AI_CALL_END_LABEL[e] }));

/** 结束方式, a caller's 留言 and a system failure (系统异常, no grade) marked */
const EndCell = ({ row }: { row: AicallCallRow }) => {
  if (row.end === 'message') {
    return (
      <Tag color="orange" icon={<MessageOutlined />} style={{ marginInlineEnd: 0 }}>
        {row.endName}
      </Tag>
    );
  }
  if (row.end === AI_CALL_FAILED) {
    return (
      <Tag color="error" style={{ marginInlineEnd: 0 }}>
        {row.endName}
      </Tag>
    );
  }
  return row.endName;
};

/** AI calls (of a task, or of AI接待): grade, number and time filters, pages, and the detail dialog. */
export const AiCallsTable = ({ cmStid, source, isLive = false, canExport = false }: Props) => {
  const paging = useTablePaging(20);
  const [draft, setDraft] = useState<Filters>({});
  const [filters, setFilters] = useState<Filters>({});
  const [detailId, setDetailId] = useState<number | null>(null);
  const exportJob = useStartAicallExport();
  const body = useMemo(
    () => ({
      cmStid,
      source,
      grade: filters.grade,
      callEnd: filters.callEnd,
      phone: filters.phone?.trim() || undefined,
      start: filters.range?.[0].startOf('day').format('YYYY-MM-DD HH:mm:ss'),
      end: filters.range?.[1].endOf('day').format('YYYY-MM-DD HH:mm:ss'),
    }),
    [cmStid, source, filters],
  );
  const calls = useAicallCalls({ ...body, page: paging.page, limit: paging.limit }, isLive);

  const search = () => {
    setFilters(draft);
    paging.resetPage();
  };

  const columns: TableColumnsType<AicallCallRow> = [
    { title: '开始时间', dataIndex: 'call_starttime', width: 164 },
    {
      title: '客户',
      dataIndex: 'name',
      width: 140,
      ellipsis: true,
      render: (v: string) => v || <Typography.Text type="secondary">暂无客户信息</Typography.Text>,
    },
    { title: '号码', dataIndex: 'phone', width: 130 },
    ...(cmStid ? [] : [{ title: '话术', dataIndex: 'flowName', width: 130, ellipsis: true }]),
    {
      title: '意向等级',
      dataIndex: 'grade',
      width: 100,
      // E (not reached) and a failed call (no grade) have no score
      render: (v: string, r: AicallCallRow) => <GradeTag grade={v} score={r.grade === 'E' || !r.grade ? undefined : r.score} />,
    },
    { title: '通话时长', dataIndex: 'duration_time', width: 96, render: (v: number) => billsecText(v) },
    { title: '轮次', dataIndex: 'rounds', width: 60, align: 'right' },
    { title: '结束方式', dataIndex: 'endName', width: 110, ellipsis: true, render: (_, r) => <EndCell row={r} /> },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setDetailId(r.id)}>
          详情
        </Button>
      ),
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder="意向等级"
          aria-label="意向等级"
          style={{ width: 140 }}
          options={GRADE_OPTIONS}
          value={draft.grade}
          onChange={(grade) => setDraft({ ...draft, grade })}
        />
        <Select
          allowClear
          placeholder="结束方式"
          aria-label="结束方式"
          style={{ width: 140 }}
          options={endOptions(source)}
          value={draft.callEnd}
          onChange={(callEnd) => setDraft({ ...draft, callEnd })}
        />
        <Input
          allowClear
          placeholder="号码"
          aria-label="号码"
          maxLength={20}
          style={{ width: 160 }}
          value={draft.phone}
          onChange={(e) => setDraft({ ...draft, phone: e.target.value })}
          onPressEnter={search}
        />
        <DatePicker.RangePicker
          value={draft.range ?? null}
          onChange={(v) => setDraft({ ...draft, range: v?.[0] && v[1] ? [v[0], v[1]] : null })}
          placeholder={['开始日期', '结束日期']}
          style={{ width: 240 }}
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={search}>
          查询
        </Button>
        {canExport && cmStid && <JobExportButton title="导出AI通话" start={exportJob} input={cmStid} />}
      </Space>
      <Table<AicallCallRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={calls.data?.list}
        loading={calls.isLoading}
        pagination={paging.pagination(calls.data?.count ?? 0)}
        scroll={{ x: 880 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无AI通话" /> }}
      />
      <AiCallDetailModal id={detailId} onClose={() => setDetailId(null)} />
    </>
  );
};
