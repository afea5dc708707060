import { PHONE_STATE_LABEL, REGISTER_STATUS_LABEL, SIP_DM_TYPE_LABEL, type SipInfo } from '@crm/contracts';
import { App, Badge, Button, Card, Empty, Form, Input, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { FormModal } from '../../../components/FormModal';
import { useTablePaging } from '../../../components/useTablePaging';
import { reloadExtension } from '../../../phone/phoneActions';
import { useBindPhone, useMySipList, useSetDefaultSip } from '../api';

/** 绑定号码: the extension's phone number (回呼 number / the bound phone's SIM). */
const BindPhoneModal = ({ sip, onClose }: { sip: SipInfo | null; onClose: () => void }) => {
  const [form] = Form.useForm<{ phone: string }>();
  const bind = useBindPhone();
  return (
    <FormModal
      open={sip !== null}
      title={`绑定号码 · 分机 ${sip?.user ?? ''}`}
      name="bindPhoneForm"
      form={form}
      layout="horizontal"
      okText="保存"
      initialValues={{ phone: sip?.phone ?? '' }}
      isPending={bind.isPending}
      onSubmit={async ({ phone }) => {
        if (sip) await bind.mutateAsync({ cmSipid: sip.cmSipid, phone: phone.trim() });
        return '操作成功';
      }}
      onClose={onClose}
    >
      <Form.Item
        name="phone"
        label="电话号码"
        rules={[{ pattern: /^[\d-]{0,20}$/, message: '请输入正确的电话号码' }]}
        extra="回呼方式使用该号码接听；留空保存即解除绑定"
      >
        <Input maxLength={20} allowClear />
      </Form.Item>
    </FormModal>
  );
};

/** /call/mysip: the extensions bound to me; one is the default the header and the dialler use. */
export const MySipPage = () => {
  const { message } = App.useApp();
  const paging = useTablePaging(20);
  const { data, isFetching } = useMySipList({ page: paging.page, limit: paging.limit });
  const setDefault = useSetDefaultSip();
  const [phoneTarget, setPhoneTarget] = useState<SipInfo | null>(null);

  const makeDefault = async (sip: SipInfo) => {
    try {
      await setDefault.mutateAsync({ cmSipid: sip.cmSipid });
    } catch {
      return;
    }
    message.success('操作成功');
    await reloadExtension();
  };

  const columns: TableColumnsType<SipInfo> = [
    {
      title: '分机号',
      dataIndex: 'user',
      width: 120,
      render: (v: string, s) => (
        <Space size={4}>
          <Typography.Text strong>{v}</Typography.Text>
          {s.isDefault === 1 && <Tag color="blue">默认</Tag>}
        </Space>
      ),
    },
    { title: '外呼方式', dataIndex: 'dmType', width: 90, render: (v: number) => SIP_DM_TYPE_LABEL[v] ?? '-' },
    { title: '绑定号码', dataIndex: 'phone', width: 115, render: (v: string) => v || '-' },
    {
      title: '绑定设备',
      dataIndex: 'imei',
      width: 150,
      render: (v: string, s) =>
        v ? (
          <Badge status={s.deviceOnline ? 'success' : 'default'} text={`${v}${s.deviceOnline ? '（在线）' : '（未连接）'}`} />
        ) : (
          '-'
        ),
    },
    { title: '注册状态', dataIndex: 'registerStatus', width: 90, render: (v: number) => REGISTER_STATUS_LABEL[v] ?? '-' },
    { title: '电话状态', dataIndex: 'phoneState', width: 90, render: (v: number) => PHONE_STATE_LABEL[v] ?? '-' },
    { title: '最后通话', dataIndex: 'lastCallTime', width: 165, render: (v: string) => v || '-' },
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 70,
      render: (v: number) => <Tag color={v === 0 ? 'green' : 'default'}>{v === 0 ? '可用' : '禁用'}</Tag>,
    },
    {
      title: '操作',
      key: 'actions',
      // 设为默认 + 绑定号码 fit in it (they spilled past the edge: the table scrolled at 1366 px)
      width: 175,
      render: (_, sip) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            disabled={sip.isDefault === 1 || sip.actionState !== 0}
            loading={setDefault.isPending && setDefault.variables?.cmSipid === sip.cmSipid}
            onClick={() => makeDefault(sip)}
          >
            设为默认
          </Button>
          <Button type="link" size="small" onClick={() => setPhoneTarget(sip)}>
            绑定号码
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card title="我的分机">
      <Typography.Paragraph type="secondary">
        默认分机显示在页面顶部，拨号和来电都使用默认分机。普通账号在顶部切换「在线」后即可拨打电话。
      </Typography.Paragraph>
      <Table<SipInfo>
        rowKey="cmSipid"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: 1060 }}
        pagination={paging.pagination(data?.count ?? 0)}
        locale={{ emptyText: <Empty description="还没有分配给您的分机，请联系管理员在「分机管理」中绑定" /> }}
      />
      <BindPhoneModal sip={phoneTarget} onClose={() => setPhoneTarget(null)} />
    </Card>
  );
};
