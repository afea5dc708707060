import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AIBOT_LIMITS,
  type FlowBranch,
  type FlowGraph,
  type FlowNode,
  INTENT_LABEL,
  INTENTS,
  type Intent,
  MATCH_MODE_LABEL,
  MATCH_MODES,
} from '@crm/contracts';
import { Button, Col, Dropdown, Empty, Input, Row, Select, Tag, Typography } from 'antd';
import { newBranch } from '../flowEdit';
import { NextNodeSelect } from './NextNodeSelect';

const INTENT_COLOR: Record<Intent, string> = { positive: 'green', negative: 'orange', refused: 'red', custom: 'blue' };
const INTENT_OPTIONS = INTENTS.map((i) => ({ value: i, label: INTENT_LABEL[i] }));
const MATCH_OPTIONS = MATCH_MODES.map((m) => ({ value: m, label: MATCH_MODE_LABEL[m] }));
const DIGIT_OPTIONS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '*', '#'].map((d) => ({ value: d, label: d }));

type Props = { graph: FlowGraph; node: FlowNode; onChange: (branches: FlowBranch[]) => void };

/** A node's branches: what the customer says (keywords) or keys (digits), and where the call goes. */
export const BranchList = ({ graph, node, onChange }: Props) => {
  const set = (i: number, patch: Partial<FlowBranch>) =>
    onChange(node.branches.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  const isFull = node.branches.length >= AIBOT_LIMITS.branches;
  return (
    <div>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12, marginBottom: 8 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          关键词按 否定 → 拒绝 → 自定义 → 肯定 的顺序匹配，按键直接命中；都未命中时先查知识库，再按未识别处理。
        </Typography.Text>
        <Dropdown
          disabled={isFull}
          menu={{
            items: INTENT_OPTIONS.map((o) => ({ key: o.value, label: `${o.label}分支` })),
            onClick: ({ key }) => onChange([...node.branches, newBranch(graph, node, key as Intent)]),
          }}
        >
          <Button size="small" icon={<PlusOutlined />}>
            添加分支
          </Button>
        </Dropdown>
      </div>
      {node.branches.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无分支，客户的回答都按未识别处理" />
      )}
      {node.branches.map((b, i) => (
        <section
          key={b.key}
          data-branch={b.key}
          aria-label={`分支${i + 1}`}
          style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: '10px 12px', marginBottom: 8 }}
        >
          <Row gutter={8} align="middle" wrap={false}>
            <Col flex="none">
              <Tag color={INTENT_COLOR[b.intent]}>{i + 1}</Tag>
            </Col>
            <Col flex="110px">
              <Input
                aria-label="分支名称"
                value={b.label}
                maxLength={AIBOT_LIMITS.branchLabel}
                placeholder="分支名称"
                onChange={(e) => set(i, { label: e.target.value })}
              />
            </Col>
            <Col flex="96px">
              <Select
                aria-label="意图"
                style={{ width: '100%' }}
                value={b.intent}
                options={INTENT_OPTIONS}
                onChange={(v) => set(i, { intent: v })}
              />
            </Col>
            <Col flex="112px">
              <Select
                aria-label="匹配方式"
                style={{ width: '100%' }}
                value={b.match}
                options={MATCH_OPTIONS}
                onChange={(v) => set(i, { match: v })}
              />
            </Col>
            <Col flex="auto">
              <NextNodeSelect
                graph={graph}
                value={b.next}
                label="下一节点"
                prefix="→ "
                onChange={(v) => v !== null && set(i, { next: v })}
              />
            </Col>
            <Col flex="none">
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label="删除分支"
                onClick={() => onChange(node.branches.filter((_, j) => j !== i))}
              />
            </Col>
          </Row>
          <Row gutter={8} style={{ marginTop: 8 }}>
            <Col flex="auto">
              <Select
                mode="tags"
                aria-label="关键词"
                style={{ width: '100%' }}
                value={b.keywords}
                tokenSeparators={[',', '，', ' ']}
                maxCount={AIBOT_LIMITS.keywords}
                placeholder="输入关键词后回车，如：有兴趣、可以、好的"
                open={false}
                suffixIcon={null}
                onChange={(v: string[]) =>
                  set(i, { keywords: [...new Set(v.map((k) => k.trim().slice(0, AIBOT_LIMITS.keyword)).filter(Boolean))] })
                }
              />
            </Col>
            <Col flex="200px">
              <Select
                mode="multiple"
                aria-label="按键"
                style={{ width: '100%' }}
                value={b.digits}
                options={DIGIT_OPTIONS}
                placeholder="按键（可选）"
                onChange={(v: string[]) => set(i, { digits: v })}
              />
            </Col>
          </Row>
        </section>
      ))}
    </div>
  );
};
