import type { CustomerTurn, FlowGraph, FlowRow } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { publishedFlow, versionGraph } from './aibot.service';
import { aibotClient } from './aibot-test-client';
import { branchOf, fallbackOf, key, nodeOf, sampleGraph, say, silence, withNode } from './flow-test-graphs';

let t: TestApp;
const tokens: Record<string, string> = {};
const { post, get, newFlow, detail, consoleRun } = aibotClient(() => t, tokens);

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => t.close());

describe('flows', () => {
  it('the demo company has a published example flow; 销售 without 话术管理 may not see flows', async () => {
    const list = await get<{ list: FlowRow[]; count: number }>('flow/list?name=示例');
    expect(list.data.list).toMatchObject([{ name: '云呼CRM推广（示例）', status: 1, version: 1, creator: '系统管理员' }]);
    expect((await get('flow/list', 'lisi')).status).toBe(403);
    expect((await post('flow/store', { name: '销售的话术' }, 'lisi')).status).toBe(403);
    expect((await get('setting', 'lisi')).status).toBe(403);
  });

  it('a new flow starts from the starter graph with the default grade rules, valid and unpublished', async () => {
    const { id, name } = await newFlow();
    const d = await detail(id);
    expect(d).toMatchObject({ id, name, status: 0, version: 0, nodes: 5, issues: [], versions: [] });
    expect(d.graph.nodes.map((n) => n.type)).toEqual(['start', 'normal', 'transfer', 'end', 'hangup']);
    expect(d.graph.nodes[0].prompt).toContain('您好，我是{公司名称}的{坐席姓名}，请问是{客户名称}吗？');
    expect(d.graph.nodes[0].branches.map((b) => b.label)).toEqual(['肯定', '否定', '拒绝']);
    expect(d.graph.grades.map((g) => g.grade)).toEqual(['A', 'B', 'B', 'C']);
  });

  it('names: required, at most 30 characters, unique among the company’s flows not deleted', async () => {
    expect(await post('flow/store', { name: ' ' })).toMatchObject({ status: 400, msg: '请输入话术名称' });
    expect((await post('flow/store', { name: '话'.repeat(30) })).code).toBe(0);
    expect(await post('flow/store', { name: '话'.repeat(31) })).toMatchObject({ status: 400, msg: '话术名称最多30个字' });
    expect(await post('flow/store', { name: '话'.repeat(30) })).toMatchObject({ code: 116003, msg: '话术名称已存在' });
    const { id, name } = await newFlow();
    const other = await newFlow();
    expect((await post('flow/update', { id: other.id, name, graph: sampleGraph() })).code).toBe(116003);
    expect((await post('flow/copy', { id, name })).code).toBe(116003);
    expect((await post('flow/delete', { id })).code).toBe(0);
    expect((await detail(id)) ?? null).toBeNull();
    expect((await get(`flow/detail?id=${id}`)).code).toBe(116001);
    expect((await post('flow/delete', { id })).code).toBe(116001);
    // the name is free again once deleted
    expect((await post('flow/store', { name })).code).toBe(0);
  });

  it('the list filters by name and pages', async () => {
    await newFlow();
    const all = await get<{ list: FlowRow[]; count: number }>('flow/list?limit=100');
    const page = await get<{ list: FlowRow[]; count: number }>('flow/list?limit=1&page=2');
    expect(page.data.count).toBe(all.data.count);
    expect(page.data.list).toEqual([all.data.list[1]]);
    expect((await get<{ count: number }>('flow/list?name=%25')).data.count).toBe(0);
    expect((await get('flow/list?limit=101')).status).toBe(400);
  });

  it('the draft is saved with its problems; publishing is refused until they are fixed', async () => {
    const broken = withNode(sampleGraph(), 'ask', {
      prompt: '{产品}要试用吗',
      branches: [branchOf({ key: 'yes', label: '肯定', next: 'gone' })],
    });
    broken.nodes.push(nodeOf({ key: 'island', type: 'end' }));
    const { id, name } = await newFlow();
    const saved = await post<{ issues: { path: string }[] }>('flow/update', { id, name, graph: broken });
    expect(saved.code).toBe(0);
    const paths = ['nodes.ask', 'nodes.ask.branches.yes', 'nodes.ask.branches.yes', 'nodes.agent', 'nodes.island'];
    expect(saved.data.issues.map((i) => i.path)).toEqual(paths);
    const d = await detail(id);
    expect(d).toMatchObject({ status: 0, version: 0 });
    expect(d.issues.map((i) => i.path)).toEqual(paths);
    const refused = await post<{ issues: unknown[] }>('flow/publish', { id });
    expect(refused).toMatchObject({ status: 400, code: 116002 });
    expect(refused.msg).toBe(
      '话术有5处问题，请修改后再发布：普通节点“ask”的话术中的变量{产品}不存在，可用的变量：{客户名称}、{联系人}、{坐席姓名}、{公司名称}',
    );
    expect(refused.data.issues).toHaveLength(5);
    expect((await detail(id)).versions).toEqual([]);
  });

  it('publishing freezes a version: the draft changes, the version stays as it was', async () => {
    const { id, name } = await newFlow(sampleGraph());
    expect(await post('flow/publish', { id })).toMatchObject({ code: 0, data: { version: 1 } });
    expect(await detail(id)).toMatchObject({ status: 1, version: 1, versions: [{ version: 1, publisher: '系统管理员' }] });
    const changed = withNode(sampleGraph(), 'open', { prompt: '第二版开场' });
    expect((await post('flow/update', { id, name, graph: changed })).code).toBe(0);
    expect(await detail(id)).toMatchObject({ status: 2, version: 1 });
    const v1 = await get<{ graph: FlowGraph; version: number }>(`flow/version?id=${id}&version=1`);
    expect(v1.data.version).toBe(1);
    expect(v1.data.graph.nodes[0].prompt).toBe('您好{客户名称}，我是{坐席姓名}');
    // the console walks the draft (version 0) or a published version
    expect((await consoleRun(id, [])).steps[0].bot_text).toBe('第二版开场');
    expect((await consoleRun(id, [], { version: 1 })).steps[0].bot_text).toBe('您好客户，我是系统管理员');
    expect(await post('flow/publish', { id })).toMatchObject({ code: 0, data: { version: 2 } });
    expect((await detail(id)).versions.map((v) => v.version)).toEqual([2, 1]);
    expect((await get<{ graph: FlowGraph }>(`flow/version?id=${id}&version=1`)).data.graph.nodes[0].prompt).toBe(
      '您好{客户名称}，我是{坐席姓名}',
    );
    expect((await get(`flow/version?id=${id}&version=3`)).code).toBe(116004);
    expect((await post('flow/test', { id, turns: [], version: 3 })).code).toBe(116004);
    expect((await get(`flow/version?id=${id}&version=0`)).status).toBe(400);
    // what an AI call takes: the last published version; a version stays readable after a delete
    const tenantId = (await t.get('/api/frontend/company/info', tokens.admin)).json().data.id as number;
    expect(await publishedFlow(t.database.db, tenantId, id)).toMatchObject({
      version: 2,
      graph: { settings: { max_rounds: 10 } },
    });
    expect((await publishedFlow(t.database.db, tenantId, id))?.graph.nodes[0].prompt).toBe('第二版开场');
    expect(await publishedFlow(t.database.db, tenantId + 1, id)).toBeNull();
    expect((await post('flow/delete', { id })).code).toBe(0);
    expect(await publishedFlow(t.database.db, tenantId, id)).toBeNull();
    expect((await versionGraph(t.database.db, tenantId, id, 1))?.nodes[0].prompt).toBe('您好{客户名称}，我是{坐席姓名}');
    expect(await versionGraph(t.database.db, tenantId + 1, id, 1)).toBeNull();
  });

  it('a copy takes the draft under a new name, unpublished', async () => {
    const source = await newFlow(withNode(sampleGraph(), 'open', { prompt: '复制我' }));
    await post('flow/publish', { id: source.id });
    const copy = await post<{ id: number }>('flow/copy', { id: source.id, name: `${source.name}副本` });
    expect(copy.code).toBe(0);
    const d = await detail(copy.data.id);
    expect(d).toMatchObject({ name: `${source.name}副本`, status: 0, version: 0, versions: [], audio_files: [] });
    expect(d.graph.nodes[0].prompt).toBe('复制我');
  });

  it('a node or answer recording must be the company’s own audio upload', async () => {
    const upload = async (name: string, data: Buffer, type: string) => {
      const { payload, contentType } = multipart({ name, data, type });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/frontend/upload/file',
        payload,
        headers: { 'content-type': contentType, authorization: tokens.admin },
      });
      return res.json().data.id as number;
    };
    const wav = await upload('开场.wav', wavBytes(), 'audio/wav');
    const txt = await upload('说明.txt', Buffer.from('文字'), 'text/plain');
    const { id, name } = await newFlow();
    const withAudio = (audio: number) => withNode(sampleGraph(), 'open', { audio_file_id: audio });
    expect((await post('flow/update', { id, name, graph: withAudio(wav) })).code).toBe(0);
    expect((await detail(id)).graph.nodes[0].audio_file_id).toBe(wav);
    // the detail names the recording as uploaded, with its download address (the designer shows it, not 录音文件 #id)
    const files = (await detail(id)).audio_files;
    expect(files).toEqual([{ id: wav, name: '开场.wav', url: expect.stringMatching(/^\/api\/files\/[\w-]+\.wav$/) }]);
    expect((await t.get(files[0].url, tokens.admin)).statusCode).toBe(200);
    expect(await post('flow/update', { id, name, graph: withAudio(txt) })).toMatchObject({ code: 116005 });
    const kb = { ...sampleGraph(), kb: [{ ...sampleGraph().kb[0], audio_file_id: 999_999 }] };
    expect((await post('flow/update', { id, name, graph: kb })).code).toBe(116005);
  });

  it('bad input is a 4xx, never a 5xx', async () => {
    const { id, name } = await newFlow();
    const bad = (graph: unknown) => post('flow/update', { id, name, graph });
    const g = sampleGraph();
    expect((await bad({ ...g, nodes: [] })).msg).toBe('请至少添加一个节点');
    expect((await bad(withNode(g, 'open', { key: 'Open-1' }))).status).toBe(400);
    expect((await bad({ ...g, nodes: [{ ...g.nodes[0], type: 'robot' }] })).msg).toBe('请选择节点类型');
    expect((await bad(withNode(g, 'open', { prompt: '长'.repeat(501) }))).msg).toBe('话术内容最多500个字');
    expect((await bad({ ...g, settings: { ...g.settings, max_rounds: 0 } })).status).toBe(400);
    expect((await bad(withNode(g, 'open', { silence: fallbackOf({ wait_ms: 999 }) }))).status).toBe(400);
    expect((await bad(withNode(g, 'open', { silence: fallbackOf({ repeats: 4 }) }))).status).toBe(400);
    const turns = (n: number) => Array.from({ length: n }, () => silence);
    expect((await post('flow/test', { id, turns: turns(61) })).msg).toBe('最多60轮');
    expect((await post('flow/test', { id, turns: turns(60) })).code).toBe(0);
    expect((await post('flow/test', { id, turns: [{ kind: 'say', text: ' ' }] })).msg).toBe('请输入客户说的话');
    expect((await post('flow/test', { id, turns: [{ kind: 'digit', digits: '1a' }] })).msg).toBe('按键只能是0-9、*或#');
    expect((await get('flow/detail?id=abc')).status).toBe(400);
    expect((await get('flow/detail?id=99999999999')).status).toBe(400);
  });
});

describe('the test console', () => {
  const graphWith = (change: (g: FlowGraph) => FlowGraph) => change(sampleGraph());

  it('fills the caller as 坐席, the company, and 客户 unless the console sets them', async () => {
    const { id } = await newFlow(sampleGraph());
    expect((await consoleRun(id, [])).steps[0].bot_text).toBe('您好客户，我是系统管理员');
    const r = await consoleRun(id, [say('多少钱')], { vars: { 客户名称: '王总' } });
    expect(r.steps[0].bot_text).toBe('您好王总，我是系统管理员');
    expect(r.steps[1].bot_text).toBe('演示科技有限公司按坐席收费 您好王总，我是系统管理员');
  });

  it('branch matching: any, all, exact and digits', async () => {
    const graph = graphWith((g) =>
      withNode(g, 'open', {
        no_match: fallbackOf({ repeats: 3 }),
        branches: [
          branchOf({ key: 'any', label: '任一', intent: 'positive', keywords: ['可以', '行'], digits: ['1'], next: 'agent' }),
          branchOf({ key: 'all', label: '全部', intent: 'custom', match: 'all', keywords: ['价格', '优惠'], next: 'ask' }),
          branchOf({ key: 'exact', label: '一致', intent: 'negative', match: 'exact', keywords: ['不'], next: 'bye' }),
        ],
      }),
    );
    const { id } = await newFlow(graph);
    const first = async (turn: CustomerTurn) => (await consoleRun(id, [turn])).steps[1];
    expect(await first(say('行吧'))).toMatchObject({
      node_key: 'agent',
      match: { kind: 'branch', label: '任一', keywords: ['行'] },
    });
    expect(await first(say('价格有优惠吗'))).toMatchObject({
      node_key: 'ask',
      match: { label: '全部', keywords: ['价格', '优惠'] },
    });
    expect(await first(say('有优惠吗'))).toMatchObject({ node_key: 'open', match: { kind: 'no_match' } });
    expect(await first(say('不！'))).toMatchObject({ node_key: 'bye', match: { label: '一致', intent: 'negative' } });
    expect(await first(say('不太行'))).toMatchObject({ node_key: 'agent' });
    expect(await first(key('1'))).toMatchObject({ node_key: 'agent', match: { kind: 'branch', label: '任一' } });
    expect(await first(key('7'))).toMatchObject({ node_key: 'open', match: { kind: 'no_match' } });
  });

  it('a knowledge-base question answers and returns to the node; silence repeats, then its branch', async () => {
    const graph = graphWith((g) => withNode(g, 'ask', { silence: fallbackOf({ repeats: 2, prompt: '您还在吗', next: 'bye' }) }));
    const { id } = await newFlow(graph);
    const r = await consoleRun(id, [say('是'), say('价格呢'), silence, silence, silence, say('好')]);
    expect(r.steps.map((s) => [s.node_key, s.match?.kind ?? null, s.bot_text])).toEqual([
      ['open', null, '您好客户，我是系统管理员'],
      ['ask', 'branch', '要试用吗'],
      ['ask', 'kb', '演示科技有限公司按坐席收费 要试用吗'],
      ['ask', 'silence', '您还在吗'],
      ['ask', 'silence', '您还在吗'],
      ['bye', 'silence', '再见'],
    ]);
    expect(r.end).toBe('end');
    expect(r.counters).toMatchObject({ kb: 1, silence: 3, rounds: 5, positive: 1, nodes: ['open', 'ask', 'bye'] });
  });

  it('no-match without a way on hangs up', async () => {
    const { id } = await newFlow(sampleGraph());
    const r = await consoleRun(id, [say('今天天气不错')]);
    expect(r.steps[1]).toMatchObject({ match: { kind: 'no_match', label: '未识别' }, bot_text: '' });
    expect(r.end).toBe('hangup');
  });

  it('max rounds: open after max_rounds − 1 turns, the goodbye at max_rounds', async () => {
    const graph = graphWith((g) =>
      withNode({ ...g, settings: { ...g.settings, max_rounds: 3, max_rounds_prompt: '今天先聊到这' } }, 'open', {
        no_match: fallbackOf({ repeats: 3 }),
      }),
    );
    const { id } = await newFlow(graph);
    expect((await consoleRun(id, [say('嗯'), say('嗯')])).end).toBe('open');
    const r = await consoleRun(id, [say('嗯'), say('嗯'), say('嗯'), say('是')]);
    expect(r.end).toBe('max_rounds');
    expect(r.steps.at(-1)).toMatchObject({ bot_text: '今天先聊到这', match: { kind: 'max_rounds' } });
    expect(r.counters.rounds).toBe(3);
  });

  it('grades with the flow’s rules, first match wins; none: D; the talk time counts', async () => {
    const graph = sampleGraph({
      grades: [
        {
          grade: 'A',
          join: 'all',
          conditions: [
            { kind: 'node', node: 'agent' },
            { kind: 'counter', counter: 'talk_seconds', op: '>=', value: 30 },
          ],
        },
        {
          grade: 'B',
          join: 'any',
          conditions: [
            { kind: 'node', node: 'agent' },
            { kind: 'keyword', keyword: '多少钱' },
          ],
        },
        { grade: 'C', join: 'all', conditions: [{ kind: 'counter', counter: 'refused', op: '>=', value: 1 }] },
      ],
    });
    const { id } = await newFlow(graph);
    const toAgent = [say('是'), say('好')];
    expect(await consoleRun(id, toAgent, { talk_seconds: 30 })).toMatchObject({ grade: 'A', rule: 0, score: 96 });
    expect(await consoleRun(id, toAgent, { talk_seconds: 29 })).toMatchObject({ grade: 'B', rule: 1 });
    expect(await consoleRun(id, [say('多少钱'), say('不需要')])).toMatchObject({ grade: 'B', rule: 1 });
    expect(await consoleRun(id, [say('不需要')])).toMatchObject({ grade: 'C', rule: 2, score: 51 });
    expect(await consoleRun(id, [say('不是')])).toMatchObject({ grade: 'D', rule: null, score: 28 });
  });

  it('the default rules grade the starter flow', async () => {
    const { id } = await newFlow();
    // 肯定 twice without a refusal: A (and 转人工)
    expect(await consoleRun(id, [key('1'), say('可以试试')])).toMatchObject({ end: 'transfer', grade: 'A', rule: 0 });
    // one 肯定, then a price question: some interest, B; one 肯定 then 否定 after two rounds: B too
    expect(await consoleRun(id, [key('1'), say('多少钱')])).toMatchObject({ end: 'open', grade: 'B', rule: 1 });
    expect(await consoleRun(id, [key('1'), say('不感兴趣')])).toMatchObject({ end: 'end', grade: 'B', rule: 1 });
    // only 不需要 once: refused, D (not B); a wrong number after one round: D
    expect(await consoleRun(id, [say('不需要')])).toMatchObject({ end: 'hangup', grade: 'D', rule: null });
    expect(await consoleRun(id, [say('不是，打错了')])).toMatchObject({ end: 'end', grade: 'D', rule: null });
    // two rounds without interest (not heard, then 否定): C
    expect(await consoleRun(id, [say('今天天气不错'), say('不方便')])).toMatchObject({ end: 'end', grade: 'C', rule: 3 });
  });
});

describe('tenant isolation', () => {
  it('another company neither sees nor touches the flows', async () => {
    const { id, name } = await newFlow(sampleGraph());
    await post('flow/publish', { id });
    const theirs = await get<{ list: FlowRow[]; count: number }>('flow/list?limit=100', 'other_admin');
    expect(theirs.data.list.map((f) => f.id)).not.toContain(id);
    expect(theirs.data.count).toBe(0);
    for (const [path, body] of [
      ['flow/update', { id, name: '改了', graph: sampleGraph() }],
      ['flow/publish', { id }],
      ['flow/copy', { id, name: '偷来的' }],
      ['flow/delete', { id }],
      ['flow/test', { id, turns: [] }],
    ] as const) {
      expect((await post(path, body, 'other_admin')).code, path).toBe(116001);
    }
    expect((await get(`flow/detail?id=${id}`, 'other_admin')).code).toBe(116001);
    expect((await get(`flow/version?id=${id}&version=1`, 'other_admin')).code).toBe(116001);
    expect(await detail(id)).toMatchObject({ name, status: 1, version: 1 });
    // the same name is free in another company
    expect((await post('flow/store', { name }, 'other_admin')).code).toBe(0);
  });
});

/** A short valid WAV: 8 kHz mono 16-bit, 100 samples of silence. */
const wavBytes = () => {
  const samples = 100;
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(8000, 24);
  buf.writeUInt32LE(16000, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  return buf;
};
