import { LEAD_LIMITS, LEAD_MAPPABLE_FIELDS, type LeadSettings, leadSettingsBody } from '@crm/contracts';
import {
  Alert,
  App,
  Button,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { useMemo } from 'react';
import { requiredRule, zodRule } from '../../../components/formRules';
import { useButtonLock } from '../../../components/useButtonLock';
import { useSession } from '../../../stores/session';
import { useTemplateInfo } from '../../customers/templates-api';
import { useLeadSettings, useSaveLeadSettings } from '../settings-api';
import { type LeadSettingsForm, mappableControls, staleMappings, toBody, toForm } from './leadSettingsForm';

const FIELDS = Object.keys(LEAD_MAPPABLE_FIELDS);
const { shape } = leadSettingsBody;

/** The form itself, mounted once the settings are loaded (its initial values come from them). */
const RulesForm = ({ settings, canEdit }: { settings: LeadSettings; canEdit: boolean }) => {
  const { message, modal } = App.useApp();
  const template = useTemplateInfo(0);
  const save = useSaveLeadSettings();
  const [form] = Form.useForm<LeadSettingsForm>();
  const options = useMemo(() => mappableControls(template.data?.templateControls ?? []), [template.data]);
  const stale = template.data ? staleMappings(settings, options) : [];

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync(toBody(values, FIELDS));
    } catch {
      return; // the http client has shown the server's message
    }
    form.setFieldsValue({ providerKey: '', providerSecret: '' });
    message.success('保存成功');
  });

  const clearKeys = () =>
    modal.confirm({
      title: '清除密钥',
      content: '清除后将无法向数据服务商查询，只查询本地企业库。确定要清除吗？',
      okText: '确定',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await save.mutateAsync({ isClearKeys: true });
        } catch {
          return;
        }
        message.success('密钥已清除');
      },
    });

  return (
    <Form
      form={form}
      name="leadRulesForm"
      layout="horizontal"
      labelCol={{ flex: '150px' }}
      initialValues={toForm(settings)}
      disabled={!canEdit}
      style={{ maxWidth: 960 }}
    >
      {!canEdit && <Alert type="info" showIcon title="仅管理员可以修改拓客设置" style={{ marginBottom: 16 }} />}
      <Divider titlePlacement="start" plain>
        数据服务商
      </Divider>
      <Form.Item label="当前密钥">
        <Space size={16} wrap>
          <Typography.Text data-testid="lead-key-masked">
            {settings.providerKeyMasked ? `AppKey ${settings.providerKeyMasked}` : '未设置 AppKey'}
          </Typography.Text>
          <Typography.Text type="secondary">{settings.hasProviderSecret ? '密钥已设置' : '密钥未设置'}</Typography.Text>
          <Typography.Text type="secondary">
            今日查询 {settings.lookupsToday} 次，累计 {settings.lookupsTotal} 次
          </Typography.Text>
          {(settings.providerKeyMasked || settings.hasProviderSecret) && (
            <Button size="small" danger onClick={clearKeys}>
              清除密钥
            </Button>
          )}
        </Space>
      </Form.Item>
      <Form.Item label="AppKey" name="providerKey" rules={[zodRule(shape.providerKey)]} extra="留空则保留已保存的 AppKey">
        <Input placeholder="输入新的 AppKey" maxLength={64} allowClear autoComplete="off" style={{ width: 360 }} />
      </Form.Item>
      <Form.Item
        label="SecretKey"
        name="providerSecret"
        rules={[zodRule(shape.providerSecret)]}
        extra="留空则保留已保存的 SecretKey；保存后只显示是否已设置"
      >
        <Input.Password placeholder="输入新的 SecretKey" maxLength={128} autoComplete="new-password" style={{ width: 360 }} />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        转为客户
      </Divider>
      <Form.Item
        label="每人每日额度"
        name="dailyQuota"
        rules={[requiredRule('请输入每人每日额度'), zodRule(shape.dailyQuota)]}
        extra={`每位员工每天最多可将多少家企业转为客户，0 表示不允许转为客户（最多 ${LEAD_LIMITS.maxDailyQuota}）`}
      >
        <InputNumber min={0} max={LEAD_LIMITS.maxDailyQuota} precision={0} suffix="家" style={{ width: 200 }} />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        字段对应
      </Divider>
      <Typography.Paragraph type="secondary">
        转为客户时，企业名称写入客户名称，其余字段写入下面选择的客户模板控件。未选择时，法定代表人、地址、统一社会信用代码、经营范围写入同名的文本控件（法定代表人也可写入「联系人」），联系电话写入第一个电话控件；其他字段不写入。
      </Typography.Paragraph>
      {template.isError && <Alert type="error" showIcon title="无法获取客户模板，请稍后重试" style={{ marginBottom: 16 }} />}
      {stale.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={`${stale.join('、')} 对应的控件已停用或删除，请重新选择`}
          style={{ marginBottom: 16 }}
        />
      )}
      <Row gutter={24}>
        {settings.mapping.map((m) => (
          <Col key={m.field} xs={24} lg={12}>
            <Form.Item label={m.label} name={['mapping', m.field]}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder="不写入"
                loading={template.isLoading}
                options={options}
                aria-label={`${m.label}对应控件`}
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Form.Item label=" " colon={false}>
        <Button type="primary" onClick={submit} loading={isLocked}>
          保存
        </Button>
      </Form.Item>
    </Form>
  );
};

/** 拓客设置 › 数据源与规则: the provider key and secret, the daily 转为客户 quota, the field mapping. */
export const LeadRulesForm = () => {
  const settings = useLeadSettings();
  const isAdmin = useSession((s) => s.userInfo?.isAdmin === 1);
  if (settings.isError)
    return (
      <Result
        status="error"
        title="无法获取拓客设置"
        subTitle="请稍后重试"
        extra={<Button onClick={() => settings.refetch()}>重试</Button>}
      />
    );
  if (!settings.data) return <Skeleton active paragraph={{ rows: 8 }} />;
  return <RulesForm settings={settings.data} canEdit={isAdmin} />;
};
