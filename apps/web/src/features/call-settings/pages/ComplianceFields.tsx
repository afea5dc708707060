import { CAP_ORDER_MSG, COMPLIANCE_LIMITS, callSettingsSaveBody } from '@crm/contracts';
import { Form, InputNumber, Space, Switch } from 'antd';
import { zodRule } from '../../../components/formRules';

// 外呼设置: the compliance rules (issue 15), run by the same contract schema as the server's.
const { shape } = callSettingsSaveBody;

/** The caps, 禁拨 retention and whether manual dials obey the hours (inside the settings form). */
export const ComplianceFields = () => (
  <>
    <Form.Item
      label="人工外呼受时段限制"
      name="manualObeysHours"
      valuePropName="checked"
      extra="开启后坐席手动拨打也只能在外呼时段内进行；系统外呼与任务外呼始终受时段限制"
    >
      <Switch checkedChildren="是" unCheckedChildren="否" />
    </Form.Item>
    <Form.Item label="同一号码呼叫上限" required extra="全公司对同一号码的所有呼叫（人工与系统）合计；0 表示不限制">
      <Space size={16} wrap>
        <Form.Item
          name="capPer5Min"
          noStyle
          dependencies={['capPerDay']}
          rules={[
            { required: true, message: '请输入5分钟内呼叫上限' },
            zodRule(shape.capPer5Min),
            ({ getFieldValue }) => ({
              validator: async (_, v: number | null) => {
                const day = getFieldValue('capPerDay') as number | null;
                if (v && day && v > day) throw new Error(CAP_ORDER_MSG);
              },
            }),
          ]}
        >
          <InputNumber
            aria-label="5分钟内呼叫上限"
            min={0}
            max={COMPLIANCE_LIMITS.capPer5MinMax}
            precision={0}
            addonBefore="5分钟内"
            addonAfter="次"
            style={{ width: 200 }}
          />
        </Form.Item>
        <Form.Item
          name="capPerDay"
          noStyle
          rules={[{ required: true, message: '请输入24小时内呼叫上限' }, zodRule(shape.capPerDay)]}
        >
          <InputNumber
            aria-label="24小时内呼叫上限"
            min={0}
            max={COMPLIANCE_LIMITS.capPerDayMax}
            precision={0}
            addonBefore="24小时内"
            addonAfter="次"
            style={{ width: 210 }}
          />
        </Form.Item>
      </Space>
    </Form.Item>
    <Form.Item
      label="禁拨保留时长"
      name="dncRetentionMonths"
      rules={[{ required: true, message: '请输入禁拨保留时长' }, zodRule(shape.dncRetentionMonths)]}
      extra="加入禁拨名单的号码在此期间不会被拨打；0 表示永久保留（已有号码按加入时的设置到期）"
    >
      <InputNumber
        aria-label="禁拨保留时长"
        min={0}
        max={COMPLIANCE_LIMITS.dncRetentionMonthsMax}
        precision={0}
        addonAfter="个月"
        style={{ width: 160 }}
      />
    </Form.Item>
  </>
);
