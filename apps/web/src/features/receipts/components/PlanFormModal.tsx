import { type PlanRow, VERIFY_STATUS } from '@crm/contracts';
import { App, DatePicker, Form, Input, Modal, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { formatMoney, milliToYuan, yuanToMilli } from '../../../components/money';
import { YuanInput } from '../../../components/YuanInput';
import { useOrderList } from '../../orders/api';
import { useCreatePlan, useReceiptSummary, useUpdatePlan } from '../api';
import { amountRules, fromDay, remarkRules, toDay } from './receiptForm';

type Values = { order_id?: number; amount?: string; plan_at?: Dayjs; remark?: string };
type Props = { open: boolean; customerId: number; orderId?: number; plan?: PlanRow | null; onClose: () => void };

/** 新建回款计划 / 编辑回款计划 (SPEC §2): an approved order, the amount (what the order still leaves), the date, a remark. */
export const PlanFormModal = ({ open, customerId, orderId, plan, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const orders = useOrderList({ customer_id: customerId, verify_status: VERIFY_STATUS.approved, page: 1, limit: 200 }, open);
  const summary = useReceiptSummary({ customer_id: customerId }, open);
  const picked = Form.useWatch('order_id', form);
  // the form mounts with the modal (destroyOnHidden), so it takes these as its initial values; the
  // effect covers a modal that was already mounted when the props change
  const initial: Values = plan
    ? { order_id: plan.order_id, amount: milliToYuan(plan.amount), plan_at: fromDay(plan.plan_at), remark: plan.remark }
    : { order_id: orderId };
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the window opens or its subject changes
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(initial);
  }, [open, plan, orderId, form]);

  const order = orders.data?.list.find((o) => o.id === picked);
  const planned = (summary.data?.plan_collection ?? [])
    .filter((p) => p.order_id === picked && p.id !== plan?.id)
    .reduce((s, p) => s + p.amount, 0);
  const left = order ? order.cost_price - planned : undefined;

  const submit = async (v: Values) => {
    const body = { amount: yuanToMilli(v.amount) ?? 0, plan_at: v.plan_at ? toDay(v.plan_at) : '', remark: v.remark ?? '' };
    try {
      if (plan) await update.mutateAsync({ ...body, id: plan.id });
      else await create.mutateAsync({ ...body, order_id: v.order_id ?? 0 });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success(plan ? '更新成功！' : '添加成功！');
    onClose();
  };

  return (
    <Modal
      title={plan ? '编辑回款计划' : '新建回款计划'}
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false} initialValues={initial}>
        <Form.Item name="order_id" label="订单" rules={[{ required: true, message: '请选择订单' }]}>
          <Select
            placeholder="请选择订单"
            disabled={!!plan}
            loading={orders.isFetching}
            notFoundContent="暂无已审批通过的订单"
            options={orders.data?.list.map((o) => ({
              value: o.id,
              label: `${o.product_names || `订单${o.id}`}（¥${formatMoney(o.cost_price)}，${o.deal_time || o.created_at}）`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label="回款金额(元)"
          rules={amountRules}
          extra={left !== undefined && <Typography.Text type="secondary">该订单尚可计划 ¥{formatMoney(left)}</Typography.Text>}
        >
          <YuanInput placeholder="请输入金额" />
        </Form.Item>
        <Form.Item name="plan_at" label="计划回款日期" rules={[{ required: true, message: '请选择日期' }]}>
          <DatePicker style={{ width: '100%' }} placeholder="请选择日期" />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={remarkRules}>
          <Input.TextArea rows={2} maxLength={50} showCount placeholder="请输入备注" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
