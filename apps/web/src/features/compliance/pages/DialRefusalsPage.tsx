import { DIAL_REFUSAL_KIND, type DialRefusal, type DialRefusalListQuery } from '@crm/contracts';
import { Card, Empty, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { SearchBar } from '../../../components/SearchBar/SearchBar';
import type { SearchField, SearchOption, SearchValues } from '../../../components/SearchBar/types';
import { useTablePaging } from '../../../components/useTablePaging';
import { fetchStaffOptions } from '../../customers/api';
import { useDialRefusals } from '../api';
import { RefusalChart } from '../components/RefusalChart';

const staffOptions = async (keyword: string): Promise<SearchOption[]> =>
  (await fetchStaffOptions(keyword)).map((s) => ({ value: s.staff_id, label: s.linkman }));

/** One option per kind (100011 and 100014 are both 黑名单: the server matches every code of the kind). */
const KIND_OPTIONS: SearchOption[] = [
  ...new Map(Object.entries(DIAL_REFUSAL_KIND).map(([code, kind]) => [kind, Number(code)])).entries(),
].map(([label, value]) => ({ value, label }));

const FIELDS: SearchField[] = [
  { kind: 'dateRange', name: 'time', label: '拦截时间' },
  { kind: 'remoteSelect', name: 'cmSid', label: '员工', fetchOptions: staffOptions },
  { kind: 'select', name: 'code', label: '拦截原因', options: KIND_OPTIONS },
];

const KIND_COLOR: Record<string, string> = {
  黑名单: 'red',
  禁拨名单: 'volcano',
  非外呼时段: 'blue',
  '5分钟超频': 'orange',
  '24小时超频': 'gold',
  号码不规范: 'default',
};

/** /blacklist/refusals 外呼拦截记录 (issue 15): every dial the dial policy refused, in the caller's data scope. */
export const DialRefusalsPage = () => {
  const [filters, setFilters] = useState<Partial<DialRefusalListQuery>>({});
  const paging = useTablePaging(20);
  const query = useMemo(() => ({ ...filters, page: paging.page, limit: paging.limit }), [filters, paging.page, paging.limit]);
  const { data, isFetching } = useDialRefusals(query);

  const onSearch = (v: SearchValues) => {
    const time = v.time as [string, string] | undefined;
    setFilters({
      startTime: time?.[0],
      endTime: time?.[1],
      cmSid: v.cmSid as number | undefined,
      code: v.code as number | undefined,
    });
    paging.resetPage();
  };

  const columns: TableColumnsType<DialRefusal> = [
    { title: '拦截时间', dataIndex: 'createTime', width: 170 },
    {
      title: '外呼方',
      dataIndex: 'cmSidName',
      width: 120,
      render: (v: string, r) => (
        <Space orientation="vertical" size={0}>
          <span>{v || '-'}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.cmStid ? `${r.originName} · 任务${r.cmStid}` : r.originName}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '号码', dataIndex: 'phone', width: 130, render: (v: string) => v || '-' },
    { title: '客户', dataIndex: 'customerName', width: 120, ellipsis: true, render: (v: string) => v || '-' },
    {
      title: '拦截原因',
      dataIndex: 'kind',
      width: 110,
      render: (v: string) => <Tag color={KIND_COLOR[v] ?? 'default'}>{v || '-'}</Tag>,
    },
    { title: '提示内容', dataIndex: 'reason', ellipsis: true },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title="近7天拦截次数" size="small">
        <RefusalChart />
      </Card>
      <Card title="外呼拦截记录">
        <SearchBar name="dialRefusalSearch" fields={FIELDS} onSearch={onSearch} />
        <Table<DialRefusal>
          style={{ marginTop: 16 }}
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          scroll={{ x: 1000 }}
          pagination={paging.pagination(data?.count ?? 0)}
          locale={{ emptyText: <Empty description="暂无拦截记录" /> }}
        />
      </Card>
    </Space>
  );
};
