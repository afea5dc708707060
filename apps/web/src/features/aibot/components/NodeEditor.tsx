import {
  AIBOT_LIMITS,
  FLOW_NODE_TYPE_LABEL,
  FLOW_NODE_TYPES,
  type FlowGraph,
  type FlowNode,
  type FlowNodeType,
  isTerminalNode,
} from '@crm/contracts';
import { Card, Col, Form, Input, Row, Select, Switch, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { changeNodeType } from '../flowEdit';
import { AudioField } from './AudioField';
import { BranchList } from './BranchList';
import styles from './designer.module.css';
import { FallbackFields } from './FallbackFields';
import { PromptInput } from './PromptInput';

const KEY_RE = /^[a-z][a-z0-9_]{0,19}$/;

type Props = {
  graph: FlowGraph;
  node: FlowNode;
  onChange: (node: FlowNode) => void;
  onRenameKey: (from: string, to: string) => void;
  isReadOnly?: boolean;
};

/** The selected node: its words, recording, 打断, branches and the silence / no-match handling. */
export const NodeEditor = ({ graph, node, onChange, onRenameKey, isReadOnly }: Props) => {
  const set = (patch: Partial<FlowNode>) => onChange({ ...node, ...patch });
  const [keyDraft, setKeyDraft] = useState(node.key);
  useEffect(() => setKeyDraft(node.key), [node.key]);
  const keyError = !KEY_RE.test(keyDraft)
    ? '字母开头的小写字母、数字或下划线，最多20位'
    : keyDraft !== node.key && graph.nodes.some((n) => n.key === keyDraft)
      ? '节点标识已存在'
      : null;
  const hasStart = graph.nodes.some((n) => n.type === 'start' && n.key !== node.key);
  const isTerminal = isTerminalNode(node.type);

  return (
    <div className={styles.editor}>
      <Card size="small" title={`编辑节点：${node.name || node.key}`}>
        <Form layout="vertical" component="div">
          <Row gutter={12}>
            <Col span={9}>
              <Form.Item label="节点名称" required htmlFor="node-name">
                <Input
                  id="node-name"
                  value={node.name}
                  maxLength={AIBOT_LIMITS.nodeName}
                  onChange={(e) => set({ name: e.target.value })}
                />
              </Form.Item>
            </Col>
            <Col span={7}>
              <Form.Item label="节点类型" htmlFor="node-type">
                <Select
                  id="node-type"
                  aria-label="节点类型"
                  value={node.type}
                  disabled={node.type === 'start'}
                  options={FLOW_NODE_TYPES.map((t) => ({
                    value: t,
                    label: FLOW_NODE_TYPE_LABEL[t],
                    disabled: t === 'start' && hasStart,
                  }))}
                  onChange={(t: FlowNodeType) => onChange(changeNodeType(node, t))}
                />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                label="节点标识"
                tooltip="流程内部用来引用该节点的编号（小写字母、数字），一般无需修改；列表和通话记录里显示节点名称"
                htmlFor="node-key"
                validateStatus={keyError ? 'error' : undefined}
                help={keyError ?? undefined}
              >
                <Input
                  id="node-key"
                  value={keyDraft}
                  maxLength={20}
                  onChange={(e) => setKeyDraft(e.target.value.trim())}
                  onBlur={() => {
                    if (!keyError && keyDraft !== node.key) onRenameKey(node.key, keyDraft);
                    else setKeyDraft(node.key);
                  }}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label="机器人话术" htmlFor="node-prompt">
            <PromptInput
              id="node-prompt"
              aria-label="机器人话术"
              value={node.prompt}
              rows={4}
              placeholder={
                node.type === 'transfer'
                  ? '如：好的，这就为您转接专属顾问，请稍候。'
                  : '如：您好，请问是{客户名称}吗？我是{公司名称}的{坐席姓名}……'
              }
              onChange={(prompt) => set({ prompt })}
            />
          </Form.Item>
          <Row gutter={12}>
            <Col span={16}>
              <Form.Item label="录音（替代语音合成）">
                <AudioField
                  value={node.audio_file_id}
                  isReadOnly={isReadOnly}
                  onChange={(audio_file_id) => set({ audio_file_id })}
                />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item label="允许打断" htmlFor="node-interrupt" tooltip="机器人说话时客户开口，是否立即停下来听">
                <Switch id="node-interrupt" checked={node.interrupt} onChange={(interrupt) => set({ interrupt })} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
        {isTerminal ? (
          <Typography.Text type="secondary">
            {FLOW_NODE_TYPE_LABEL[node.type]}节点说完话术后{node.type === 'transfer' ? '将通话转给空闲坐席' : '挂断通话'}
            ，不再等待客户回答。
          </Typography.Text>
        ) : (
          <Tabs
            className={styles.section}
            size="small"
            items={[
              {
                key: 'branches',
                label: `分支（${node.branches.length}）`,
                children: <BranchList graph={graph} node={node} onChange={(branches) => set({ branches })} />,
              },
              {
                key: 'silence',
                label: '静默处理',
                children: (
                  <FallbackFields
                    graph={graph}
                    name="静默"
                    isSilence
                    value={node.silence}
                    onChange={(silence) => set({ silence })}
                  />
                ),
              },
              {
                key: 'no_match',
                label: '未识别处理',
                children: (
                  <FallbackFields
                    graph={graph}
                    name="未识别"
                    isSilence={false}
                    value={node.no_match}
                    onChange={(no_match) => set({ no_match })}
                  />
                ),
              },
            ]}
          />
        )}
      </Card>
    </div>
  );
};
