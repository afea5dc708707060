import {
  FLOW_NODE_TYPE_LABEL,
  FLOW_VARIABLES,
  type FlowGraph,
  type FlowIssue,
  type FlowNode,
  flowVariablesIn,
  isTerminalNode,
} from '@crm/contracts';

/**
 * Paths the designer points at: `nodes`, `nodes.<key>`, `nodes.<key>.branches.<key>`,
 * `nodes.<key>.silence`, `nodes.<key>.no_match`, `kb.<key>`, `grades.<index>`, `settings`.
 */
const nodePath = (n: FlowNode) => `nodes.${n.key}`;
const nodeName = (n: FlowNode) => {
  const type = FLOW_NODE_TYPE_LABEL[n.type];
  return `${type.endsWith('节点') ? type : `${type}节点`}“${n.name}”`;
};
const VARIABLE_LIST = FLOW_VARIABLES.map((v) => `{${v}}`).join('、');

const unknownVariables = (text: string, path: string, where: string): FlowIssue[] =>
  [...new Set(flowVariablesIn(text))]
    .filter((v) => !(FLOW_VARIABLES as readonly string[]).includes(v))
    .map((v) => ({ path, msg: `${where}中的变量{${v}}不存在，可用的变量：${VARIABLE_LIST}` }));

const duplicates = (keys: string[]) => [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];

/** Node keys a node can lead to: its branches, and where silence and no-match go after the repeats. */
export const nextKeysOf = (n: FlowNode): string[] => [
  ...n.branches.map((b) => b.next),
  ...(n.silence.next ? [n.silence.next] : []),
  ...(n.no_match.next ? [n.no_match.next] : []),
];

const checkNode = (n: FlowNode, keys: Set<string>): FlowIssue[] => {
  const issues: FlowIssue[] = [];
  const path = nodePath(n);
  const name = nodeName(n);
  const isTerminal = isTerminalNode(n.type);
  if (!isTerminal && !n.prompt.trim()) issues.push({ path, msg: `请输入${name}的话术` });
  issues.push(...unknownVariables(n.prompt, path, `${name}的话术`));
  if (isTerminal && n.branches.length > 0) {
    issues.push({ path, msg: `${name}会结束通话，不能有分支` });
  }
  if (!isTerminal && n.branches.length === 0 && !n.silence.next && !n.no_match.next) {
    issues.push({ path, msg: `${name}没有分支，也没有静默或未识别后的去向，请添加分支` });
  }
  for (const key of duplicates(n.branches.map((b) => b.key))) {
    issues.push({ path: `${path}.branches.${key}`, msg: `${name}的分支标识“${key}”重复` });
  }
  const digitOwner = new Map<string, string>();
  for (const b of n.branches) {
    const bPath = `${path}.branches.${b.key}`;
    if (b.keywords.length === 0 && b.digits.length === 0) {
      issues.push({ path: bPath, msg: `${name}的分支“${b.label}”请至少设置一个关键词或按键` });
    }
    if (!keys.has(b.next)) issues.push({ path: bPath, msg: `${name}的分支“${b.label}”指向的节点“${b.next}”不存在` });
    for (const d of new Set(b.digits)) {
      const owner = digitOwner.get(d);
      if (owner !== undefined) {
        issues.push({ path: bPath, msg: `${name}的按键“${d}”同时用于分支“${owner}”和“${b.label}”` });
      } else digitOwner.set(d, b.label);
    }
  }
  for (const [what, label] of [
    ['silence', '静默'],
    ['no_match', '未识别'],
  ] as const) {
    const fallback = n[what];
    issues.push(...unknownVariables(fallback.prompt, `${path}.${what}`, `${name}的${label}提示语`));
    if (fallback.next && !keys.has(fallback.next)) {
      issues.push({ path: `${path}.${what}`, msg: `${name}${label}后去往的节点“${fallback.next}”不存在` });
    }
  }
  return issues;
};

/** Nodes not reachable from the 开场 node (following branches and the silence/no-match exits). */
const unreachable = (graph: FlowGraph, start: FlowNode): FlowNode[] => {
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  const seen = new Set([start.key]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as FlowNode;
    for (const key of nextKeysOf(node)) {
      const next = byKey.get(key);
      if (next && !seen.has(key)) {
        seen.add(key);
        queue.push(next);
      }
    }
  }
  return graph.nodes.filter((n) => !seen.has(n.key));
};

/**
 * The cross-field problems of a flow (its shape is the contract's): what must be fixed before it is
 * published. Empty: the flow may be published and walked. Pure.
 */
export const validateFlowGraph = (graph: FlowGraph): FlowIssue[] => {
  const issues: FlowIssue[] = [];
  const starts = graph.nodes.filter((n) => n.type === 'start');
  if (starts.length === 0) issues.push({ path: 'nodes', msg: '缺少开场节点，请添加一个开场节点' });
  if (starts.length > 1) issues.push({ path: 'nodes', msg: `开场节点只能有一个，现有${starts.length}个` });
  for (const key of duplicates(graph.nodes.map((n) => n.key))) {
    issues.push({ path: `nodes.${key}`, msg: `节点标识“${key}”重复` });
  }
  const keys = new Set(graph.nodes.map((n) => n.key));
  for (const n of graph.nodes) issues.push(...checkNode(n, keys));
  if (starts.length === 1) {
    for (const n of unreachable(graph, starts[0])) issues.push({ path: nodePath(n), msg: `${nodeName(n)}从开场无法到达` });
  }
  for (const key of duplicates(graph.kb.map((k) => k.key))) {
    issues.push({ path: `kb.${key}`, msg: `知识库标识“${key}”重复` });
  }
  for (const entry of graph.kb) {
    issues.push(...unknownVariables(entry.answer, `kb.${entry.key}`, `知识库“${entry.question}”的回答`));
  }
  graph.grades.forEach((rule, i) => {
    for (const c of rule.conditions) {
      if (c.kind === 'node' && !keys.has(c.node)) {
        issues.push({ path: `grades.${i}`, msg: `第${i + 1}条${rule.grade}级规则引用的节点“${c.node}”不存在` });
      }
    }
  });
  issues.push(...unknownVariables(graph.settings.max_rounds_prompt, 'settings', '超过最大轮次的结束语'));
  return issues;
};
