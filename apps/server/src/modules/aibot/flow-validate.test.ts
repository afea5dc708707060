import { flowGraph } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { starterGraph } from './flow-starter';
import { branchOf, fallbackOf, nodeOf, sampleGraph, withNode } from './flow-test-graphs';
import { validateFlowGraph } from './flow-validate';

const paths = (g: Parameters<typeof validateFlowGraph>[0]) => validateFlowGraph(g).map((i) => i.path);

describe('validateFlowGraph', () => {
  it('the starter graph and the sample graph are valid (and fit the contract)', () => {
    expect(validateFlowGraph(starterGraph())).toEqual([]);
    expect(validateFlowGraph(sampleGraph())).toEqual([]);
    expect(flowGraph.safeParse(starterGraph()).success).toBe(true);
  });

  it('exactly one 开场 node', () => {
    const none = sampleGraph();
    none.nodes[0] = { ...none.nodes[0], type: 'normal' };
    expect(validateFlowGraph(none)[0]).toEqual({ path: 'nodes', msg: '缺少开场节点，请添加一个开场节点' });
    const two = sampleGraph();
    two.nodes[1] = { ...two.nodes[1], type: 'start' };
    expect(validateFlowGraph(two)).toEqual([{ path: 'nodes', msg: '开场节点只能有一个，现有2个' }]);
  });

  it('unique node, branch and knowledge-base keys', () => {
    const g = sampleGraph();
    g.nodes.push(nodeOf({ key: 'bye', type: 'end' }));
    g.nodes[1].branches.push(branchOf({ key: 'yes', keywords: ['行'], next: 'agent' }));
    g.kb.push({ ...g.kb[0] });
    expect(validateFlowGraph(g)).toEqual([
      { path: 'nodes.bye', msg: '节点标识“bye”重复' },
      { path: 'nodes.ask.branches.yes', msg: '普通节点“ask”的分支标识“yes”重复' },
      { path: 'kb.price', msg: '知识库标识“price”重复' },
    ]);
  });

  it('every next points at a node: branches, silence and no-match', () => {
    let g = withNode(sampleGraph(), 'ask', {
      silence: fallbackOf({ next: 'nowhere' }),
      no_match: fallbackOf({ next: 'bye' }),
    });
    g = withNode(g, 'open', { branches: [branchOf({ key: 'yes', label: '肯定', keywords: ['是'], next: 'gone' })] });
    expect(validateFlowGraph(g)).toEqual([
      { path: 'nodes.open.branches.yes', msg: '开场节点“open”的分支“肯定”指向的节点“gone”不存在' },
      { path: 'nodes.ask.silence', msg: '普通节点“ask”静默后去往的节点“nowhere”不存在' },
      // nothing leads from 开场 to the rest any more
      ...['ask', 'agent', 'bye', 'hangup'].map((k) => ({ path: `nodes.${k}`, msg: expect.stringContaining('从开场无法到达') })),
    ]);
  });

  it('terminal nodes have no branches; other nodes need a branch or a way on', () => {
    let g = withNode(sampleGraph(), 'agent', { branches: [branchOf({ key: 'b', keywords: ['好'], next: 'bye' })] });
    expect(validateFlowGraph(g)).toEqual([{ path: 'nodes.agent', msg: '转人工节点“agent”会结束通话，不能有分支' }]);
    g = withNode(sampleGraph(), 'ask', { branches: [] });
    expect(paths(g)).toEqual(['nodes.ask', 'nodes.agent']);
    expect(validateFlowGraph(g)[0].msg).toBe('普通节点“ask”没有分支，也没有静默或未识别后的去向，请添加分支');
    // a silence or no-match exit alone is a way on
    expect(validateFlowGraph(withNode(g, 'ask', { no_match: fallbackOf({ next: 'agent' }) }))).toEqual([]);
  });

  it('a branch needs keywords or digits; one digit for one branch of a node', () => {
    const g = withNode(sampleGraph(), 'ask', {
      branches: [
        branchOf({ key: 'a', label: '甲', next: 'agent' }),
        branchOf({ key: 'b', label: '乙', digits: ['1', '2'], next: 'bye' }),
        branchOf({ key: 'c', label: '丙', digits: ['2'], next: 'bye' }),
      ],
    });
    expect(validateFlowGraph(g)).toEqual([
      { path: 'nodes.ask.branches.a', msg: '普通节点“ask”的分支“甲”请至少设置一个关键词或按键' },
      { path: 'nodes.ask.branches.c', msg: '普通节点“ask”的按键“2”同时用于分支“乙”和“丙”' },
    ]);
    // the same digit in two different nodes is fine
    expect(validateFlowGraph(sampleGraph())).toEqual([]);
  });

  it('unknown variables in prompts, fallbacks, answers and the goodbye', () => {
    let g = withNode(sampleGraph(), 'open', { prompt: '{客户名称}您好，{产品}了解一下' });
    g = withNode(g, 'ask', { no_match: fallbackOf({ prompt: '{姓名}？' }) });
    g = { ...g, kb: [{ ...g.kb[0], answer: '{价格}元' }], settings: { ...g.settings, max_rounds_prompt: '{再见}' } };
    const issues = validateFlowGraph(g);
    expect(issues.map((i) => i.path)).toEqual(['nodes.open', 'nodes.ask.no_match', 'kb.price', 'settings']);
    expect(issues[0].msg).toBe(
      '开场节点“open”的话术中的变量{产品}不存在，可用的变量：{客户名称}、{联系人}、{坐席姓名}、{公司名称}',
    );
  });

  it('a 开场 or normal node needs words; a terminal node may be silent', () => {
    const g = withNode(withNode(sampleGraph(), 'ask', { prompt: '  ' }), 'bye', { prompt: '' });
    expect(validateFlowGraph(g)).toEqual([{ path: 'nodes.ask', msg: '请输入普通节点“ask”的话术' }]);
  });

  it('nodes unreachable from 开场', () => {
    const g = sampleGraph();
    g.nodes.push(nodeOf({ key: 'island', type: 'end', name: '孤岛' }));
    expect(validateFlowGraph(g)).toEqual([{ path: 'nodes.island', msg: '结束节点“孤岛”从开场无法到达' }]);
  });

  it('grade rules may name only nodes that exist', () => {
    const g = sampleGraph({
      grades: [
        { grade: 'A', join: 'all', conditions: [{ kind: 'node', node: 'agent' }] },
        { grade: 'B', join: 'any', conditions: [{ kind: 'node', node: 'gone' }] },
      ],
    });
    expect(validateFlowGraph(g)).toEqual([{ path: 'grades.1', msg: '第2条B级规则引用的节点“gone”不存在' }]);
  });
});
