import { DATA_SCOPE, type LoginLog } from '@crm/contracts';
import { Card, DatePicker, Form, Select, Table, type TableColumnsType, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { SearchActions } from '../../../components/SearchActions';
import { useTablePaging } from '../../../components/useTablePaging';
import { useSession } from '../../../stores/session';
import { useStaffOptions } from '../../staff/api';
import { type LoginLogFilters, useLoginLogs } from '../api';

type SearchValues = { cmSid?: number; isSuccess?: number; range?: [Dayjs | null, Dayjs | null] | null };

const RESULT_OPTIONS = [
  { value: 1, label: '成功' },
  { value: 0, label: '失败' },
];

/** Remote staff search: wait for a pause in typing before asking the server. */
const useDebounced = <T,>(value: T, ms = 400) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return debounced;
};

const columns: TableColumnsType<LoginLog> = [
  { title: '登录时间', dataIndex: 'createTime', width: 180 },
  { title: '员工', dataIndex: 'staffName', width: 110, render: (v: string) => v || '-' },
  { title: '账号', dataIndex: 'username', width: 130 },
  { title: 'IP', dataIndex: 'ip', width: 140 },
  { title: '浏览器', dataIndex: 'browser', width: 140, render: (v: string) => v || '-' },
  { title: '操作系统', dataIndex: 'os', width: 140, render: (v: string) => v || '-' },
  {
    title: '登录结果',
    dataIndex: 'isSuccess',
    width: 100,
    render: (v: number) => (v === 1 ? <Tag color="green">成功</Tag> : <Tag color="red">失败</Tag>),
  },
  { title: '原因', dataIndex: 'reason', ellipsis: true, render: (v: string) => v || '-' },
];

/** /system/loginlog: login attempts; the staff filter only for roles that see more than themselves. */
export const LoginLogPage = () => {
  const [form] = Form.useForm<SearchValues>();
  const userInfo = useSession((s) => s.userInfo);
  const canPickStaff = userInfo !== null && (userInfo.isAdmin === 1 || userInfo.dataScope > DATA_SCOPE.own);
  const [keyword, setKeyword] = useState('');
  const linkman = useDebounced(keyword.trim());
  const staffOptions = useStaffOptions(linkman, canPickStaff);
  const [filters, setFilters] = useState<LoginLogFilters>({});
  const paging = useTablePaging();
  const { data, isFetching } = useLoginLogs({ ...filters, page: paging.page, limit: paging.limit });

  const search = ({ cmSid, isSuccess, range }: SearchValues) => {
    // SPEC §9: a date range runs from the first day 00:00:00 to the last day 23:59:59.
    setFilters({
      cmSid,
      isSuccess,
      startTime: range?.[0] ? `${range[0].format('YYYY-MM-DD')} 00:00:00` : undefined,
      endTime: range?.[1] ? `${range[1].format('YYYY-MM-DD')} 23:59:59` : undefined,
    });
    paging.resetPage();
  };

  return (
    <Card title="登录日志">
      <Form name="loginLogSearch" form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 12 }}>
        {canPickStaff && (
          <Form.Item name="cmSid">
            <Select
              placeholder="员工"
              allowClear
              showSearch={{ filterOption: false, onSearch: setKeyword }}
              onClear={() => setKeyword('')}
              loading={staffOptions.isFetching}
              style={{ width: 160 }}
              options={staffOptions.data?.map((s) => ({ value: s.staff_id, label: s.linkman }))}
              notFoundContent={staffOptions.isFetching ? '搜索中...' : undefined}
            />
          </Form.Item>
        )}
        <Form.Item name="isSuccess">
          <Select placeholder="登录结果" allowClear style={{ width: 120 }} options={RESULT_OPTIONS} />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker placeholder={['开始日期', '结束日期']} />
        </Form.Item>
        <SearchActions
          onReset={() => {
            form.resetFields();
            setKeyword('');
            search({});
          }}
        />
      </Form>
      <Table<LoginLog>
        rowKey="id"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: 1060 }}
        pagination={paging.pagination(data?.count ?? 0)}
      />
    </Card>
  );
};
