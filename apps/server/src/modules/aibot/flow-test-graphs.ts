import type { CustomerTurn, FlowBranch, FlowFallback, FlowGraph, FlowNode } from '@crm/contracts';

/** Small graphs for the engine's and the validator's tests (and the API tests' drafts). */

export const fallbackOf = (f: Partial<FlowFallback> = {}): FlowFallback => ({
  wait_ms: 3000,
  repeats: 0,
  prompt: '',
  next: null,
  ...f,
});

export const nodeOf = (n: Pick<FlowNode, 'key' | 'type'> & Partial<FlowNode>): FlowNode => ({
  name: n.key,
  prompt: `${n.key}话术`,
  audio_file_id: null,
  interrupt: true,
  branches: [],
  silence: fallbackOf(),
  no_match: fallbackOf(),
  ...n,
});

export const branchOf = (b: Pick<FlowBranch, 'key' | 'next'> & Partial<FlowBranch>): FlowBranch => ({
  label: b.key,
  intent: 'custom',
  match: 'any',
  keywords: [],
  digits: [],
  ...b,
});

/**
 * 开场 (open) → 肯定 yes (是/对, key 1) to ask, 否定 no (不是, key 2) to bye, 拒绝 refuse (不需要, key 3) to hangup;
 * ask (normal) → 肯定 (好) to agent, 否定 (不) to bye; agent 转人工, bye 结束, hangup 挂机.
 */
export const sampleGraph = (over: Partial<FlowGraph> = {}): FlowGraph => ({
  nodes: [
    nodeOf({
      key: 'open',
      type: 'start',
      prompt: '您好{客户名称}，我是{坐席姓名}',
      interrupt: false,
      branches: [
        branchOf({ key: 'yes', label: '肯定', intent: 'positive', keywords: ['是', '对'], digits: ['1'], next: 'ask' }),
        branchOf({ key: 'no', label: '否定', intent: 'negative', keywords: ['不是'], digits: ['2'], next: 'bye' }),
        branchOf({ key: 'refuse', label: '拒绝', intent: 'refused', keywords: ['不需要'], digits: ['3'], next: 'hangup' }),
      ],
    }),
    nodeOf({
      key: 'ask',
      type: 'normal',
      prompt: '要试用吗',
      branches: [
        branchOf({ key: 'yes', label: '肯定', intent: 'positive', keywords: ['好'], digits: ['1'], next: 'agent' }),
        branchOf({ key: 'no', label: '否定', intent: 'negative', keywords: ['不'], digits: ['2'], next: 'bye' }),
      ],
    }),
    nodeOf({ key: 'agent', type: 'transfer', prompt: '为您转接' }),
    nodeOf({ key: 'bye', type: 'end', prompt: '再见' }),
    nodeOf({ key: 'hangup', type: 'hangup', prompt: '打扰了' }),
  ],
  kb: [
    {
      key: 'price',
      question: '价格',
      match: 'any',
      keywords: ['多少钱', '价格'],
      answer: '{公司名称}按坐席收费',
      audio_file_id: null,
    },
  ],
  grades: [],
  settings: { max_rounds: 10, max_rounds_prompt: '轮次到了，再见', use_llm: false },
  ...over,
});

/** The same graph with one node changed. */
export const withNode = (graph: FlowGraph, key: string, change: Partial<FlowNode>): FlowGraph => ({
  ...graph,
  nodes: graph.nodes.map((n) => (n.key === key ? { ...n, ...change } : n)),
});

export const say = (text: string): CustomerTurn => ({ kind: 'say', text });
export const key = (digits: string): CustomerTurn => ({ kind: 'digit', digits });
export const silence: CustomerTurn = { kind: 'silence' };
