import {
  type CallSettingsInfo,
  TEST_PROMPT_MAX,
  type TestCallBody,
  type TestCallEvent,
  type TestCallStatus,
  testCallBody,
} from '@crm/contracts';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { requiredRule, zodRule } from '../../../components/formRules';
import { useButtonLock } from '../../../components/useButtonLock';
import { useStartTestCall, useTestCall } from '../api';

const STATE_COLOR: Record<TestCallStatus['state'], string> = {
  calling: 'processing',
  ringing: 'processing',
  answered: 'success',
  ended: 'default',
};
const EVENT_COLOR: Record<TestCallEvent['kind'], string> = {
  created: 'blue',
  ringing: 'blue',
  answered: 'green',
  playing: 'green',
  played: 'green',
  digits: 'purple',
  ended: 'gray',
};
const SIM_HINT = '当前为模拟线路，不会真正拨出：号码尾数 1–4 接通，5 持续振铃，6 忙，7 空号，8 关机，9 无人接听，0 拒接。';
const DEFAULT_PROMPT = '您好，这是云呼外呼线路测试，听到这段语音说明线路正常，感谢接听。';

/** 线路测试: a test call that plays the prompt once answered, then hangs up; its leg shown live. */
export const TestCallCard = ({ settings }: { settings: CallSettingsInfo }) => {
  const [form] = Form.useForm<TestCallBody>();
  const [uuid, setUuid] = useState<string>();
  const start = useStartTestCall();
  const { data: status } = useTestCall(uuid);
  const isRunning = Boolean(uuid) && status?.state !== 'ended';
  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      const { uuid: placed } = await start.mutateAsync({ number: values.number.trim(), prompt: values.prompt.trim() });
      setUuid(placed);
    } catch {
      // the server's refusal (hours, blacklist, speech) is shown by the request layer
    }
  });

  return (
    <Card title="线路测试">
      {!settings.isSpeechAvailable && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="语音合成不可用"
          description="服务器的语音合成程序无法运行，无法合成提示语，线路测试不可用。请检查 SPEECH_TTS 配置（见 README）。"
        />
      )}
      {settings.line === 'sim' && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={SIM_HINT} />}
      <div style={{ display: 'flex', gap: 32, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <Form
          form={form}
          name="testCallForm"
          layout="vertical"
          initialValues={{ number: '', prompt: DEFAULT_PROMPT }}
          style={{ flex: '1 1 360px', maxWidth: 480 }}
        >
          <Form.Item label="测试号码" name="number" rules={[requiredRule('请输入测试号码'), zodRule(testCallBody.shape.number)]}>
            <Input placeholder="接听测试的手机号或座机号" maxLength={20} allowClear />
          </Form.Item>
          <Form.Item
            label="提示语"
            name="prompt"
            rules={[requiredRule('请输入提示语'), zodRule(testCallBody.shape.prompt)]}
            extra="接通后播放这段语音（语音合成），播放完毕自动挂断"
          >
            <Input.TextArea rows={3} maxLength={TEST_PROMPT_MAX} showCount />
          </Form.Item>
          <Button
            type="primary"
            onClick={submit}
            loading={start.isPending}
            disabled={isLocked || isRunning || !settings.isSpeechAvailable}
          >
            试呼
          </Button>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            试呼遵守外呼时段与黑名单，通话会出现在通话记录中。同一时间只能进行一通线路测试。
          </Typography.Paragraph>
        </Form>
        <div style={{ flex: '1 1 360px', minWidth: 320 }} data-testid="test-call-progress">
          {!status ? (
            <Empty description="尚未试呼" image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <>
              <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
                <Descriptions.Item label="号码">{status.number}</Descriptions.Item>
                <Descriptions.Item label="状态">
                  <Tag color={STATE_COLOR[status.state]} style={{ marginRight: 8 }}>
                    {status.stateName}
                  </Tag>
                  {status.hangupCauseName && <Typography.Text type="secondary">{status.hangupCauseName}</Typography.Text>}
                </Descriptions.Item>
                {status.state === 'ended' && <Descriptions.Item label="通话时长">{status.billsec} 秒</Descriptions.Item>}
              </Descriptions>
              <Timeline
                items={[
                  ...status.events.map((e) => ({
                    key: `${e.kind}-${e.at}`,
                    color: EVENT_COLOR[e.kind],
                    content: (
                      <span>
                        {e.text}
                        {e.at && (
                          <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                            {e.at.slice(11)}
                          </Typography.Text>
                        )}
                      </span>
                    ),
                  })),
                  ...(isRunning ? [{ key: 'pending', loading: true, content: '进行中…' }] : []),
                ]}
              />
            </>
          )}
        </div>
      </div>
    </Card>
  );
};
