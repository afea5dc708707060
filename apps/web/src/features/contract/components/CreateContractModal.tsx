/** 生成合同: a draft from an approved order, its template, seal, signing order, signer and the fields the order does not give. */
import {
  CONTRACT_LIMITS,
  type ContractCreateBody,
  type ListData,
  type OrderRow,
  SIGN_ORDER_LABEL,
  VERIFY_STATUS,
} from '@crm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { http } from '../../../api/http';
import { formatMoney } from '../../../components/money';
import { useContractTemplates, useCreateContract, useSeals } from '../api';
import { fieldsOf } from '../templateBody';
import { PaymentTermsField, type TermValue, termsOf } from './PaymentTermsField';

/** Fields the server fills from the order, the company, the numbering rule and the payment terms below. */
const FROM_ORDER = new Set([
  'customer_name',
  'contact_name',
  'contact_phone',
  'amount_upper',
  'amount_lower',
  'products',
  'payment_terms',
  'sign_date',
  'company_name',
  'contract_no',
]);
const ASKED_LABEL: Record<string, string> = { service_period: '服务期限', bank_account: '收款账户' };

type Values = {
  order_id?: number;
  template_id?: number;
  seal_id?: number;
  sign_order: 1 | 2 | 3;
  title?: string;
  signer_name?: string;
  signer_phone?: string;
  fields?: Record<string, string>;
  payment_terms?: TermValue[];
};

type Props = {
  open: boolean;
  /** the order (from the order drawer); absent: pick one of the customer's approved orders */
  orderId?: number;
  customerId: number;
  onClose: () => void;
  onCreated?: (id: number) => void;
};

const useApprovedOrders = (customerId: number, enabled: boolean) =>
  useQuery({
    queryKey: ['orders', 'list', { customer_id: customerId, verify_status: VERIFY_STATUS.approved, for: 'contract' }],
    queryFn: () =>
      http.get<ListData<OrderRow>>('/api/frontend/order/list', {
        customer_id: customerId,
        verify_status: VERIFY_STATUS.approved,
        page: 1,
        limit: 100,
      }),
    enabled,
  });

export const CreateContractModal = ({ open, orderId, customerId, onClose, onCreated }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const templates = useContractTemplates(0);
  const seals = useSeals(0);
  const orders = useApprovedOrders(customerId, open && orderId === undefined);
  const create = useCreateContract();
  const templateId = Form.useWatch('template_id', form);
  const pickedOrder = Form.useWatch('order_id', form);
  const template = templates.data?.list.find((t) => t.id === templateId);
  const usableSeals = (seals.data?.list ?? []).filter((s) => s.can_use === 1);

  // fields of the chosen template the order cannot give: 服务期限, 收款账户, free fields
  const used = template ? new Set([...fieldsOf(template.body), ...template.fields.map((f) => f.key)]) : new Set<string>();
  const asked = [...used]
    .filter((key) => !FROM_ORDER.has(key))
    .map((key) => ({ key, label: template?.fields.find((f) => f.key === key)?.label || ASKED_LABEL[key] || key }));

  // biome-ignore lint/correctness/useExhaustiveDependencies: opening the window for another order starts a clean form
  useEffect(() => {
    if (!open) return;
    form.resetFields();
  }, [open, orderId, form]);
  useEffect(() => {
    // one template or one seal: chosen for the user
    if (!open) return;
    const list = templates.data?.list ?? [];
    if (list.length === 1 && !form.getFieldValue('template_id')) form.setFieldValue('template_id', list[0]?.id);
    if (usableSeals.length === 1 && !form.getFieldValue('seal_id')) form.setFieldValue('seal_id', usableSeals[0]?.id);
  }, [open, templates.data, usableSeals, form]);

  const submit = async (v: Values) => {
    const body: Partial<ContractCreateBody> = {
      // from the order drawer the order is given, not a form field
      order_id: orderId ?? v.order_id,
      template_id: v.template_id,
      seal_id: v.seal_id,
      sign_order: v.sign_order,
      title: v.title?.trim() ?? '',
      signer_name: v.signer_name?.trim() ?? '',
      signer_phone: v.signer_phone?.trim() ?? '',
      fields: Object.fromEntries(Object.entries(v.fields ?? {}).map(([k, val]) => [k, (val ?? '').trim()])),
      payment_terms: termsOf(v.payment_terms),
    };
    try {
      const res = await create.mutateAsync(body);
      message.success(`合同 ${res.contract_no} 已生成`);
      onClose();
      onCreated?.(res.id);
    } catch {
      // the http client has shown the server's message
    }
  };

  const isSetUp = (templates.data?.list.length ?? 1) > 0 && (seals.data?.list.length ?? 1) > 0;

  return (
    <Modal
      title="生成合同"
      open={open}
      width={600}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="生成合同"
      cancelText="取消"
      okButtonProps={{ loading: create.isPending, disabled: !isSetUp }}
      destroyOnHidden
    >
      {!isSetUp && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="尚未配置合同模板或印章"
          description={
            <span>
              请管理员先在 <Link to="/contract/setting">合同设置</Link> 中添加合同模板和印章。
            </span>
          }
        />
      )}
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ sign_order: 1 }} preserve={false}>
        {orderId === undefined && (
          <Form.Item label="订单" name="order_id" rules={[{ required: true, message: '请选择已通过审批的订单' }]}>
            <Select
              aria-label="订单"
              placeholder="请选择已通过审批的订单"
              loading={orders.isFetching}
              notFoundContent="该客户暂无已通过审批的订单"
              options={(orders.data?.list ?? []).map((o) => ({
                value: o.id,
                label: `${o.product_names || '订单'} · ¥${formatMoney(o.cost_price)} · ${o.deal_time || o.created_at.slice(0, 10)}`,
              }))}
            />
          </Form.Item>
        )}
        <Space.Compact block style={{ gap: 12 }}>
          <Form.Item
            label="合同模板"
            name="template_id"
            rules={[{ required: true, message: '请选择合同模板' }]}
            style={{ flex: 1 }}
          >
            <Select
              aria-label="合同模板"
              placeholder="请选择合同模板"
              loading={templates.isFetching}
              options={(templates.data?.list ?? []).map((t) => ({ value: t.id, label: t.name }))}
            />
          </Form.Item>
          <Form.Item label="使用印章" name="seal_id" rules={[{ required: true, message: '请选择印章' }]} style={{ flex: 1 }}>
            <Select
              aria-label="使用印章"
              placeholder="请选择印章"
              loading={seals.isFetching}
              notFoundContent="暂无可用印章"
              options={usableSeals.map((s) => ({
                value: s.id,
                label: `${s.name}（${s.kind_name}）${s.needs_approval === 1 ? ' · 需用印审批' : ''}`,
              }))}
            />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          label="合同名称"
          name="title"
          rules={[{ max: CONTRACT_LIMITS.name, message: `合同名称最多${CONTRACT_LIMITS.name}个字符` }]}
        >
          <Input placeholder="留空则使用模板名称" maxLength={CONTRACT_LIMITS.name} />
        </Form.Item>
        <Form.Item label="签署顺序" name="sign_order">
          <Radio.Group options={[1, 2, 3].map((v) => ({ value: v, label: SIGN_ORDER_LABEL[v] }))} />
        </Form.Item>
        <Space.Compact block style={{ gap: 12 }}>
          <Form.Item label="客户签署人" name="signer_name" style={{ flex: 1 }} rules={[{ max: 30, message: '姓名最多30个字符' }]}>
            <Input placeholder="默认为订单联系人" maxLength={30} />
          </Form.Item>
          <Form.Item
            label="签署人手机号"
            name="signer_phone"
            style={{ flex: 1 }}
            rules={[{ pattern: /^1\d{10}$/, message: '请输入正确的11位手机号' }]}
          >
            <Input placeholder="默认为订单联系电话" maxLength={11} />
          </Form.Item>
        </Space.Compact>
        {asked.map((f) => (
          <Form.Item
            key={f.key}
            label={f.label}
            name={['fields', f.key]}
            rules={[
              { required: true, whitespace: true, message: `请输入${f.label}` },
              { max: CONTRACT_LIMITS.fieldValue, message: `${f.label}最多${CONTRACT_LIMITS.fieldValue}个字符` },
            ]}
          >
            <Input placeholder={`请输入${f.label}`} maxLength={CONTRACT_LIMITS.fieldValue} />
          </Form.Item>
        ))}
        <PaymentTermsField orderAmount={orders.data?.list.find((o) => o.id === pickedOrder)?.cost_price} />
        <Typography.Text type="secondary">
          客户名称、联系人、电话、订单金额、产品明细、签约日期和合同编号将自动填入。
        </Typography.Text>
      </Form>
    </Modal>
  );
};
