import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { BILLING_LIMITS } from '@crm/contracts';
import { Button, Form, Input, Space, Typography } from 'antd';
import { SmallFormModal } from '../../../components/SmallFormModal';
import { useBillingSettings, useSaveBillingSettings } from '../api';
import { yuanDigits, yuanToUnits } from '../money';

type Values = { thresholds: { yuan: string }[] };

/**
 * 余额提醒: up to five amounts; when the balance falls under one, the company's admins get one
 * notice (socket and header) for that crossing. No amount: no notice.
 */
export const ThresholdsModal = ({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) => {
  const [form] = Form.useForm<Values>();
  const settings = useBillingSettings(isOpen);
  const save = useSaveBillingSettings();
  if (isOpen && !settings.data) return null;
  return (
    <SmallFormModal<Values>
      title="余额提醒"
      okText="保存"
      doneText="保存成功"
      isOpen={isOpen}
      onClose={onClose}
      form={form}
      isPending={save.isPending}
      initialValues={{ thresholds: (settings.data?.thresholds ?? []).map((t) => ({ yuan: yuanDigits(t).replace(/,/g, '') })) }}
      save={(v) => save.mutateAsync({ thresholds: v.thresholds.map((t) => yuanToUnits(t.yuan) as number) })}
    >
      <Typography.Paragraph type="secondary">
        余额低于提醒金额时，将通知企业管理员（每个金额每次跌破提醒一次）。
      </Typography.Paragraph>
      <Form.List name="thresholds">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, i) => (
              <Space key={field.key} align="baseline">
                <Form.Item
                  name={[field.name, 'yuan']}
                  label={`提醒金额${i + 1}`}
                  labelCol={{ flex: '96px' }}
                  rules={[
                    { required: true, message: '请输入提醒金额' },
                    {
                      validator: async (_, value: string) => {
                        const units = yuanToUnits(value);
                        if (value && units === undefined) throw new Error('请输入正确的金额（最多4位小数）');
                        if (units !== undefined && units > BILLING_LIMITS.amountMax) throw new Error('提醒金额超出上限');
                      },
                    },
                  ]}
                >
                  <Input prefix="¥" suffix="元" maxLength={14} style={{ width: 200 }} />
                </Form.Item>
                <MinusCircleOutlined aria-label="删除提醒金额" onClick={() => remove(field.name)} />
              </Space>
            ))}
            {fields.length < BILLING_LIMITS.thresholdsMax && (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ yuan: '' })}>
                添加提醒金额
              </Button>
            )}
          </>
        )}
      </Form.List>
    </SmallFormModal>
  );
};
