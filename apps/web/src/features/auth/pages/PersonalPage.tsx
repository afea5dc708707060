import { UserOutlined } from '@ant-design/icons';
import { MERCHANT_TYPE_LABEL, personalEditBody, WEIXIN_BIND_LABEL } from '@crm/contracts';
import { App, Avatar, Button, Card, Col, Descriptions, Form, Input, Radio, Row, Space, Typography } from 'antd';
import { requiredRule, zodRule } from '../../../components/formRules';
import { ImageUpload, type UploadedImage } from '../../../components/ImageUpload';
import { useButtonLock } from '../../../components/useButtonLock';
import { useSession } from '../../../stores/session';
import { useEditPersonal } from '../api';

type Values = { name: string; sex: 1 | 2; email: string; avatar: UploadedImage | null };

const fields = personalEditBody.shape;

/** /system/personal: one's own account facts, and name, sex, email and avatar to edit. */
export const PersonalPage = () => {
  const { message } = App.useApp();
  const userInfo = useSession((s) => s.userInfo);
  const edit = useEditPersonal();

  const [submit, isLocked] = useButtonLock(async (values: Values) => {
    try {
      await edit.mutateAsync({
        name: values.name,
        sex: values.sex,
        email: values.email ?? '',
        cbAhid: values.avatar?.id ?? null,
      });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('保存成功');
  });

  if (!userInfo) return null;

  const initialValues: Values = {
    name: userInfo.name,
    sex: userInfo.sex === 2 ? 2 : 1,
    email: userInfo.email,
    avatar: userInfo.cbAhid ? { id: userInfo.cbAhid, url: userInfo.cbAhidUrl, name: '头像' } : null,
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={10}>
        <Card title="账号信息">
          <Space size={16} align="center" style={{ marginBottom: 24 }}>
            <Avatar size={64} src={userInfo.cbAhidUrl || undefined} icon={<UserOutlined />} />
            <div>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {userInfo.name || '云呼叫用户'}
              </Typography.Title>
              <Typography.Text type="secondary">{userInfo.companyName}</Typography.Text>
            </div>
          </Space>
          <Descriptions
            column={1}
            items={[
              { key: 'username', label: '账号', children: userInfo.username },
              { key: 'phone', label: '手机号', children: userInfo.phone || '-' },
              { key: 'department', label: '部门', children: userInfo.cmDidName || '未分配部门' },
              { key: 'role', label: '角色', children: userInfo.cmAridName || '-' },
              { key: 'workNumber', label: '工号', children: userInfo.workNumber || '-' },
              { key: 'type', label: '账号类型', children: MERCHANT_TYPE_LABEL[userInfo.merchantType] ?? '-' },
              { key: 'weixin', label: '微信绑定', children: WEIXIN_BIND_LABEL[userInfo.isBindWeiXin === 1 ? 1 : 0] },
              { key: 'expire', label: '到期时间', children: userInfo.expireTime || '永久' },
              { key: 'created', label: '创建时间', children: userInfo.createTime || '-' },
              { key: 'lastLogin', label: '最后登录', children: userInfo.lastLoginTime || '-' },
              { key: 'lastIp', label: '登录IP', children: userInfo.lastLoginIp || '-' },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Card title="个人资料">
          <Form
            layout="horizontal"
            labelCol={{ flex: '80px' }}
            wrapperCol={{ flex: 'auto' }}
            initialValues={initialValues}
            onFinish={submit}
            style={{ maxWidth: 520 }}
          >
            <Form.Item label="头像" name="avatar" extra="支持 png、jpg、jpeg 格式">
              <ImageUpload label="上传头像" />
            </Form.Item>
            <Form.Item label="姓名" name="name" rules={[requiredRule('请输入姓名'), zodRule(fields.name)]}>
              <Input placeholder="请输入姓名" maxLength={20} />
            </Form.Item>
            <Form.Item label="性别" name="sex" rules={[requiredRule('请选择性别')]}>
              <Radio.Group
                options={[
                  { value: 1, label: '男' },
                  { value: 2, label: '女' },
                ]}
              />
            </Form.Item>
            <Form.Item label="邮箱" name="email" rules={[zodRule(fields.email)]}>
              <Input placeholder="请输入邮箱" maxLength={50} />
            </Form.Item>
            <Form.Item label=" " colon={false}>
              <Button type="primary" htmlType="submit" loading={edit.isPending} disabled={isLocked && !edit.isPending}>
                保存
              </Button>
            </Form.Item>
          </Form>
        </Card>
      </Col>
    </Row>
  );
};
