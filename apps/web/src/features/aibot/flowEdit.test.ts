import type { FlowGraph, FlowNode } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import {
  addNode,
  changeNodeType,
  clientIssues,
  insertVariable,
  issueTarget,
  moveItem,
  newBranch,
  referencesTo,
  removeNode,
  renameNodeKey,
  uniqueKey,
  updateNode,
} from './flowEdit';

const node = (key: string, type: FlowNode['type'], name: string, patch: Partial<FlowNode> = {}): FlowNode => ({
  key,
  type,
  name,
  prompt: '',
  audio_file_id: null,
  interrupt: true,
  branches: [],
  silence: { wait_ms: 5000, repeats: 1, prompt: '', next: null },
  no_match: { wait_ms: 5000, repeats: 1, prompt: '', next: null },
  ...patch,
});

/** 开场 → (肯定: 有兴趣 / 1) 介绍 → 结束; 开场's silence goes to 结束; a grade rule names 介绍. */
const graph = (): FlowGraph => ({
  nodes: [
    node('start', 'start', '开场', {
      prompt: '您好{客户名称}',
      branches: [
        { key: 'b', label: '肯定', intent: 'positive', match: 'any', keywords: ['有兴趣'], digits: ['1'], next: 'intro' },
      ],
      silence: { wait_ms: 5000, repeats: 1, prompt: '', next: 'end' },
    }),
    node('intro', 'normal', '介绍', {
      branches: [{ key: 'b', label: '好', intent: 'positive', match: 'any', keywords: ['好'], digits: [], next: 'end' }],
    }),
    node('end', 'end', '结束'),
  ],
  kb: [{ key: 'kb', question: '价格', match: 'any', keywords: ['多少钱'], answer: '九百九', audio_file_id: null }],
  grades: [{ grade: 'A', join: 'all', conditions: [{ kind: 'node', node: 'intro' }] }],
  settings: { max_rounds: 10, max_rounds_prompt: '再见', use_llm: false },
});

describe('uniqueKey', () => {
  it('takes the prefix when free, then the first free number', () => {
    expect(uniqueKey('node', [])).toBe('node');
    expect(uniqueKey('node', ['node', 'node_1', 'node_3'])).toBe('node_2');
  });
  it('keeps keys within the contract’s 20 characters', () => {
    const key = uniqueKey('abcdefghijklmnopqrstuvwxyz', ['abcdefghijklmno']);
    expect(key).toBe('abcdefghijklmno_1');
    expect(key.length).toBeLessThanOrEqual(20);
  });
});

describe('adding and changing nodes', () => {
  it('adds a node with a fresh key and numbered name, 开场 staying first', () => {
    const g = addNode(graph(), 'end');
    expect(g.key).toBe('end_1');
    expect(g.graph.nodes.map((n) => n.name)).toEqual(['开场', '介绍', '结束', '结束2']);
    const moved = updateNode(g.graph, 'start', (n) => n);
    expect(moved.nodes[0].key).toBe('start');
  });

  it('a graph with a new node still passes the contract checks', () => {
    expect(clientIssues(addNode(graph(), 'normal').graph)).toEqual([]);
  });

  it('turning a node into a terminal one drops its branches; back to normal keeps what it has', () => {
    const intro = graph().nodes[1];
    expect(changeNodeType(intro, 'transfer').branches).toEqual([]);
    expect(changeNodeType(intro, 'normal').branches).toHaveLength(1);
  });

  it('a new branch leads to the first node that is not 开场 and gets a free key', () => {
    const g = graph();
    const b = newBranch(g, g.nodes[0], 'refused');
    expect(b).toMatchObject({ key: 'b_1', label: '拒绝', intent: 'refused', next: 'intro', keywords: [], digits: [] });
    expect(newBranch(g, g.nodes[1], 'custom').next).toBe('end');
  });
});

describe('deleting and renaming nodes', () => {
  it('counts the branches, fallbacks and grade conditions that name a node', () => {
    expect(referencesTo(graph(), 'end')).toBe(2);
    expect(referencesTo(graph(), 'intro')).toBe(2);
    expect(referencesTo(graph(), 'start')).toBe(0);
  });

  it('deleting leaves the links dangling for the server to list, not silently rerouted', () => {
    const g = removeNode(graph(), 'intro');
    expect(g.nodes.map((n) => n.key)).toEqual(['start', 'end']);
    expect(g.nodes[0].branches[0].next).toBe('intro');
  });

  it('renaming a key rewrites every reference and nothing else', () => {
    const g = renameNodeKey(graph(), 'end', 'bye');
    expect(g.nodes.map((n) => n.key)).toEqual(['start', 'intro', 'bye']);
    expect(g.nodes[0].silence.next).toBe('bye');
    expect(g.nodes[0].no_match.next).toBeNull();
    expect(g.nodes[1].branches[0].next).toBe('bye');
    expect(g.nodes[0].branches[0].next).toBe('intro');
    expect(referencesTo(g, 'bye')).toBe(2);
  });
});

describe('insertVariable', () => {
  it('inserts at the caret and moves the caret after the variable', () => {
    expect(insertVariable('您好，', '客户名称', 3)).toEqual({ text: '您好，{客户名称}', caret: 9 });
    expect(insertVariable('我是的', '坐席姓名', 2)).toEqual({ text: '我是{坐席姓名}的', caret: 8 });
  });
  it('appends when there is no caret or it lies outside the text', () => {
    expect(insertVariable('ab', '联系人', null).text).toBe('ab{联系人}');
    expect(insertVariable('ab', '联系人', 3).text).toBe('ab{联系人}');
    expect(insertVariable('ab', '联系人', 0).text).toBe('{联系人}ab');
  });
});

describe('moveItem', () => {
  it('moves rules up and down, and leaves the list alone past either end', () => {
    expect(moveItem(['A', 'B', 'C'], 2, 1)).toEqual(['A', 'C', 'B']);
    expect(moveItem(['A', 'B', 'C'], 0, 1)).toEqual(['B', 'A', 'C']);
    const list = ['A', 'B'];
    expect(moveItem(list, 0, -1)).toBe(list);
    expect(moveItem(list, 1, 2)).toBe(list);
  });
});

describe('clientIssues', () => {
  it('reports the contract’s own messages with the place of the field', () => {
    const g = graph();
    g.nodes[1] = { ...g.nodes[1], name: '', branches: [{ ...g.nodes[1].branches[0], label: '' }] };
    const issues = clientIssues(g);
    expect(issues).toContainEqual({ path: 'nodes.1.name', msg: '请输入节点名称' });
    expect(issues).toContainEqual({ path: 'nodes.1.branches.0.label', msg: '请输入分支名称' });
  });
  it('takes a prompt of exactly 500 characters and refuses 501', () => {
    const g = graph();
    g.nodes[0] = { ...g.nodes[0], prompt: '好'.repeat(500) };
    expect(clientIssues(g)).toEqual([]);
    g.nodes[0] = { ...g.nodes[0], prompt: '好'.repeat(501) };
    expect(clientIssues(g)).toEqual([{ path: 'nodes.0.prompt', msg: '话术内容最多500个字' }]);
  });
});

describe('issueTarget', () => {
  it('finds the node of a server path (by key) and of a client path (by index)', () => {
    const g = graph();
    expect(issueTarget('nodes.start.branches.b', g)).toEqual({
      tab: 'nodes',
      nodeKey: 'start',
      label: '节点「开场」 · 分支「肯定」',
    });
    expect(issueTarget('nodes.1.branches.0.label', g)).toEqual({
      tab: 'nodes',
      nodeKey: 'intro',
      label: '节点「介绍」 · 分支「好」',
    });
    expect(issueTarget('nodes.start.silence', g)).toMatchObject({ nodeKey: 'start', label: '节点「开场」 · 静默处理' });
  });
  it('sends knowledge-base, grade and settings issues to their tabs', () => {
    const g = graph();
    expect(issueTarget('kb.kb', g)).toEqual({ tab: 'kb', label: '知识库「价格」' });
    expect(issueTarget('kb.0.answer', g)).toEqual({ tab: 'kb', label: '知识库「价格」' });
    expect(issueTarget('grades.0', g)).toEqual({ tab: 'grades', label: '意向等级规则 1' });
    expect(issueTarget('settings.max_rounds_prompt', g)).toEqual({ tab: 'settings', label: '设置' });
  });
  it('a path naming no node stays on the nodes tab without a node', () => {
    expect(issueTarget('nodes', graph())).toEqual({ tab: 'nodes', label: '流程节点' });
    expect(issueTarget('nodes.gone.branches.b', graph())).toEqual({ tab: 'nodes', label: '流程节点' });
  });
});
