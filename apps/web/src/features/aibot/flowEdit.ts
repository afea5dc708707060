import {
  FLOW_NODE_TYPE_LABEL,
  type FlowBranch,
  type FlowFallback,
  type FlowGraph,
  type FlowIssue,
  type FlowNode,
  type FlowNodeType,
  flowGraph,
  INTENT_LABEL,
  type Intent,
  isTerminalNode,
} from '@crm/contracts';

// Pure editing of a 话术 graph for the designer: every change returns a new graph, so the page
// keeps one state value and compares it with what was saved.

const KEY_PREFIX: Record<FlowNodeType, string> = {
  start: 'start',
  normal: 'node',
  transfer: 'transfer',
  hangup: 'hangup',
  end: 'end',
};

/** The first `prefix_n` (or `prefix` itself when free) not in `taken`; keys stay within the contract's 20 characters. */
export const uniqueKey = (prefix: string, taken: Iterable<string>): string => {
  const used = new Set(taken);
  const base = prefix.slice(0, 15);
  if (!used.has(base)) return base;
  for (let n = 1; ; n++) if (!used.has(`${base}_${n}`)) return `${base}_${n}`;
};

const fallback = (wait_ms: number): FlowFallback => ({ wait_ms, repeats: 1, prompt: '', next: null });

export const newNode = (type: FlowNodeType, graph: FlowGraph): FlowNode => {
  const key = uniqueKey(
    KEY_PREFIX[type],
    graph.nodes.map((n) => n.key),
  );
  const sameType = graph.nodes.filter((n) => n.type === type).length;
  return {
    key,
    type,
    name: sameType === 0 ? FLOW_NODE_TYPE_LABEL[type] : `${FLOW_NODE_TYPE_LABEL[type]}${sameType + 1}`,
    prompt: '',
    audio_file_id: null,
    interrupt: true,
    branches: [],
    silence: fallback(5000),
    no_match: fallback(5000),
  };
};

/** 开场 always first in the list and in the saved graph (the engine starts there). */
export const startFirst = (nodes: FlowNode[]): FlowNode[] => [
  ...nodes.filter((n) => n.type === 'start'),
  ...nodes.filter((n) => n.type !== 'start'),
];

export const addNode = (graph: FlowGraph, type: FlowNodeType): { graph: FlowGraph; key: string } => {
  const node = newNode(type, graph);
  return { graph: { ...graph, nodes: startFirst([...graph.nodes, node]) }, key: node.key };
};

export const updateNode = (graph: FlowGraph, key: string, change: (n: FlowNode) => FlowNode): FlowGraph => ({
  ...graph,
  nodes: startFirst(graph.nodes.map((n) => (n.key === key ? change(n) : n))),
});

/** How many branches, fallbacks and grade conditions name a node. */
export const referencesTo = (graph: FlowGraph, key: string): number => {
  let count = 0;
  for (const n of graph.nodes) {
    if (n.key === key) continue;
    count += n.branches.filter((b) => b.next === key).length;
    if (n.silence.next === key) count++;
    if (n.no_match.next === key) count++;
  }
  for (const rule of graph.grades) count += rule.conditions.filter((c) => c.kind === 'node' && c.node === key).length;
  return count;
};

/**
 * Deletes a node. Branches that led to it keep pointing at the missing key on purpose: the
 * server lists each as an issue and the designer jumps to it, rather than silently rerouting.
 */
export const removeNode = (graph: FlowGraph, key: string): FlowGraph => ({
  ...graph,
  nodes: graph.nodes.filter((n) => n.key !== key),
});

/** Renames a node key and every reference to it (branches, fallbacks, grade conditions). */
export const renameNodeKey = (graph: FlowGraph, from: string, to: string): FlowGraph => {
  const swap = (k: string) => (k === from ? to : k);
  return {
    ...graph,
    nodes: graph.nodes.map((n) => ({
      ...n,
      key: swap(n.key),
      branches: n.branches.map((b) => ({ ...b, next: swap(b.next) })),
      silence: { ...n.silence, next: n.silence.next === null ? null : swap(n.silence.next) },
      no_match: { ...n.no_match, next: n.no_match.next === null ? null : swap(n.no_match.next) },
    })),
    grades: graph.grades.map((r) => ({
      ...r,
      conditions: r.conditions.map((c) => (c.kind === 'node' ? { ...c, node: swap(c.node) } : c)),
    })),
  };
};

/** A terminal node (转人工 / 挂机 / 结束) listens no more: its branches go. */
export const changeNodeType = (node: FlowNode, type: FlowNodeType): FlowNode => ({
  ...node,
  type,
  branches: isTerminalNode(type) ? [] : node.branches,
});

/** A new branch of an intent, leading to the first other node (the admin picks the right one). */
export const newBranch = (graph: FlowGraph, node: FlowNode, intent: Intent): FlowBranch => {
  const target = graph.nodes.find((n) => n.key !== node.key && n.type !== 'start') ?? node;
  return {
    key: uniqueKey(
      'b',
      node.branches.map((b) => b.key),
    ),
    label: intent === 'custom' ? '自定义' : INTENT_LABEL[intent],
    intent,
    match: 'any',
    keywords: [],
    digits: [],
    next: target.key,
  };
};

/** Inserts `{name}` at the caret (or the end) and returns the text and the caret after it. */
export const insertVariable = (text: string, name: string, caret?: number | null): { text: string; caret: number } => {
  const at = caret === undefined || caret === null || caret < 0 || caret > text.length ? text.length : caret;
  const token = `{${name}}`;
  return { text: text.slice(0, at) + token + text.slice(at), caret: at + token.length };
};

/** Moves an item of a list (grade rules are tried in order). */
export const moveItem = <T>(list: T[], from: number, to: number): T[] => {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
};

/** The contract's own checks of a graph (field lengths, required texts, key shapes) before anything is sent. */
export const clientIssues = (graph: FlowGraph): FlowIssue[] => {
  const result = flowGraph.safeParse(graph);
  if (result.success) return [];
  return result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), msg: i.message }));
};

export type DesignerTab = 'nodes' | 'kb' | 'grades' | 'settings';
export type IssueTarget = { tab: DesignerTab; nodeKey?: string; label: string };

const segmentsOf = (path: string) => path.split(/[.[\]/:]+/).filter(Boolean);

/**
 * Where an issue points: its tab, its node and a readable place. Paths name nodes by index
 * (`nodes.2.branches.0.next`, the client's own checks) or by key (`nodes.start.…`, the server's).
 */
export const issueTarget = (path: string, graph: FlowGraph): IssueTarget => {
  const seg = segmentsOf(path);
  const at = (name: string) => seg.indexOf(name);
  const nodeAt = (s: string | undefined) =>
    s === undefined ? undefined : /^\d+$/.test(s) ? graph.nodes[Number(s)] : graph.nodes.find((n) => n.key === s);
  if (seg[0] === 'kb') {
    const i = seg[1];
    const entry = i === undefined ? undefined : /^\d+$/.test(i) ? graph.kb[Number(i)] : graph.kb.find((e) => e.key === i);
    return { tab: 'kb', label: entry ? `知识库「${entry.question || entry.key}」` : '知识库' };
  }
  if (seg[0] === 'grades') {
    const i = Number(seg[1]);
    return { tab: 'grades', label: Number.isInteger(i) ? `意向等级规则 ${i + 1}` : '意向等级规则' };
  }
  if (seg[0] === 'settings') return { tab: 'settings', label: '设置' };
  const node =
    at('nodes') >= 0 ? nodeAt(seg[at('nodes') + 1]) : seg.map((s) => graph.nodes.find((n) => n.key === s)).find(Boolean);
  if (!node) return { tab: 'nodes', label: seg[0] === 'nodes' ? '流程节点' : '话术' };
  const b = at('branches');
  const branch =
    b >= 0
      ? /^\d+$/.test(seg[b + 1] ?? '')
        ? node.branches[Number(seg[b + 1])]
        : node.branches.find((x) => x.key === seg[b + 1])
      : undefined;
  const part = branch
    ? ` · 分支「${branch.label || branch.key}」`
    : seg.includes('silence')
      ? ' · 静默处理'
      : seg.includes('no_match')
        ? ' · 未识别处理'
        : '';
  return { tab: 'nodes', nodeKey: node.key, label: `节点「${node.name || node.key}」${part}` };
};

export const sameGraph = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
