import type { CustomerPickRow } from '@crm/contracts';
import { Button, Input, Modal, Table, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { useCustomerPick } from '../api';

type Props = {
  open: boolean;
  /** what the picked customer is for, e.g. 新建订单 */
  title: string;
  onPick: (customer: CustomerPickRow) => void;
  onClose: () => void;
};

const columns = (onPick: (c: CustomerPickRow) => void): TableColumnsType<CustomerPickRow> => [
  { title: '客户名称', dataIndex: 'name', ellipsis: true, render: (v: string) => v || '未命名' },
  { title: '联系人', dataIndex: 'contactName', width: 100, ellipsis: true, render: (v: string) => v || '-' },
  { title: '电话', dataIndex: 'contactPhone', width: 130, render: (v: string) => v || '-' },
  { title: '负责人', dataIndex: 'ownerName', width: 90, ellipsis: true, render: (v: string) => v || '-' },
  {
    title: '操作',
    key: 'op',
    width: 72,
    render: (_, c) => (
      <Button type="link" size="small" onClick={() => onPick(c)}>
        选择
      </Button>
    ),
  },
];

/**
 * 选择客户 (SPEC §7 customer list {page, limit 100, keyword}): the order and receipt pages create an order,
 * a receipt plan or a receipt for a customer picked here (private customers in the caller's data scope,
 * found by name or whole number), as the customer drawer does for its own customer.
 */
export const CustomerPickerModal = ({ open, title, onPick, onClose }: Props) => {
  const [keyword, setKeyword] = useState('');
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const list = useCustomerPick({ page, keyword }, open);
  useEffect(() => {
    if (!open) return;
    setKeyword('');
    setText('');
    setPage(1);
  }, [open]);
  return (
    <Modal title={`${title} · 选择客户`} open={open} onCancel={onClose} footer={null} width={720} destroyOnHidden>
      <Input.Search
        placeholder="客户名称或完整电话号码"
        allowClear
        maxLength={50}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={(v) => {
          setKeyword(v.trim());
          setPage(1);
        }}
        enterButton="查询"
        style={{ marginBottom: 12 }}
      />
      <Table<CustomerPickRow>
        rowKey="cmCtid"
        size="small"
        columns={columns(onPick)}
        dataSource={list.data?.list}
        loading={list.isFetching}
        scroll={{ y: 360 }}
        locale={{ emptyText: keyword ? '没有匹配的客户' : '暂无客户' }}
        pagination={{
          current: page,
          pageSize: 100,
          total: list.data?.count ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          showTotal: (n) => `共 ${n} 条`,
          onChange: setPage,
        }}
        onRow={(c) => ({ onClick: () => onPick(c), style: { cursor: 'pointer' } })}
      />
    </Modal>
  );
};
