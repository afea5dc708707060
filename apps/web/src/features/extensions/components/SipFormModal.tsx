import { SIP_DM_TYPE_LABEL, SIP_LIMITS, type SipAdminInfo } from '@crm/contracts';
import { App, Form, Input, Modal, Select, Switch } from 'antd';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCreateSip, useEditSip } from '../api';

export type SipFormTarget = { mode: 'create' } | { mode: 'edit'; sip: SipAdminInfo };

type Values = {
  user: string;
  pwd: string;
  server: string;
  url: string;
  inUrl: string;
  dmType: number;
  imei: string;
  isEnabled: boolean;
};

const DM_TYPE_OPTIONS = Object.entries(SIP_DM_TYPE_LABEL).map(([value, label]) => ({ value: Number(value), label }));

/** Add or edit an extension (/call/sip); a blank password keeps the stored one when editing. */
export const SipFormModal = ({
  isOpen,
  target,
  onClose,
}: {
  isOpen: boolean;
  target: SipFormTarget | null;
  onClose: () => void;
}) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const create = useCreateSip();
  const edit = useEditSip();
  const sip = target?.mode === 'edit' ? target.sip : null;

  const [submit, isLocked] = useButtonLock(async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const { isEnabled, ...rest } = values;
    const body = { ...rest, actionState: isEnabled ? 0 : 1 } as const;
    try {
      if (sip) await edit.mutateAsync({ ...body, cmSipid: sip.cmSipid });
      else await create.mutateAsync(body);
    } catch {
      return;
    }
    message.success(sip ? '添加/更新成功！' : '添加成功');
    onClose();
  });

  return (
    <Modal
      title={sip ? '编辑分机' : '新增分机'}
      open={isOpen}
      width={600}
      onCancel={onClose}
      onOk={() => submit()}
      confirmLoading={isLocked}
      okText="保存"
      cancelText="取消"
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="horizontal"
        labelCol={{ span: 5 }}
        preserve={false}
        initialValues={{
          user: sip?.user ?? '',
          pwd: '',
          server: sip?.server ?? '',
          url: sip?.url ?? '',
          inUrl: sip?.inUrl ?? '',
          dmType: sip?.dmType ?? 1,
          imei: sip?.imei ?? '',
          isEnabled: (sip?.actionState ?? 0) === 0,
        }}
      >
        <Form.Item
          name="user"
          label="分机号"
          rules={[
            { required: true, message: '请输入分机号' },
            { pattern: /^[A-Za-z0-9_.-]+$/, message: '分机号只能包含字母、数字、下划线、点和横线' },
          ]}
        >
          <Input maxLength={SIP_LIMITS.user} placeholder="如 8001" />
        </Form.Item>
        <Form.Item
          name="pwd"
          label="分机密码"
          rules={sip ? [] : [{ required: true, message: '请输入分机密码' }]}
          extra={sip ? '留空则不修改密码' : undefined}
        >
          <Input.Password maxLength={SIP_LIMITS.pwd} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="dmType" label="外呼方式">
          <Select options={DM_TYPE_OPTIONS} />
        </Form.Item>
        <Form.Item name="server" label="SIP 域">
          <Input maxLength={SIP_LIMITS.url} placeholder="如 sip.example.com" />
        </Form.Item>
        <Form.Item name="url" label="WebSocket 地址">
          <Input maxLength={SIP_LIMITS.url} placeholder="wss://sip.example.com:7443" />
        </Form.Item>
        <Form.Item name="inUrl" label="呼入地址">
          <Input maxLength={SIP_LIMITS.url} />
        </Form.Item>
        <Form.Item
          name="imei"
          label="绑定设备 IMEI"
          rules={[{ pattern: /^\d*$/, message: 'IMEI 只能是数字' }]}
          extra="商户号员工使用手机外呼时填写手机的 IMEI"
        >
          <Input maxLength={SIP_LIMITS.imei} />
        </Form.Item>
        <Form.Item name="isEnabled" label="状态" valuePropName="checked">
          <Switch checkedChildren="可用" unCheckedChildren="禁用" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
