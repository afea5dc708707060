import { PAY_TYPE_LABEL, type Repayment, VERIFY_STATUS } from '@crm/contracts';
import { Alert, App, DatePicker, Form, Input, Modal, Select, Skeleton } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { formatMoney, milliToYuan, yuanToMilli } from '../../../components/money';
import { YuanInput } from '../../../components/YuanInput';
import { useTemplateInfo } from '../../approvals/api';
import { approvalBody, FlowPanel } from '../../approvals/components/ApprovalSection';
import { useOrderList } from '../../orders/api';
import { useCreateReceipt, useReceiptSetting, useReceiptSummary, useUpdateReceipt } from '../api';
import { amountRules, fromDay, remarkRules, toDay } from './receiptForm';

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
  const { message } = App.useApp();
  const create = useCreateReceipt();
  const update = useUpdateReceipt();
  const orders = useOrderList({ customer_id: customerId, verify_status: VERIFY_STATUS.approved, page: 1, limit: 200 }, open);
  const summary = useReceiptSummary({ customer_id: customerId }, open);
  const pickedOrder = Form.useWatch('order_id', form);
  // a new receipt goes through the company's receipt flow when it has one (its free nodes need approvers)
  const setting = useReceiptSetting(open && !receipt);
  const flowId = !receipt && setting.data?.approval_template_id ? setting.data.approval_template_id : undefined;
  const flow = useTemplateInfo(flowId);
  // the form mounts with the modal (destroyOnHidden), so it takes these as its initial values; the
  // effect covers a modal that was already mounted when the props change
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
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the window opens or its subject changes
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(initial);
  }, [open, receipt, orderId, planId, form]);

  const plans = (summary.data?.plan_collection ?? []).filter((p) => p.order_id === pickedOrder);

  const submit = async (v: Values) => {
    const body = {
      amount: yuanToMilli(v.amount) ?? 0,
      repayment_at: v.repayment_at ? toDay(v.repayment_at) : '',
      pay_type: v.pay_type ?? 1,
      remark: v.remark ?? '',
    };
    try {
      if (receipt) await update.mutateAsync({ ...body, id: receipt.id });
      else
        await create.mutateAsync({
          ...body,
          order_id: v.order_id,
          order_repayment_plan_id: v.order_repayment_plan_id,
          staffApproveNode: flow.data ? approvalBody(flow.data, { nodes: v.nodes }, 0).staffApproveNode : [],
        });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success(receipt ? '更新成功！' : '添加成功！');
    onClose();
  };

  return (
    <Modal
      title={receipt ? '编辑回款' : '新建回款'}
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
            disabled={!!receipt}
            loading={orders.isFetching}
            notFoundContent="暂无已审批通过的订单"
            onChange={() => form.setFieldValue('order_repayment_plan_id', undefined)}
            options={orders.data?.list.map((o) => ({
              value: o.id,
              label: `${o.product_names || `订单${o.id}`}（¥${formatMoney(o.cost_price)}，${o.deal_time || o.created_at}）`,
            }))}
          />
        </Form.Item>
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
        <Form.Item name="remark" label="备注" rules={remarkRules}>
          <Input.TextArea rows={2} maxLength={50} showCount placeholder="请输入备注" />
        </Form.Item>
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
      </Form>
    </Modal>
  );
};
