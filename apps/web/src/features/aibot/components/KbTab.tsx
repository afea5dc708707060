import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { AIBOT_LIMITS, type FlowKbEntry, MATCH_MODE_LABEL, MATCH_MODES } from '@crm/contracts';
import { Button, Col, Empty, Form, Input, Row, Select, Typography } from 'antd';
import { uniqueKey } from '../flowEdit';
import { AudioField } from './AudioField';
import { PromptInput } from './PromptInput';

const MATCH_OPTIONS = MATCH_MODES.map((m) => ({ value: m, label: MATCH_MODE_LABEL[m] }));

type Props = { kb: FlowKbEntry[]; onChange: (kb: FlowKbEntry[]) => void; isReadOnly?: boolean };

/** The global knowledge base: a question heard anywhere is answered, then the call goes back where it was. */
export const KbTab = ({ kb, onChange, isReadOnly }: Props) => {
  const set = (i: number, patch: Partial<FlowKbEntry>) => onChange(kb.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  const add = () =>
    onChange([
      ...kb,
      {
        key: uniqueKey(
          'kb',
          kb.map((e) => e.key),
        ),
        question: '',
        match: 'any',
        keywords: [],
        answer: '',
        audio_file_id: null,
      },
    ]);
  return (
    <div>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 12 }}>
        <Typography.Text type="secondary">
          客户在任何节点问到这些问题（未命中当前节点的分支时），机器人回答后回到原来的节点继续。共 {kb.length} 条，最多{' '}
          {AIBOT_LIMITS.kb} 条。
        </Typography.Text>
        <Button type="primary" size="small" icon={<PlusOutlined />} disabled={kb.length >= AIBOT_LIMITS.kb} onClick={add}>
          添加问答
        </Button>
      </div>
      {kb.length === 0 && <Empty description="暂无问答，如：价格多少、在哪里上课、怎么收费" />}
      {kb.map((e, i) => (
        <section
          key={e.key}
          aria-label={`问答${i + 1}`}
          style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 12, marginBottom: 12 }}
        >
          <Form layout="vertical" component="div">
            <Row gutter={12} wrap={false}>
              <Col flex="220px">
                <Form.Item label="问题" required htmlFor={`kb-q-${e.key}`}>
                  <Input
                    id={`kb-q-${e.key}`}
                    value={e.question}
                    maxLength={AIBOT_LIMITS.kbQuestion}
                    placeholder="如：价格多少"
                    onChange={(ev) => set(i, { question: ev.target.value })}
                  />
                </Form.Item>
              </Col>
              <Col flex="120px">
                <Form.Item label="匹配方式">
                  <Select aria-label="匹配方式" value={e.match} options={MATCH_OPTIONS} onChange={(match) => set(i, { match })} />
                </Form.Item>
              </Col>
              <Col flex="auto">
                <Form.Item label="关键词" required>
                  <Select
                    mode="tags"
                    aria-label="问题关键词"
                    value={e.keywords}
                    open={false}
                    suffixIcon={null}
                    tokenSeparators={[',', '，', ' ']}
                    placeholder="输入关键词后回车，如：多少钱、价格"
                    onChange={(v: string[]) =>
                      set(i, { keywords: [...new Set(v.map((k) => k.trim().slice(0, AIBOT_LIMITS.keyword)).filter(Boolean))] })
                    }
                  />
                </Form.Item>
              </Col>
              <Col flex="none">
                <Form.Item label=" ">
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label="删除问答"
                    onClick={() => onChange(kb.filter((_, j) => j !== i))}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item label="回答" required style={{ marginBottom: 8 }}>
              <PromptInput value={e.answer} rows={2} aria-label="回答" onChange={(answer) => set(i, { answer })} />
            </Form.Item>
            <Form.Item label="录音（可选）" style={{ marginBottom: 0 }}>
              <AudioField
                value={e.audio_file_id}
                isReadOnly={isReadOnly}
                onChange={(audio_file_id) => set(i, { audio_file_id })}
              />
            </Form.Item>
          </Form>
        </section>
      ))}
    </div>
  );
};
