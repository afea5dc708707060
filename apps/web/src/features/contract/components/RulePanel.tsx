import { CONTRACT_LIMITS, type ContractRuleBody, RULE_DATE_FORMATS } from '@crm/contracts';
import { Alert, App, Button, Card, Descriptions, Form, Input, InputNumber, Select, Skeleton, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useContractRule, useUpdateRule } from '../api';

const DATE_LABEL: Record<string, string> = {
  '': '不含日期',
  YYYY: '年（YYYY）',
  YYYYMM: '年月（YYYYMM）',
  YYYYMMDD: '年月日（YYYYMMDD）',
};
const RESET_LABEL: Record<string, string> = { never: '永不重置', year: '每年从1开始', month: '每月从1开始', day: '每天从1开始' };

/** What the next number would look like with the form's values (the saved rule's example comes from the server). */
const exampleOf = (v: Partial<ContractRuleBody>) =>
  `${v.prefix ?? ''}${v.date_format ? dayjs().format(v.date_format) : ''}${'1'.padStart(v.seq_digits ?? 4, '0')}`;

/** 编号规则: prefix + date + sequence; the server keeps numbers unique per company and never reuses one. */
export const RulePanel = () => {
  const [form] = Form.useForm<ContractRuleBody>();
  const { message } = App.useApp();
  const rule = useContractRule();
  const save = useUpdateRule();
  const values = Form.useWatch([], form) as Partial<ContractRuleBody> | undefined;

  useEffect(() => {
    if (rule.data)
      form.setFieldsValue({
        prefix: rule.data.prefix,
        date_format: rule.data.date_format as ContractRuleBody['date_format'],
        seq_digits: rule.data.seq_digits,
      });
  }, [rule.data, form]);

  if (!rule.data) return <Skeleton active />;
  const submit = async (v: ContractRuleBody) => {
    try {
      await save.mutateAsync({ ...v, prefix: v.prefix.trim() });
    } catch {
      return;
    }
    message.success('操作成功');
  };

  return (
    <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <Form form={form} layout="vertical" onFinish={submit} style={{ width: 420 }}>
        <Form.Item
          label="编号前缀"
          name="prefix"
          rules={[
            { max: CONTRACT_LIMITS.prefix, message: `前缀最多${CONTRACT_LIMITS.prefix}个字符` },
            { pattern: /^[A-Za-z0-9\-_\u4e00-\u9fa5]*$/, message: '前缀只能包含字母、数字、中文、-和_' },
          ]}
        >
          <Input placeholder="如：HT-" maxLength={CONTRACT_LIMITS.prefix} />
        </Form.Item>
        <Form.Item label="日期部分" name="date_format" rules={[{ required: true, message: '请选择日期部分' }]}>
          <Select options={RULE_DATE_FORMATS.map((f) => ({ value: f, label: DATE_LABEL[f] }))} aria-label="日期部分" />
        </Form.Item>
        <Form.Item
          label="序号位数"
          name="seq_digits"
          rules={[
            { required: true, message: '请输入序号位数' },
            { type: 'number', min: 3, max: 8, message: '序号位数为3到8位' },
          ]}
        >
          <InputNumber min={3} max={8} precision={0} style={{ width: 160 }} addonAfter="位" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          保存规则
        </Button>
      </Form>
      <Card size="small" title="编号示例" style={{ width: 380 }}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label="按当前设置">
            <Typography.Text code data-testid="rule-example">
              {exampleOf(values ?? {})}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="已保存规则的下一个编号">
            <Typography.Text code>{rule.data.example}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="序号重置">{RESET_LABEL[rule.data.reset] ?? rule.data.reset}</Descriptions.Item>
        </Descriptions>
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 8 }}
          message="编号在本企业内唯一，已使用的编号不会被再次分配（包括作废的合同）。"
        />
      </Card>
    </div>
  );
};
