/** What the plan and receipt forms share: the modal with its form (reset when it opens), the approved-order select, the remark. */
import { VERIFY_STATUS } from '@crm/contracts';
import { App, Form, type FormInstance, Input, Modal, Select } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { formatMoney } from '../../../components/money';
import { useOrderList } from '../../orders/api';
import { remarkRules } from './receiptForm';

/** The customer's approved orders, the ones a plan or a receipt can be for (fetched while the form is open). */
export const useApprovedOrders = (customerId: number, open: boolean) =>
  useOrderList({ customer_id: customerId, verify_status: VERIFY_STATUS.approved, page: 1, limit: 200 }, open);

type ShellProps<V> = {
  title: string;
  open: boolean;
  form: FormInstance<V>;
  initial: V;
  /** the subject of the form: the values reset when the window opens or one of these changes */
  resetKeys: unknown[];
  isPending: boolean;
  /** saves the values; a thrown error keeps the window open (the http client has shown the server's message) */
  save: (values: V) => Promise<unknown>;
  /** the success message */
  doneText: string;
  onClose: () => void;
  children: ReactNode;
};

export const ReceiptFormShell = <V extends object>({
  title,
  open,
  form,
  initial,
  resetKeys,
  isPending,
  save,
  doneText,
  onClose,
  children,
}: ShellProps<V>) => {
  const { message } = App.useApp();
  // the form mounts with the modal (destroyOnHidden), so it takes these as its initial values; the
  // effect covers a modal that was already mounted when the props change
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the window opens or its subject changes
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(initial as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, form, ...resetKeys]);

  const submit = async (v: V) => {
    try {
      await save(v);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success(doneText);
    onClose();
  };

  return (
    <Modal title={title} open={open} onCancel={onClose} onOk={() => form.submit()} confirmLoading={isPending} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit} preserve={false} initialValues={initial}>
        {children}
      </Form>
    </Modal>
  );
};

type OrderFieldProps = {
  orders: ReturnType<typeof useApprovedOrders>;
  /** editing: the order stays */
  disabled: boolean;
  onChange?: () => void;
};

/** 订单: one of the customer's approved orders. */
export const OrderField = ({ orders, disabled, onChange }: OrderFieldProps) => (
  <Form.Item name="order_id" label="订单" rules={[{ required: true, message: '请选择订单' }]}>
    <Select
      placeholder="请选择订单"
      disabled={disabled}
      loading={orders.isFetching}
      notFoundContent="暂无已审批通过的订单"
      onChange={onChange}
      options={orders.data?.list.map((o) => ({
        value: o.id,
        label: `${o.product_names || `订单${o.id}`}（¥${formatMoney(o.cost_price)}，${o.deal_time || o.created_at}）`,
      }))}
    />
  </Form.Item>
);

export const RemarkField = () => (
  <Form.Item name="remark" label="备注" rules={remarkRules}>
    <Input.TextArea rows={2} maxLength={50} showCount placeholder="请输入备注" />
  </Form.Item>
);
