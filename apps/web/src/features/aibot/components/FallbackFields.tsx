import { AIBOT_LIMITS, type FlowFallback, type FlowGraph } from '@crm/contracts';
import { Col, Form, InputNumber, Row } from 'antd';
import { NextNodeSelect } from './NextNodeSelect';
import { PromptInput } from './PromptInput';

type Props = {
  graph: FlowGraph;
  value: FlowFallback;
  onChange: (value: FlowFallback) => void;
  /** 静默 waits for the customer; 未识别 has no wait */
  isSilence: boolean;
  name: string;
};

/** What the bot does on silence or on an answer nothing matched: repeat (or say a prompt), then go on. */
export const FallbackFields = ({ graph, value, onChange, isSilence, name }: Props) => {
  const set = (patch: Partial<FlowFallback>) => onChange({ ...value, ...patch });
  return (
    <Form layout="vertical" component="div">
      <Row gutter={12}>
        {isSilence && (
          <Col span={7}>
            <Form.Item label="等待时长（毫秒）" htmlFor={`${name}-wait`}>
              <InputNumber
                id={`${name}-wait`}
                style={{ width: '100%' }}
                min={AIBOT_LIMITS.silenceMsMin}
                max={AIBOT_LIMITS.silenceMsMax}
                step={500}
                precision={0}
                value={value.wait_ms}
                onChange={(v) => v !== null && set({ wait_ms: v })}
              />
            </Form.Item>
          </Col>
        )}
        <Col span={isSilence ? 5 : 8}>
          <Form.Item label="重复次数" htmlFor={`${name}-repeats`}>
            <InputNumber
              id={`${name}-repeats`}
              style={{ width: '100%' }}
              min={0}
              max={AIBOT_LIMITS.repeatsMax}
              precision={0}
              value={value.repeats}
              onChange={(v) => v !== null && set({ repeats: v })}
            />
          </Form.Item>
        </Col>
        <Col span={isSilence ? 12 : 16}>
          <Form.Item label="重复后进入">
            <NextNodeSelect
              graph={graph}
              value={value.next}
              label={`${name}后进入`}
              nullLabel="挂机"
              onChange={(next) => set({ next })}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="重复时说（留空则重复本节点话术）" style={{ marginBottom: 0 }}>
        <PromptInput value={value.prompt} rows={2} aria-label={`${name}话术`} onChange={(prompt) => set({ prompt })} />
      </Form.Item>
    </Form>
  );
};
