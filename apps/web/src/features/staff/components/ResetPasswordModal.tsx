import type { Staff } from '@crm/contracts';
import { App, Form, Input, Modal, Typography } from 'antd';
import { passwordRules, requiredRule, sameAsRule } from '../../../components/formRules';
import { useButtonLock } from '../../../components/useButtonLock';
import { useResetStaffPassword } from '../api';

type Values = { password: string; confirmPassword: string };

type Props = { isOpen: boolean; staff: Staff | null; onClose: () => void };

/** An admin sets a new password; the server logs the staff member out everywhere. */
export const ResetPasswordModal = ({ isOpen, staff, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const reset = useResetStaffPassword();

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !staff) return;
    try {
      await reset.mutateAsync({ cmSid: staff.cmSid, password: values.password });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('操作成功');
    onClose();
  });

  return (
    <Modal
      open={isOpen}
      title="重置密码"
      width={480}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: reset.isPending, disabled: isLocked && !reset.isPending }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        为员工 {staff?.name}（{staff?.username}）设置新密码，重置后其所有设备上的登录将失效。
      </Typography.Paragraph>
      <Form name="resetPasswordForm" form={form} layout="vertical" preserve={false}>
        <Form.Item label="新密码" name="password" rules={passwordRules('新密码')}>
          <Input.Password placeholder="6-32位，含字母和数字" maxLength={32} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirmPassword"
          dependencies={['password']}
          rules={[requiredRule('请再次输入新密码'), sameAsRule('password')]}
        >
          <Input.Password placeholder="请再次输入新密码" maxLength={32} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
