import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { passwordRules, requiredRule, sameAsRule } from '../../../components/formRules';
import { useButtonLock } from '../../../components/useButtonLock';
import { useChangePassword } from '../api';

type Values = { oldPassword: string; newPassword: string; confirmPassword: string };

/** /system/modifyPaw: the server keeps this session and logs every other one out. */
export const ModifyPasswordPage = () => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const change = useChangePassword();
  const [isDone, setDone] = useState(false);

  const [submit, isLocked] = useButtonLock(async (values: Values) => {
    try {
      await change.mutateAsync(values);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('密码修改成功');
    form.resetFields();
    setDone(true);
  });

  return (
    <Card title="修改密码">
      {isDone && (
        <Alert
          type="success"
          showIcon
          closable={{ onClose: () => setDone(false) }}
          title="密码修改成功"
          description="其他设备上的登录已全部下线，下次登录请使用新密码。"
          style={{ maxWidth: 560, marginBottom: 24 }}
        />
      )}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ flex: '100px' }}
        wrapperCol={{ flex: 'auto' }}
        onFinish={submit}
        onValuesChange={() => setDone(false)}
        style={{ maxWidth: 560 }}
      >
        <Form.Item label="原密码" name="oldPassword" rules={[requiredRule('请输入原密码')]}>
          <Input.Password placeholder="请输入原密码" maxLength={64} autoComplete="current-password" />
        </Form.Item>
        <Form.Item label="新密码" name="newPassword" rules={passwordRules('新密码')}>
          <Input.Password placeholder="6-32位，需同时包含字母和数字" maxLength={32} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirmPassword"
          dependencies={['newPassword']}
          rules={[requiredRule('请再次输入新密码'), sameAsRule('newPassword')]}
        >
          <Input.Password placeholder="请再次输入新密码" maxLength={32} autoComplete="new-password" />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button type="primary" htmlType="submit" loading={change.isPending} disabled={isLocked && !change.isPending}>
            确认修改
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
};
