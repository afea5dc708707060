import { AIBOT_LIMITS, type AibotSettings, aibotSettingsBody } from '@crm/contracts';
import { Button, Form, Input, InputNumber, Modal, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { FormModal } from '../../../components/FormModal';
import { requiredRule, zodRule } from '../../../components/formRules';
import { useAibotSettings, useSaveAibotSettings } from '../api';

type Values = { llm_enabled: boolean; llm_url: string; llm_model: string; llm_key?: string; llm_timeout_ms: number };
type Props = { open: boolean; onClose: () => void };

const { llmTimeoutMsMin: MIN_MS, llmTimeoutMsMax: MAX_MS } = AIBOT_LIMITS;

/**
 * 大模型设置 (company AI settings): an OpenAI-compatible endpoint that may pick a branch when no
 * keyword matched. The stored key never comes back: the form shows 已设置 and offers to clear it.
 */
export const LlmSettingsModal = ({ open, onClose }: Props) => {
  const settings = useAibotSettings(open);
  if (!open) return null;
  if (!settings.data || settings.isFetching) return <Modal open loading title="大模型设置" footer={null} onCancel={onClose} />;
  // a fresh form per opening: a kept form store would show the previous opening's values
  return <SettingsForm data={settings.data} onClose={onClose} />;
};

const SettingsForm = ({ data, onClose }: { data: AibotSettings; onClose: () => void }) => {
  const save = useSaveAibotSettings();
  const [form] = Form.useForm<Values>();
  const [isKeyCleared, setKeyCleared] = useState(false);
  const isEnabled = Form.useWatch('llm_enabled', form);
  const hasKey = data.llm_key_set && !isKeyCleared;
  return (
    <FormModal<Values>
      open
      title="大模型设置"
      name="aibotLlm"
      form={form}
      initialValues={{
        llm_enabled: data.llm_enabled,
        llm_url: data.llm_url,
        llm_model: data.llm_model,
        llm_timeout_ms: data.llm_timeout_ms || 1500,
      }}
      isPending={save.isPending}
      onSubmit={async (v) => {
        const key = v.llm_key?.trim() ?? '';
        await save.mutateAsync({
          llm_enabled: v.llm_enabled,
          llm_url: v.llm_url?.trim() ?? '',
          llm_model: v.llm_model?.trim() ?? '',
          llm_timeout_ms: v.llm_timeout_ms,
          // typed: the new key; cleared: null removes it; otherwise the stored key stays
          llm_key: key !== '' ? key : isKeyCleared ? null : undefined,
        });
        return '保存成功';
      }}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        客户的话没有命中任何关键词时，可请大模型在当前节点的分支中判定意图；超时则按未识别处理。关键词始终优先，不配置也能正常使用。
      </Typography.Paragraph>
      <Form.Item name="llm_enabled" label="启用大模型判定" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="llm_url"
        label="接口地址"
        extra="OpenAI 兼容接口的地址，如 http://10.0.0.5:8000/v1"
        rules={[...(isEnabled ? [requiredRule('请输入接口地址')] : []), zodRule(aibotSettingsBody.shape.llm_url)]}
      >
        <Input maxLength={200} placeholder="http://10.0.0.5:8000/v1" />
      </Form.Item>
      <Form.Item name="llm_model" label="模型名称" rules={isEnabled ? [requiredRule('请输入模型名称')] : []}>
        <Input maxLength={60} placeholder="如 qwen2.5-7b-instruct" />
      </Form.Item>
      <Form.Item label="接口密钥" required={false}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="llm_key" noStyle>
            <Input.Password
              maxLength={200}
              autoComplete="new-password"
              aria-label="接口密钥"
              placeholder={hasKey ? '已设置（留空则保持不变）' : '未设置'}
            />
          </Form.Item>
          {hasKey && (
            <Button onClick={() => setKeyCleared(true)} danger>
              清除密钥
            </Button>
          )}
        </Space.Compact>
        {hasKey && (
          <Tag color="success" style={{ marginTop: 6 }}>
            已设置
          </Tag>
        )}
        {isKeyCleared && <Typography.Text type="warning">保存后将删除已保存的密钥</Typography.Text>}
      </Form.Item>
      <Form.Item
        name="llm_timeout_ms"
        label="超时时间（毫秒）"
        rules={[
          requiredRule('请输入超时时间'),
          { type: 'number', min: MIN_MS, max: MAX_MS, message: `超时时间为${MIN_MS}-${MAX_MS}毫秒` },
        ]}
      >
        <InputNumber step={100} precision={0} style={{ width: 200 }} suffix="ms" />
      </Form.Item>
    </FormModal>
  );
};
