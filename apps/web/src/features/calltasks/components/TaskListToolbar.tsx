import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { CALLTASK_STATUS_LABEL } from '@crm/contracts';
import { Button, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { ListSearch } from '../../../components/ListSearch';
import { useTablePaging } from '../../../components/useTablePaging';

const STATUS_OPTIONS = Object.entries(CALLTASK_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

/** A task list's name / status filters and its paging, as the list query's body. */
export const useTaskListFilters = () => {
  const [name, setName] = useState('');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const paging = useTablePaging(20);
  const query = useMemo(
    () => ({ name: name || undefined, status, page: paging.page, limit: paging.limit }),
    [name, status, paging.page, paging.limit],
  );
  const filter = (next: { name?: string; status?: number }) => {
    if ('name' in next) setName(next.name ?? '');
    if ('status' in next) setStatus(next.status);
    paging.resetPage();
  };
  return { query, status, filter, paging };
};

type Props = {
  filters: ReturnType<typeof useTaskListFilters>;
  onRefresh: () => void;
  /** none: the caller may not create tasks of this kind (no 新建任务 button) */
  onCreate?: () => void;
};

/** 搜索任务名称 / 全部状态 / 刷新 / 新建任务 above a task list. */
export const TaskListToolbar = ({ filters, onRefresh, onCreate }: Props) => (
  <Space style={{ marginBottom: 16 }} wrap>
    <ListSearch placeholder="搜索任务名称" onSearch={(name) => filters.filter({ name })} />
    <Select
      allowClear
      placeholder="全部状态"
      aria-label="任务状态"
      style={{ width: 140 }}
      options={STATUS_OPTIONS}
      value={filters.status}
      onChange={(status?: number) => filters.filter({ status })}
    />
    <Button icon={<ReloadOutlined />} onClick={onRefresh}>
      刷新
    </Button>
    {onCreate && (
      <Button type="primary" icon={<PlusOutlined />} onClick={onCreate}>
        新建任务
      </Button>
    )}
  </Space>
);
