import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Typography } from 'antd';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useButtonLock } from '../../../components/useButtonLock';
import { endSession } from '../../../stores/session';
import { logoutOnLoginPage, useDemoInfo, useLogin } from '../api';
import styles from './LoginPage.module.css';

type Values = { username: string; password: string };

/** /login: open without a token; entering it ends any call socket and extension (SPEC §2). */
export const LoginPage = () => {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { message } = App.useApp();
  const demo = useDemoInfo();
  const login = useLogin();

  useEffect(() => {
    logoutOnLoginPage();
    endSession();
  }, []);

  const [submit, isLocked] = useButtonLock(async (values: Values) => {
    try {
      await login.mutateAsync(values);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('登录成功');
    const redirect = params.get('redirect');
    navigate(redirect?.startsWith('/') && !redirect.startsWith('//') ? redirect : '/home/Index', { replace: true });
  });

  return (
    <div className={styles.page}>
      <div className={styles.hero}>
        <h1>云呼CRM</h1>
        <p>电销客户管理 + 云外呼，一个浏览器搞定拨号、跟进、公海与回款。</p>
      </div>
      {/* A plain panel, not antd's Card: Card brings Tabs, Menu and Dropdown along (issue 23.3) */}
      <section className={styles.card} aria-label="账号登录">
        <h2 className={styles.cardTitle}>账号登录</h2>
        <Form form={form} layout="vertical" size="large" onFinish={submit} autoComplete="on">
          <Form.Item label="账号" name="username" rules={[{ required: true, whitespace: true, message: '请输入账号或手机号' }]}>
            <Input prefix={<UserOutlined />} placeholder="账号或手机号" maxLength={50} autoComplete="username" />
          </Form.Item>
          <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" maxLength={64} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending} disabled={isLocked && !login.isPending}>
            登录
          </Button>
        </Form>
        {demo.data?.isDemo && (
          <div className={styles.demo}>
            <Typography.Text type="secondary">
              演示账号（密码均为 <Typography.Text code>{demo.data.password}</Typography.Text>，点击填入）
            </Typography.Text>
            {/* A plain table: antd's Table (with its select, tree and pagination) would more than double the login page's JS */}
            <table className={styles.accounts}>
              <thead>
                <tr>
                  <th>账号</th>
                  <th>姓名</th>
                  <th>角色</th>
                </tr>
              </thead>
              <tbody>
                {demo.data.accounts.map((row) => (
                  <tr
                    key={row.username}
                    onClick={() => form.setFieldsValue({ username: row.username, password: demo.data?.password })}
                  >
                    <td>{row.username}</td>
                    <td>{row.name}</td>
                    <td>{row.roleName}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
};
