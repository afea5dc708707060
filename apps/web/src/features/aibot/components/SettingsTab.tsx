import { AIBOT_LIMITS, type FlowSettings } from '@crm/contracts';
import { Card, Form, Input, InputNumber, Switch } from 'antd';
import { PromptInput } from './PromptInput';

type Props = {
  name: string;
  remark: string;
  settings: FlowSettings;
  onInfo: (info: { name?: string; remark?: string }) => void;
  onChange: (settings: FlowSettings) => void;
};

/** The flow's name and remark, the round limit with its goodbye, and whether the LLM may pick a branch. */
export const SettingsTab = ({ name, remark, settings, onInfo, onChange }: Props) => (
  <Form layout="vertical" component="div" style={{ maxWidth: 720 }}>
    <Card size="small" title="基本信息" style={{ marginBottom: 16 }}>
      <Form.Item label="话术名称" required htmlFor="flow-name">
        <Input
          id="flow-name"
          value={name}
          maxLength={AIBOT_LIMITS.flowName}
          showCount
          onChange={(e) => onInfo({ name: e.target.value })}
        />
      </Form.Item>
      <Form.Item label="备注" htmlFor="flow-remark" style={{ marginBottom: 0 }}>
        <Input.TextArea
          id="flow-remark"
          value={remark}
          rows={2}
          maxLength={AIBOT_LIMITS.remark}
          showCount
          onChange={(e) => onInfo({ remark: e.target.value })}
        />
      </Form.Item>
    </Card>
    <Card size="small" title="通话设置">
      <Form.Item label="最大对话轮次" htmlFor="flow-max-rounds" extra="客户回答达到该轮次后，机器人说结束语并挂机">
        <InputNumber
          id="flow-max-rounds"
          min={1}
          max={AIBOT_LIMITS.maxRoundsMax}
          precision={0}
          value={settings.max_rounds}
          onChange={(v) => v !== null && onChange({ ...settings, max_rounds: v })}
        />
      </Form.Item>
      <Form.Item label="结束语">
        <PromptInput
          value={settings.max_rounds_prompt}
          rows={2}
          aria-label="结束语"
          placeholder="如：感谢您的耐心，稍后会有顾问联系您，再见。"
          onChange={(max_rounds_prompt) => onChange({ ...settings, max_rounds_prompt })}
        />
      </Form.Item>
      <Form.Item
        label="使用大模型判定意图"
        htmlFor="flow-use-llm"
        extra="关键词都未命中时，请企业配置的大模型在当前节点的分支中判定（在话术管理的「大模型设置」中配置）"
        style={{ marginBottom: 0 }}
      >
        <Switch id="flow-use-llm" checked={settings.use_llm} onChange={(use_llm) => onChange({ ...settings, use_llm })} />
      </Form.Item>
    </Card>
  </Form>
);
