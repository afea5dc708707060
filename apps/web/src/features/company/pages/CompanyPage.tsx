import { companyEditBody } from '@crm/contracts';
import { App, Button, Card, Col, Descriptions, Form, Input, Row, Skeleton } from 'antd';
import { requiredRule, zodRule } from '../../../components/formRules';
import { ImageUpload, type UploadedImage } from '../../../components/ImageUpload';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCompanyInfo, useEditCompany } from '../api';
import { CompanyModulesCard } from '../components/CompanyModulesCard';

type Values = {
  name: string;
  contactName: string;
  contactPhone: string;
  industry: string;
  address: string;
  intro: string;
  logo: UploadedImage | null;
};

const fields = companyEditBody.shape;

/** /account/info: the company's own data, a few read-only figures and the module switches. */
export const CompanyPage = () => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { data, isLoading } = useCompanyInfo();
  const edit = useEditCompany();

  const [submit, isLocked] = useButtonLock(async (values: Values) => {
    const { logo, ...rest } = values;
    try {
      await edit.mutateAsync({
        name: rest.name,
        contactName: rest.contactName ?? '',
        contactPhone: rest.contactPhone ?? '',
        industry: rest.industry ?? '',
        address: rest.address ?? '',
        intro: rest.intro ?? '',
        logoFileId: logo?.id ?? null,
      });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('保存成功');
  });

  if (isLoading || !data) {
    return (
      <Card title="企业资料">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }

  const initialValues: Values = {
    name: data.name,
    contactName: data.contactName,
    contactPhone: data.contactPhone,
    industry: data.industry,
    address: data.address,
    intro: data.intro,
    logo: data.logoFileId ? { id: data.logoFileId, url: data.logoUrl, name: '企业标志' } : null,
  };

  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card title="企业概况">
          <Descriptions
            column={{ xs: 1, sm: 3 }}
            items={[
              { key: 'name', label: '企业名称', children: data.name },
              { key: 'staff', label: '员工人数', children: `${data.staffNum} 人` },
              { key: 'created', label: '开通时间', children: data.createTime || '-' },
            ]}
          />
        </Card>
      </Col>
      <Col span={24}>
        <Card title="企业资料">
          <Form
            form={form}
            layout="horizontal"
            labelCol={{ flex: '100px' }}
            wrapperCol={{ flex: 'auto' }}
            initialValues={initialValues}
            onFinish={submit}
            style={{ maxWidth: 720 }}
          >
            <Form.Item label="企业标志" name="logo" extra="支持 png、jpg、jpeg 格式">
              <ImageUpload label="上传标志" />
            </Form.Item>
            <Form.Item label="企业名称" name="name" rules={[requiredRule('请输入企业名称'), zodRule(fields.name)]}>
              <Input placeholder="请输入企业名称" maxLength={50} />
            </Form.Item>
            <Form.Item label="联系人" name="contactName" rules={[zodRule(fields.contactName)]}>
              <Input placeholder="请输入联系人" maxLength={20} />
            </Form.Item>
            <Form.Item label="联系电话" name="contactPhone" rules={[zodRule(fields.contactPhone)]}>
              <Input placeholder="请输入联系电话" maxLength={20} />
            </Form.Item>
            <Form.Item label="所属行业" name="industry" rules={[zodRule(fields.industry)]}>
              <Input placeholder="请输入所属行业" maxLength={30} />
            </Form.Item>
            <Form.Item label="企业地址" name="address" rules={[zodRule(fields.address)]}>
              <Input placeholder="请输入企业地址" maxLength={100} />
            </Form.Item>
            <Form.Item label="企业简介" name="intro" rules={[zodRule(fields.intro)]}>
              <Input.TextArea placeholder="请输入企业简介" maxLength={500} showCount rows={4} />
            </Form.Item>
            <Form.Item label=" " colon={false}>
              <Button type="primary" htmlType="submit" loading={edit.isPending} disabled={isLocked && !edit.isPending}>
                保存
              </Button>
            </Form.Item>
          </Form>
        </Card>
      </Col>
      <Col span={24}>
        <CompanyModulesCard />
      </Col>
    </Row>
  );
};
