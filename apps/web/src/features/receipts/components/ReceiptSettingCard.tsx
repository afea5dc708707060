import { type ApprovalTemplate, RECEIPT_LIMITS, receiptSettingBody } from '@crm/contracts';
import { App, Button, Card, Form, InputNumber, Select, Skeleton } from 'antd';
import { zodRule } from '../../../components/formRules';
import { useReceiptSetting, useSaveReceiptSetting } from '../api';

type Values = { remind_days: number; approval_template_id: number };

/**
 * 回款设置 (issue 14), on 审批设置: how many days ahead a plan's owner is reminded, and the company's
 * receipt flow (a template 用于回款审批; 无需审批 = receipts count at once).
 */
export const ReceiptSettingCard = ({ templates }: { templates: ApprovalTemplate[] }) => {
  const { message } = App.useApp();
  const setting = useReceiptSetting();
  const save = useSaveReceiptSetting();
  const submit = async (v: Values) => {
    try {
      await save.mutateAsync({ remind_days: v.remind_days, approval_template_id: v.approval_template_id ?? 0 });
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('保存成功');
  };
  return (
    <Card type="inner" title="回款设置" style={{ marginTop: 16 }}>
      {!setting.data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Form<Values> layout="inline" initialValues={setting.data} onFinish={submit}>
          <Form.Item
            label="到期提醒"
            name="remind_days"
            rules={[zodRule(receiptSettingBody.shape.remind_days)]}
            extra="回款计划到期前几天提醒负责人"
          >
            <InputNumber min={0} max={RECEIPT_LIMITS.remindDaysMax} precision={0} suffix="天" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item label="回款审批流程" name="approval_template_id">
            <Select
              style={{ width: 240 }}
              options={[
                { value: 0, label: '无需审批' },
                ...templates.map((t) => ({ value: t.coMatid, label: t.actionState === 0 ? t.name : `${t.name}（已停用）` })),
              ]}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              保存
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
};
