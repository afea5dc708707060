import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AIBOT_LIMITS,
  FLOW_NODE_TYPE_LABEL,
  type FlowGraph,
  GRADE_COUNTER_LABEL,
  GRADE_COUNTERS,
  GRADE_LABEL,
  GRADE_OPS,
  type GradeCondition,
  type GradeRule,
} from '@crm/contracts';
import { Alert, Button, Empty, Input, InputNumber, Select, Space, Tag, Typography } from 'antd';
import { moveItem } from '../flowEdit';

const GRADE_OPTIONS = (['A', 'B', 'C', 'D'] as const).map((g) => ({ value: g, label: GRADE_LABEL[g] }));
const JOIN_OPTIONS = [
  { value: 'all', label: '满足全部条件' },
  { value: 'any', label: '满足任一条件' },
];
const KIND_OPTIONS = [
  { value: 'counter', label: '通话计数' },
  { value: 'node', label: '到达节点' },
  { value: 'keyword', label: '听到关键词' },
];
export const GRADE_COLOR: Record<string, string> = { A: 'red', B: 'orange', C: 'gold', D: 'default', E: 'default' };

const newCondition = (kind: GradeCondition['kind'], graph: FlowGraph): GradeCondition =>
  kind === 'counter'
    ? { kind, counter: 'positive', op: '>=', value: 1 }
    : kind === 'node'
      ? { kind, node: graph.nodes[0]?.key ?? 'start' }
      : { kind, keyword: '' };

type Props = { graph: FlowGraph; onChange: (grades: GradeRule[]) => void };

const ConditionFields = ({
  graph,
  cond,
  onChange,
}: {
  graph: FlowGraph;
  cond: GradeCondition;
  onChange: (c: GradeCondition) => void;
}) => {
  if (cond.kind === 'counter')
    return (
      <>
        <Select
          aria-label="计数项"
          style={{ width: 150 }}
          value={cond.counter}
          options={GRADE_COUNTERS.map((c) => ({ value: c, label: GRADE_COUNTER_LABEL[c] }))}
          onChange={(counter) => onChange({ ...cond, counter })}
        />
        <Select
          aria-label="比较"
          style={{ width: 72 }}
          value={cond.op}
          options={GRADE_OPS.map((o) => ({ value: o, label: o }))}
          onChange={(op) => onChange({ ...cond, op })}
        />
        <InputNumber
          aria-label="数值"
          min={0}
          max={86_400}
          precision={0}
          value={cond.value}
          onChange={(v) => v !== null && onChange({ ...cond, value: v })}
        />
      </>
    );
  if (cond.kind === 'node') {
    const isMissing = !graph.nodes.some((n) => n.key === cond.node);
    return (
      <Select
        aria-label="节点"
        style={{ width: 240 }}
        status={isMissing ? 'error' : undefined}
        value={cond.node}
        options={[
          ...graph.nodes.map((n) => ({ value: n.key, label: `${n.name}（${FLOW_NODE_TYPE_LABEL[n.type]}）` })),
          ...(isMissing ? [{ value: cond.node, label: `不存在的节点 ${cond.node}` }] : []),
        ]}
        onChange={(node: string) => onChange({ ...cond, node })}
      />
    );
  }
  return (
    <Input
      aria-label="关键词"
      style={{ width: 200 }}
      maxLength={AIBOT_LIMITS.keyword}
      value={cond.keyword}
      placeholder="客户说过的词"
      onChange={(e) => onChange({ ...cond, keyword: e.target.value })}
    />
  );
};

/** 意向等级规则: tried top to bottom, the first that holds gives the grade; none: D. E is kept for calls not connected. */
export const GradesTab = ({ graph, onChange }: Props) => {
  const rules = graph.grades;
  const set = (i: number, rule: GradeRule) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <div>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title="规则从上到下依次判断，第一条满足的规则决定意向等级；都不满足为 D。E 表示未接通，由系统自动标记，不参与规则。"
      />
      {rules.length === 0 && <Empty description="暂无规则，所有接通的通话都为 D" />}
      {rules.map((rule, i) => (
        <section
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; their place in the order is what they are
          key={i}
          aria-label={`规则${i + 1}`}
          style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 12, marginBottom: 12 }}
        >
          <Space wrap style={{ marginBottom: 8 }}>
            <Typography.Text strong>规则 {i + 1}</Typography.Text>
            <Select
              aria-label="等级"
              style={{ width: 130 }}
              value={rule.grade}
              options={GRADE_OPTIONS}
              onChange={(grade) => set(i, { ...rule, grade })}
            />
            <Select
              aria-label="条件关系"
              style={{ width: 130 }}
              value={rule.join}
              options={JOIN_OPTIONS}
              onChange={(join) => set(i, { ...rule, join })}
            />
            <Button
              size="small"
              icon={<ArrowUpOutlined />}
              aria-label="上移"
              disabled={i === 0}
              onClick={() => onChange(moveItem(rules, i, i - 1))}
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined />}
              aria-label="下移"
              disabled={i === rules.length - 1}
              onClick={() => onChange(moveItem(rules, i, i + 1))}
            />
            <Button
              size="small"
              danger
              type="text"
              icon={<DeleteOutlined />}
              onClick={() => onChange(rules.filter((_, j) => j !== i))}
            >
              删除规则
            </Button>
          </Space>
          {rule.conditions.map((cond, ci) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id either
            <Space key={ci} style={{ display: 'flex', marginBottom: 6 }} wrap>
              <Tag>{ci === 0 ? '当' : rule.join === 'all' ? '并且' : '或者'}</Tag>
              <Select
                aria-label="条件类型"
                style={{ width: 120 }}
                value={cond.kind}
                options={KIND_OPTIONS}
                onChange={(kind: GradeCondition['kind']) =>
                  set(i, { ...rule, conditions: rule.conditions.map((c, j) => (j === ci ? newCondition(kind, graph) : c)) })
                }
              />
              <ConditionFields
                graph={graph}
                cond={cond}
                onChange={(c) => set(i, { ...rule, conditions: rule.conditions.map((x, j) => (j === ci ? c : x)) })}
              />
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label="删除条件"
                disabled={rule.conditions.length <= 1}
                onClick={() => set(i, { ...rule, conditions: rule.conditions.filter((_, j) => j !== ci) })}
              />
            </Space>
          ))}
          <Button
            size="small"
            type="dashed"
            icon={<PlusOutlined />}
            disabled={rule.conditions.length >= AIBOT_LIMITS.conditions}
            onClick={() => set(i, { ...rule, conditions: [...rule.conditions, newCondition('counter', graph)] })}
          >
            添加条件
          </Button>
        </section>
      ))}
      <Button
        type="dashed"
        block
        icon={<PlusOutlined />}
        disabled={rules.length >= AIBOT_LIMITS.gradeRules}
        onClick={() => onChange([...rules, { grade: 'B', join: 'all', conditions: [newCondition('counter', graph)] }])}
      >
        添加规则
      </Button>
    </div>
  );
};
