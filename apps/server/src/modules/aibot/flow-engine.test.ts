import type { FlowGraph } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { createFlowSession, type FlowClassifier, walkFlow } from './flow-engine';
import { matchKeywords, normaliseUtterance, pickBranch } from './flow-match';
import { branchOf, fallbackOf, key, nodeOf, sampleGraph, say, silence, withNode } from './flow-test-graphs';

const vars = { 客户名称: '张先生', 坐席姓名: '小王', 公司名称: '演示科技' };
const walk = (graph: FlowGraph, turns: Parameters<typeof walkFlow>[1], classify?: FlowClassifier) =>
  walkFlow(graph, turns, { vars, talkSeconds: 42, classify });
const path = (r: Awaited<ReturnType<typeof walk>>) => r.steps.map((s) => s.node_key);

describe('keyword matching', () => {
  it('normalises full-width forms, case, spaces and punctuation', () => {
    expect(normaliseUtterance('好 的！ＯＫ，１２３。')).toBe('好的ok123');
    expect(matchKeywords('exact', ['好的'], '  好的！！')).toEqual(['好的']);
  });

  it('any: one keyword is enough; all: every keyword; exact: the whole utterance', () => {
    expect(matchKeywords('any', ['价格', '多少钱'], '这个多少钱')).toEqual(['多少钱']);
    expect(matchKeywords('any', ['价格', '多少钱'], '在忙')).toBeNull();
    expect(matchKeywords('all', ['价格', '优惠'], '价格有优惠吗')).toEqual(['价格', '优惠']);
    expect(matchKeywords('all', ['价格', '优惠'], '价格多少')).toBeNull();
    expect(matchKeywords('exact', ['是', '对'], '对')).toEqual(['对']);
    expect(matchKeywords('exact', ['是', '对'], '对的')).toBeNull();
    // a keyword of punctuation only, or an utterance of punctuation only, never matches
    expect(matchKeywords('any', ['？'], '你好？')).toBeNull();
    expect(matchKeywords('any', ['好'], '。。。')).toBeNull();
  });

  it('several branches heard: 否定 before 拒绝 before custom before 肯定, then their order', () => {
    const node = sampleGraph().nodes[0];
    expect(pickBranch(node, '不是')?.branch.key).toBe('no'); // “不是” also contains 肯定's “是”
    expect(pickBranch(node, '是的')?.branch.key).toBe('yes');
    const custom = { ...node, branches: [...node.branches, branchOf({ key: 'later', keywords: ['是'], next: 'bye' })] };
    expect(pickBranch(custom, '是')?.branch.key).toBe('later');
    expect(pickBranch(custom, '不需要，不是')?.branch.key).toBe('no');
  });
});

describe('walking a flow', () => {
  it('opens with the 开场 prompt, variables filled, not interruptible', async () => {
    const r = await walk(sampleGraph(), []);
    expect(r.steps).toEqual([
      { turn: null, match: null, node_key: 'open', node_name: 'open', bot_text: '您好张先生，我是小王', interrupt: false },
    ]);
    expect(r.end).toBe('open');
    expect(r.counters).toMatchObject({ rounds: 0, nodes: ['open'], talk_seconds: 42 });
  });

  it('keywords move along branches to a terminal node, which ends the walk', async () => {
    const r = await walk(sampleGraph(), [say('是的'), say('好啊'), say('还在吗')]);
    expect(path(r)).toEqual(['open', 'ask', 'agent']);
    expect(r.steps[1]).toMatchObject({ match: { kind: 'branch', label: '肯定', keywords: ['是'], intent: 'positive' } });
    expect(r.steps[2].bot_text).toBe('为您转接');
    expect(r.end).toBe('transfer');
    expect(r.counters).toMatchObject({ positive: 2, rounds: 2, nodes: ['open', 'ask', 'agent'], keywords: ['是', '好'] });
  });

  it('挂机 and 结束 end the walk as hangup and end', async () => {
    expect((await walk(sampleGraph(), [say('不需要')])).end).toBe('hangup');
    const bye = await walk(sampleGraph(), [say('不是我')]);
    expect(bye.end).toBe('end');
    expect(bye.counters.negative).toBe(1);
  });

  it('digits take the branch that listens for them; an unknown digit is no-match', async () => {
    const graph = withNode(sampleGraph(), 'open', { no_match: fallbackOf({ repeats: 1 }) });
    const r = await walk(graph, [key('9'), key('*1'), key('2')]);
    expect(r.steps.map((s) => s.match?.kind)).toEqual([undefined, 'no_match', 'branch', 'branch']);
    expect(path(r)).toEqual(['open', 'open', 'ask', 'bye']);
    expect(r.steps[2].match).toEqual({ kind: 'branch', label: '肯定', keywords: [], intent: 'positive' });
  });

  it('a knowledge-base question is answered, then the bot returns to the node it was at', async () => {
    const r = await walk(sampleGraph(), [say('是'), say('多少钱啊'), say('好')]);
    expect(r.steps[2]).toMatchObject({
      node_key: 'ask',
      match: { kind: 'kb', label: '价格', keywords: ['多少钱'], intent: null },
      bot_text: '演示科技按坐席收费 要试用吗',
    });
    expect(path(r)).toEqual(['open', 'ask', 'ask', 'agent']);
    expect(r.counters.kb).toBe(1);
  });

  it('a question and an answer in one breath: the answer, then the branch moves on', async () => {
    const r = await walk(sampleGraph(), [say('对，价格呢')]);
    expect(r.steps[1]).toMatchObject({ node_key: 'ask', match: { kind: 'branch', keywords: ['价格', '对'] } });
    expect(r.steps[1].bot_text).toBe('演示科技按坐席收费 要试用吗');
    expect(r.counters).toMatchObject({ kb: 1, positive: 1 });
  });

  it('silence repeats the node (its own words, else the prompt) `repeats` times, then takes its next', async () => {
    const graph = withNode(sampleGraph(), 'open', { silence: fallbackOf({ repeats: 2, prompt: '喂，在吗', next: 'bye' }) });
    const r = await walk(graph, [silence, silence, silence]);
    expect(r.steps.slice(1).map((s) => [s.node_key, s.bot_text])).toEqual([
      ['open', '喂，在吗'],
      ['open', '喂，在吗'],
      ['bye', '再见'],
    ]);
    expect(r.end).toBe('end');
    expect(r.counters.silence).toBe(3);
    // without its own words the node's prompt is repeated; without next the bot hangs up
    const bare = withNode(sampleGraph(), 'open', { silence: fallbackOf({ repeats: 1 }) });
    const r2 = await walk(bare, [silence, silence]);
    expect(r2.steps.slice(1).map((s) => s.bot_text)).toEqual(['您好张先生，我是小王', '']);
    expect(r2.end).toBe('hangup');
  });

  it('no-match: repeats 0 goes straight on; a recognised turn in between starts the count again', async () => {
    const straight = withNode(sampleGraph(), 'ask', { no_match: fallbackOf({ repeats: 0, next: 'bye' }) });
    const r = await walk(straight, [say('是'), say('嗯哼')]);
    expect(path(r)).toEqual(['open', 'ask', 'bye']);
    expect(r.steps[2].match?.kind).toBe('no_match');
    const once = withNode(sampleGraph(), 'ask', { no_match: fallbackOf({ repeats: 1, prompt: '没听清', next: 'bye' }) });
    const graph = withNode(once, 'open', { no_match: fallbackOf({ repeats: 1, prompt: '您说什么', next: 'bye' }) });
    const r2 = await walk(graph, [say('嗯哼'), say('是'), say('嗯哼'), say('嗯哼')]);
    expect(r2.steps.map((s) => s.bot_text)).toEqual(['您好张先生，我是小王', '您说什么', '要试用吗', '没听清', '再见']);
    expect(r2.counters.no_match).toBe(3);
  });

  it('max rounds: the goodbye after exactly max_rounds customer turns, not one before', async () => {
    const graph = sampleGraph({ settings: { max_rounds: 3, max_rounds_prompt: '{坐席姓名}先挂了', use_llm: false } });
    const loop = withNode(graph, 'open', { no_match: fallbackOf({ repeats: 3 }) });
    const two = await walk(loop, [say('嗯'), say('嗯')]);
    expect(two.end).toBe('open');
    const three = await walk(loop, [say('嗯'), say('嗯'), say('嗯'), say('是')]);
    expect(three.end).toBe('max_rounds');
    expect(three.steps).toHaveLength(4);
    expect(three.steps[3]).toMatchObject({ bot_text: '小王先挂了', match: { kind: 'max_rounds', label: '超过最大轮次' } });
    expect(three.counters.rounds).toBe(3);
    // a turn that reaches a terminal node at the last round ends there, not with the goodbye
    const done = await walk(sampleGraph({ settings: { ...graph.settings, max_rounds: 1 } }), [say('不需要')]);
    expect(done.end).toBe('hangup');
  });

  it('custom intents are counted by label', async () => {
    const graph = withNode(sampleGraph(), 'open', {
      branches: [branchOf({ key: 'later', label: '再联系', keywords: ['下次'], next: 'open' })],
    });
    const r = await walk(graph, [say('下次吧'), say('下次')]);
    expect(r.counters.custom).toEqual({ 再联系: 2 });
    expect(r.counters.positive).toBe(0);
  });
});

describe('the classifier (LLM) when no keyword matched', () => {
  const llmGraph = (useLlm: boolean) => sampleGraph({ settings: { max_rounds: 10, max_rounds_prompt: '', use_llm: useLlm } });

  it('is asked with the current node’s branch labels; its label takes the branch', async () => {
    const asked: { text: string; labels: string[] }[] = [];
    const classify: FlowClassifier = async ({ text, labels }) => {
      asked.push({ text, labels });
      return '肯定';
    };
    const r = await walk(llmGraph(true), [say('行吧行吧'), say('好')], classify);
    expect(asked).toEqual([{ text: '行吧行吧', labels: ['肯定', '否定', '拒绝'] }]);
    expect(r.steps[1].match).toEqual({ kind: 'llm', label: '肯定', keywords: [], intent: 'positive' });
    expect(path(r)).toEqual(['open', 'ask', 'agent']);
  });

  it('is not asked when keywords matched, when the flow does not use it, or for digits', async () => {
    let calls = 0;
    const classify: FlowClassifier = async () => {
      calls += 1;
      return '肯定';
    };
    await walk(llmGraph(true), [say('是'), key('9')], classify);
    await walk(llmGraph(false), [say('行吧')], classify);
    expect(calls).toBe(0);
  });

  it('no answer, or a label that is not a branch: no-match', async () => {
    const r = await walk(llmGraph(true), [say('行吧')], async () => null);
    expect(r.steps[1].match?.kind).toBe('no_match');
    const r2 = await walk(llmGraph(true), [say('行吧')], async () => '未识别');
    expect(r2.steps[1].match?.kind).toBe('no_match');
  });
});

describe('the session, turn by turn', () => {
  it('must start first, and refuses turns after the end', async () => {
    const session = createFlowSession(sampleGraph(), { vars });
    await expect(session.next(say('是'))).rejects.toThrow();
    expect(session.start().bot_text).toBe('您好张先生，我是小王');
    expect(() => session.start()).toThrow();
    expect((await session.next(say('不需要'))).node_key).toBe('hangup');
    expect(session.end()).toBe('hangup');
    await expect(session.next(say('喂'))).rejects.toThrow();
  });

  it('exposes the node and counters as it goes; talk time can be updated', async () => {
    const session = createFlowSession(sampleGraph(), { vars });
    session.start();
    await session.next(key('1'));
    expect(session.node().key).toBe('ask');
    session.setTalkSeconds(17);
    const counters = session.counters();
    expect(counters).toMatchObject({ positive: 1, rounds: 1, talk_seconds: 17, nodes: ['open', 'ask'] });
    counters.nodes.push('x');
    expect(session.counters().nodes).toEqual(['open', 'ask']);
  });

  it('speech: recordings where the node or the answer has one, else text to synthesise, in order', async () => {
    const base = withNode(sampleGraph(), 'ask', { audio_file_id: 7, prompt: '' });
    const graph = withNode({ ...base, kb: [{ ...base.kb[0], audio_file_id: 9 }] }, 'open', {
      silence: fallbackOf({ repeats: 1, prompt: '喂？' }),
    });
    const session = createFlowSession(graph, { vars });
    session.start();
    expect(session.speech()).toEqual([{ text: '您好张先生，我是小王', audio_file_id: null }]);
    await session.next(silence);
    expect(session.speech()).toEqual([{ text: '喂？', audio_file_id: null }]);
    const step = await session.next(say('是，多少钱'));
    expect(session.speech()).toEqual([
      { text: '演示科技按坐席收费', audio_file_id: 9 },
      { text: '', audio_file_id: 7 },
    ]);
    expect(step.bot_text).toBe('演示科技按坐席收费');
    await session.next(say('不需要吧'));
    expect(session.speech()).toEqual([{ text: '再见', audio_file_id: null }]);
  });

  it('a branch to a node that does not exist hangs up', async () => {
    const graph = withNode(sampleGraph(), 'open', {
      branches: [branchOf({ key: 'yes', intent: 'positive', keywords: ['是'], next: 'gone' })],
    });
    const r = await walk(graph, [say('是')]);
    expect(r.end).toBe('hangup');
    expect(r.steps[1].bot_text).toBe('');
  });

  it('turns after the end are not heard', async () => {
    const r = await walk(sampleGraph(), [say('不是'), say('是'), say('是')]);
    expect(r.steps).toHaveLength(2);
    expect(r.counters.rounds).toBe(1);
  });

  it('an unknown variable stays as written; a known one without a value is empty', async () => {
    const graph = withNode(sampleGraph(), 'open', { prompt: '{联系人}您好{不存在}' });
    expect((await walkFlow(graph, [], { talkSeconds: 0 })).steps[0].bot_text).toBe('您好{不存在}');
    expect(nodeOf({ key: 'x', type: 'end' }).prompt).toBe('x话术');
  });
});
