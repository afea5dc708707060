import type { PlanRow } from '@crm/contracts';
import { DatePicker, Form, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { formatMoney, milliToYuan, yuanToMilli } from '../../../components/money';
import { YuanInput } from '../../../components/YuanInput';
import { useCreatePlan, useReceiptSummary, useUpdatePlan } from '../api';
import { amountRules, fromDay, toDay } from './receiptForm';
import { OrderField, ReceiptFormShell, RemarkField, useApprovedOrders } from './receiptFormParts';

type Values = { order_id?: number; amount?: string; plan_at?: Dayjs; remark?: string };
type Props = { open: boolean; customerId: number; orderId?: number; plan?: PlanRow | null; onClose: () => void };

/** 新建回款计划 / 编辑回款计划 (SPEC §2): an approved order, the amount (what the order still leaves), the date, a remark. */
export const PlanFormModal = ({ open, customerId, orderId, plan, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const orders = useApprovedOrders(customerId, open);
  const summary = useReceiptSummary({ customer_id: customerId }, open);
  const picked = Form.useWatch('order_id', form);
  const initial: Values = plan
    ? { order_id: plan.order_id, amount: milliToYuan(plan.amount), plan_at: fromDay(plan.plan_at), remark: plan.remark }
    : { order_id: orderId };

  const order = orders.data?.list.find((o) => o.id === picked);
  const planned = (summary.data?.plan_collection ?? [])
    .filter((p) => p.order_id === picked && p.id !== plan?.id)
    .reduce((s, p) => s + p.amount, 0);
  const left = order ? order.cost_price - planned : undefined;

  const save = async (v: Values) => {
    const body = { amount: yuanToMilli(v.amount) ?? 0, plan_at: v.plan_at ? toDay(v.plan_at) : '', remark: v.remark ?? '' };
    if (plan) await update.mutateAsync({ ...body, id: plan.id });
    else await create.mutateAsync({ ...body, order_id: v.order_id ?? 0 });
  };

  return (
    <ReceiptFormShell
      title={plan ? '编辑回款计划' : '新建回款计划'}
      open={open}
      form={form}
      initial={initial}
      resetKeys={[plan, orderId]}
      isPending={create.isPending || update.isPending}
      save={save}
      doneText={plan ? '更新成功！' : '添加成功！'}
      onClose={onClose}
    >
      <OrderField orders={orders} disabled={!!plan} />
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
      <RemarkField />
    </ReceiptFormShell>
  );
};
