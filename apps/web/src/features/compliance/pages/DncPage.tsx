import { PlusOutlined } from '@ant-design/icons';
import { DNC_LIMITS, DNC_REASON_DEFAULT, type DncEntry, dncAddBody } from '@crm/contracts';
import { App, Badge, Button, Card, Empty, Form, Input, Popconfirm, Space, Table, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { zodRule } from '../../../components/formRules';
import { PhoneSearch } from '../../../components/PhoneSearch';
import { SmallFormModal } from '../../../components/SmallFormModal';
import { useTablePaging } from '../../../components/useTablePaging';
import { useAddDnc, useDeleteDnc, useDncList } from '../api';

type AddValues = { phone: string; reason: string };

const AddModal = ({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) => {
  const [form] = Form.useForm<AddValues>();
  const add = useAddDnc();
  return (
    <SmallFormModal
      title="添加禁拨号码"
      okText="添加"
      isOpen={isOpen}
      onClose={onClose}
      form={form}
      initialValues={{ phone: '', reason: DNC_REASON_DEFAULT }}
      isPending={add.isPending}
      save={(v) => add.mutateAsync({ phone: v.phone.trim(), reason: v.reason.trim() })}
      doneText="添加成功"
    >
      <Form.Item
        name="phone"
        label="号码"
        rules={[{ required: true, whitespace: true, message: '请输入电话号码' }, zodRule(dncAddBody.shape.phone)]}
      >
        <Input maxLength={20} placeholder="手机或固话号码" />
      </Form.Item>
      <Form.Item
        name="reason"
        label="原因"
        rules={[{ required: true, whitespace: true, message: '请输入禁拨原因' }, zodRule(dncAddBody.shape.reason)]}
        extra="在保留期内（外呼设置 · 禁拨保留时长）该号码不会被任何人工或系统外呼拨打"
      >
        <Input maxLength={DNC_LIMITS.reason} showCount />
      </Form.Item>
    </SmallFormModal>
  );
};

/** /blacklist/dnc 禁拨名单 (issue 15): numbers that refused calls; never dialled while in force. */
export const DncPage = () => {
  const { message } = App.useApp();
  const [phone, setPhone] = useState('');
  const paging = useTablePaging(20);
  const query = useMemo(
    () => ({ phone: phone || undefined, page: paging.page, limit: paging.limit }),
    [phone, paging.page, paging.limit],
  );
  const { data, isFetching } = useDncList(query);
  const remove = useDeleteDnc();
  const [isAddOpen, setAddOpen] = useState(false);

  const onDelete = async (e: DncEntry) => {
    try {
      await remove.mutateAsync({ id: e.id });
    } catch {
      return;
    }
    message.success('删除成功');
  };

  const columns: TableColumnsType<DncEntry> = [
    { title: '号码', dataIndex: 'phone', width: 140 },
    {
      title: '客户',
      dataIndex: 'customerName',
      width: 140,
      ellipsis: true,
      render: (v: string, e) => (e.cmCtid > 0 ? <Link to={`/manage/mycustomer?detail=${e.cmCtid}`}>{v || '未命名'}</Link> : '-'),
    },
    { title: '原因', dataIndex: 'reason', ellipsis: true },
    { title: '来源', dataIndex: 'sourceName', width: 100 },
    { title: '添加人', dataIndex: 'cmSidName', width: 100 },
    { title: '添加时间', dataIndex: 'createTime', width: 170 },
    {
      title: '到期时间',
      dataIndex: 'expireTime',
      width: 190,
      render: (v: string, e) =>
        e.isActive ? <Badge status="error" text={v || '永久'} /> : <Badge status="default" text={`${v}（已过期）`} />,
    },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_, e) => (
        <Popconfirm
          title="删除禁拨号码"
          description="删除后该号码可以再次被拨打，确定删除？"
          okText="删除"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={() => onDelete(e)}
        >
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card title="禁拨名单">
      <Space style={{ marginBottom: 16 }} wrap>
        <PhoneSearch onSearch={setPhone} paging={paging} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
          添加号码
        </Button>
      </Space>
      <Table<DncEntry>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: 1000 }}
        pagination={paging.pagination(data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无禁拨号码" /> }}
      />
      <AddModal isOpen={isAddOpen} onClose={() => setAddOpen(false)} />
    </Card>
  );
};
