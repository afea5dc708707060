import { DELETED_KEEP_DAYS, type DeletedCustomer } from '@crm/contracts';
import { Alert, App, Button, Input, Modal, Popconfirm, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useDeletedCustomers, useRestoreCustomers } from '../api';

/** 回收站: customers deleted within the last 30 days; an admin restores them (after that they are purged). */
export const RecycleBinModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { message } = App.useApp();
  const [query, setQuery] = useState({ page: 1, limit: 10, name: '' });
  const list = useDeletedCustomers(query, open);
  const restore = useRestoreCustomers();
  const [selected, setSelected] = useState<number[]>([]);

  const doRestore = async (ids: number[]) => {
    try {
      await restore.mutateAsync(ids);
    } catch {
      return; // the http layer shows the server's message
    }
    message.success('操作成功');
    setSelected((s) => s.filter((id) => !ids.includes(id)));
  };

  const columns: TableColumnsType<DeletedCustomer> = [
    { title: '客户名称', dataIndex: 'name', render: (v: string) => v || '未命名' },
    {
      title: '负责人',
      dataIndex: 'ownerName',
      render: (v: string, row) => v || (row.cmHsidName ? `公海：${row.cmHsidName}` : '-'),
    },
    { title: '删除时间', dataIndex: 'deleteTime', width: 170 },
    { title: '永久删除时间', dataIndex: 'expireTime', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_, row) => (
        <Popconfirm title="确定恢复该客户吗？" okText="确定" cancelText="取消" onConfirm={() => doRestore([row.cmCtid])}>
          <Button type="link" size="small">
            恢复
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Modal open={open} title="回收站" width={860} footer={null} onCancel={onClose} destroyOnHidden>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={`删除的客户保留${DELETED_KEEP_DAYS}天，期间可恢复；超过${DELETED_KEEP_DAYS}天将永久删除。`}
      />
      <div style={{ display: 'flex', gap: 8, marginBottom: 12 }}>
        <Input.Search
          placeholder="客户名称"
          allowClear
          style={{ width: 240 }}
          onSearch={(name) => setQuery((q) => ({ ...q, page: 1, name }))}
        />
        <Popconfirm
          title={`确定恢复选中的${selected.length}个客户吗？`}
          okText="确定"
          cancelText="取消"
          disabled={selected.length === 0}
          onConfirm={() => doRestore(selected)}
        >
          <Button disabled={selected.length === 0} loading={restore.isPending}>
            批量恢复
          </Button>
        </Popconfirm>
      </div>
      <Table<DeletedCustomer>
        rowKey="cmCtid"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: list.data?.count ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (page, limit) => setQuery((q) => ({ ...q, page, limit })),
        }}
      />
    </Modal>
  );
};
