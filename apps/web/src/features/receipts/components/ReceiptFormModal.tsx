import { PAY_TYPE_LABEL, type Repayment } from '@crm/contracts';
import { Alert, DatePicker, Form, Select, Skeleton } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { formatMoney, milliToYuan, yuanToMilli } from '../../../components/money';
import { YuanInput } from '../../../components/YuanInput';
import { useTemplateInfo } from '../../approvals/api';
import { approvalBody, FlowPanel } from '../../approvals/components/ApprovalSection';
import { useCreateReceipt, useReceiptSetting, useReceiptSummary, useUpdateReceipt } from '../api';
import { amountRules, fromDay, toDay } from './receiptForm';
import { OrderField, ReceiptFormShell, RemarkField, useApprovedOrders } from './receiptFormParts';

type Values = {
  order_id?: number;
  order_repayment_plan_id?: number;
  amount?: string;
  repayment_at?: Dayjs;
  pay_type?: 1 | 2 | 3 | 4;
  remark?: string;
  /** the approvers picked for the free nodes of the company's receipt flow */
  nodes?: Record<string, number[]>;
};
type Props = {
  open: boolean;
  customerId: number;
  orderId?: number;
  planId?: number;
  receipt?: Repayment | null;
  onClose: () => void;
};

const payOptions = Object.entries(PAY_TYPE_LABEL).map(([v, label]) => ({ value: Number(v), label }));

/**
 * 新建回款 / 编辑回款 (SPEC §2): order, plan (with what it still expects), amount, date, pay type, remark;
 * a new receipt under a company receipt flow shows the flow, with approver pickers for its free nodes.
 */
export const ReceiptFormModal = ({ open, customerId, orderId, planId, receipt, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateReceipt();
  const update = useUpdateReceipt();
  const orders = useApprovedOrders(customerId, open);
  const summary = useReceiptSummary({ customer_id: customerId }, open);
  const pickedOrder = Form.useWatch('order_id', form);
  // a new receipt goes through the company's receipt flow when it has one (its free nodes need approvers)
  const setting = useReceiptSetting(open && !receipt);
  const flowId = !receipt && setting.data?.approval_template_id ? setting.data.approval_template_id : undefined;
  const flow = useTemplateInfo(flowId);
  const initial: Values = receipt
    ? {
        order_id: receipt.order_id,
        order_repayment_plan_id: receipt.order_repayment_plan_id,
        amount: milliToYuan(receipt.amount),
        repayment_at: fromDay(receipt.repayment_at),
        pay_type: receipt.pay_type as Values['pay_type'],
        remark: receipt.remark,
      }
    : { order_id: orderId, order_repayment_plan_id: planId, repayment_at: dayjs(), pay_type: 1 };

  const plans = (summary.data?.plan_collection ?? []).filter((p) => p.order_id === pickedOrder);

  const save = async (v: Values) => {
    const body = {
      amount: yuanToMilli(v.amount) ?? 0,
      repayment_at: v.repayment_at ? toDay(v.repayment_at) : '',
      pay_type: v.pay_type ?? 1,
      remark: v.remark ?? '',
    };
    if (receipt) await update.mutateAsync({ ...body, id: receipt.id });
    else
      await create.mutateAsync({
        ...body,
        order_id: v.order_id,
        order_repayment_plan_id: v.order_repayment_plan_id,
        staffApproveNode: flow.data ? approvalBody(flow.data, { nodes: v.nodes }, 0).staffApproveNode : [],
      });
  };

  return (
    <ReceiptFormShell
      title={receipt ? '编辑回款' : '新建回款'}
      open={open}
      form={form}
      initial={initial}
      resetKeys={[receipt, orderId, planId]}
      isPending={create.isPending || update.isPending}
      save={save}
      doneText={receipt ? '更新成功！' : '添加成功！'}
      onClose={onClose}
    >
      <OrderField
        orders={orders}
        disabled={!!receipt}
        onChange={() => form.setFieldValue('order_repayment_plan_id', undefined)}
      />
      <Form.Item name="order_repayment_plan_id" label="回款计划" rules={[{ required: true, message: '请选择回款计划' }]}>
        <Select
          placeholder="请选择回款计划"
          disabled={!!receipt}
          notFoundContent={pickedOrder ? '该订单暂无回款计划' : '请先选择订单'}
          options={plans.map((p) => ({
            value: p.id,
            label: `${p.plan_at} 计划 ¥${formatMoney(p.amount)}，待回款 ¥${formatMoney(Math.max(0, p.amount - p.repaid_amount_sum))}`,
          }))}
        />
      </Form.Item>
      <Form.Item name="amount" label="回款金额(元)" rules={amountRules}>
        <YuanInput placeholder="请输入金额" />
      </Form.Item>
      <Form.Item name="repayment_at" label="回款日期" rules={[{ required: true, message: '请选择日期' }]}>
        <DatePicker style={{ width: '100%' }} placeholder="请选择日期" />
      </Form.Item>
      <Form.Item name="pay_type" label="付款方式" rules={[{ required: true, message: '请选择付款方式' }]}>
        <Select options={payOptions} placeholder="请选择付款方式" />
      </Form.Item>
      <RemarkField />
      {flowId !== undefined &&
        (flow.isError ? (
          <Alert type="error" showIcon title="回款审批流程已停用或删除，请联系管理员" />
        ) : !flow.data ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : (
          <Form.Item label={`回款审批流程：${flow.data.name}`} required>
            <FlowPanel template={flow.data} />
          </Form.Item>
        ))}
    </ReceiptFormShell>
  );
};
