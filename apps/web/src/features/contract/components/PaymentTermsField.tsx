/** 付款条款 (分期) of a new contract: amount and day of each instalment; archiving makes them the order's 回款计划. */
import { CONTRACT_LIMITS, type PaymentTerm } from '@crm/contracts';
import { Button, DatePicker, Form, Input, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { formatMoney, YUAN_PATTERN, yuanToMilli } from '../../../components/money';
import { YuanInput } from '../../../components/YuanInput';

export type TermValue = { amount?: string; plan_at?: Dayjs; remark?: string };

/** The form's rows as the API's terms (amount in 1/1000 yuan, day YYYY-MM-DD). */
export const termsOf = (rows: TermValue[] | undefined): PaymentTerm[] =>
  (rows ?? []).map((r) => ({
    amount: yuanToMilli(r.amount) ?? 0,
    plan_at: r.plan_at ? r.plan_at.format('YYYY-MM-DD') : '',
    remark: (r.remark ?? '').trim(),
  }));

/** `orderAmount`: the chosen order's amount (1/1000 yuan), to show what the instalments leave. */
export const PaymentTermsField = ({ orderAmount }: { orderAmount?: number }) => {
  const rows = Form.useWatch<TermValue[] | undefined>('payment_terms');
  const total = termsOf(rows).reduce((s, t) => s + t.amount, 0);
  return (
    <Form.Item
      label="付款条款（分期）"
      extra={
        <Typography.Text type="secondary">
          合同归档时，各期将自动生成该订单的回款计划。
          {rows?.length ? ` 合计 ¥${formatMoney(total)}` : ''}
          {orderAmount !== undefined && rows?.length ? `，订单金额 ¥${formatMoney(orderAmount)}` : ''}
        </Typography.Text>
      }
    >
      <Form.List name="payment_terms">
        {(fields, { add, remove }) => (
          <>
            {fields.map((f, i) => (
              <Space key={f.key} align="baseline" wrap style={{ display: 'flex' }}>
                <Typography.Text>第{i + 1}期</Typography.Text>
                <Form.Item
                  name={[f.name, 'amount']}
                  rules={[
                    { required: true, message: '请输入金额' },
                    { pattern: YUAN_PATTERN, message: '金额格式不正确' },
                    {
                      validator: async (_, v) =>
                        (yuanToMilli(v) ?? 0) > 0 ? undefined : Promise.reject(new Error('金额须大于0')),
                    },
                  ]}
                >
                  <YuanInput placeholder="金额(元)" aria-label={`第${i + 1}期金额`} style={{ width: 140 }} />
                </Form.Item>
                <Form.Item name={[f.name, 'plan_at']} rules={[{ required: true, message: '请选择日期' }]}>
                  <DatePicker placeholder="付款日期" aria-label={`第${i + 1}期日期`} />
                </Form.Item>
                <Form.Item name={[f.name, 'remark']}>
                  <Input placeholder="备注" maxLength={CONTRACT_LIMITS.termRemark} style={{ width: 140 }} />
                </Form.Item>
                <Button type="link" danger onClick={() => remove(f.name)}>
                  删除
                </Button>
              </Space>
            ))}
            {fields.length < CONTRACT_LIMITS.paymentTerms && (
              <Button type="dashed" onClick={() => add()} block>
                添加一期
              </Button>
            )}
          </>
        )}
      </Form.List>
    </Form.Item>
  );
};
