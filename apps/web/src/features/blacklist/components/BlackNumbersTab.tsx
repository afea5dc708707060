/** 手动添加 of 黑名单号码: the numbers added by hand. */
import { PlusOutlined } from '@ant-design/icons';
import { BLACK_LIMITS, type BlackNumber } from '@crm/contracts';
import { Button, Empty, Form, Input, Space, Table } from 'antd';
import { useState } from 'react';
import { PhoneSearch } from '../../../components/PhoneSearch';
import { SmallFormModal } from '../../../components/SmallFormModal';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useTablePaging } from '../../../components/useTablePaging';
import { useBlackNumbers, useCreateBlackNumber, useDeleteBlackNumbers } from '../api';

type NumberValues = { phone: string; remark: string };

/** 手动添加: numbers added one by one (search, add, delete, batch delete). */
export const BlackNumbersTab = () => {
  const [form] = Form.useForm<NumberValues>();
  const [phone, setPhone] = useState('');
  const paging = useTablePaging(20);
  const { data, isFetching } = useBlackNumbers({ cmBfid: 0, phone: phone || undefined, page: paging.page, limit: paging.limit });
  const create = useCreateBlackNumber();
  const remove = useDeleteBlackNumbers();
  const confirmDelete = useConfirmDelete();
  const [selected, setSelected] = useState<number[]>([]);
  const [isAddOpen, setAddOpen] = useState(false);

  return (
    <>
      <Space style={{ marginBottom: 16 }} wrap>
        <PhoneSearch onSearch={setPhone} paging={paging} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
          添加号码
        </Button>
        <Button
          danger
          disabled={selected.length === 0}
          onClick={() =>
            confirmDelete(async () => {
              await remove.mutateAsync({ ids: selected });
              setSelected([]);
            }, `确定要删除选中的 ${selected.length} 个号码吗？`)
          }
        >
          批量删除
        </Button>
      </Space>
      <Table<BlackNumber>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        columns={[
          { title: '号码', dataIndex: 'phone', width: 180 },
          { title: '备注', dataIndex: 'remark', render: (v: string) => v || '-' },
          { title: '添加人', dataIndex: 'cmSidName', width: 100 },
          { title: '添加时间', dataIndex: 'createTime', width: 170 },
          {
            title: '操作',
            key: 'actions',
            width: 80,
            render: (_, n) => (
              <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync({ ids: [n.id] }))}>
                删除
              </Button>
            ),
          },
        ]}
        pagination={paging.pagination(data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无手动添加的号码" /> }}
      />
      <SmallFormModal
        title="添加黑名单号码"
        okText="添加"
        isOpen={isAddOpen}
        onClose={() => setAddOpen(false)}
        form={form}
        save={(v) => create.mutateAsync({ phone: v.phone.trim(), remark: (v.remark ?? '').trim() })}
        doneText="添加成功"
      >
        <Form.Item
          name="phone"
          label="号码"
          rules={[
            { required: true, whitespace: true, message: '请输入电话号码' },
            { pattern: /^[\d+\- ]{3,20}$/, message: '请输入正确的电话号码' },
          ]}
        >
          <Input maxLength={20} placeholder="手机号或固话" />
        </Form.Item>
        <Form.Item name="remark" label="备注">
          <Input.TextArea maxLength={BLACK_LIMITS.remark} showCount rows={2} />
        </Form.Item>
      </SmallFormModal>
    </>
  );
};
