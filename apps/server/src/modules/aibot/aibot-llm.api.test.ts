import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import * as repo from './aibot.repo';
import { aibotClient } from './aibot-test-client';
import { fallbackOf, sampleGraph, say, withNode } from './flow-test-graphs';
import { startLlmDouble } from './llm-double';

let t: TestApp;
const tokens: Record<string, string> = {};
const { post, get, newFlow, consoleRun } = aibotClient(() => t, tokens);

beforeAll(async () => {
  // the LLM double listens on 127.0.0.1: this app's operator allows internal addresses (a self-hosted model)
  t = await createTestApp({ config: { aibotLlm: { allowPrivate: true, allowHosts: [] } } });
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => t.close());

describe('the LLM classifier', () => {
  it('settings: the key is stored, never returned; enabling needs an endpoint and a model', async () => {
    expect((await get('setting')).data).toEqual({
      llm_enabled: false,
      llm_url: '',
      llm_model: '',
      llm_key_set: false,
      llm_timeout_ms: 1500,
    });
    const body = {
      llm_enabled: true,
      llm_url: 'http://127.0.0.1:1/v1',
      llm_model: 'qwen',
      llm_key: 'sk-secret',
      llm_timeout_ms: 800,
    };
    const saved = await post('setting', body);
    expect(saved.data).toEqual({
      llm_enabled: true,
      llm_url: 'http://127.0.0.1:1/v1',
      llm_model: 'qwen',
      llm_key_set: true,
      llm_timeout_ms: 800,
    });
    expect(JSON.stringify(await get('setting'))).not.toContain('sk-secret');
    // omitted or empty keeps the key, null removes it
    expect((await post<{ llm_key_set: boolean }>('setting', { ...body, llm_key: '' })).data.llm_key_set).toBe(true);
    const { llm_key: _, ...withoutKey } = body;
    expect((await post<{ llm_key_set: boolean }>('setting', withoutKey)).data.llm_key_set).toBe(true);
    expect((await post<{ llm_key_set: boolean }>('setting', { ...body, llm_key: null })).data.llm_key_set).toBe(false);
    expect(await post('setting', { ...body, llm_model: ' ' })).toMatchObject({ code: 116006 });
    expect(await post('setting', { ...body, llm_url: 'not a url' })).toMatchObject({ status: 400, msg: '请输入正确的接口地址' });
    expect((await post('setting', { ...body, llm_timeout_ms: 299 })).status).toBe(400);
    expect((await post('setting', { ...body, llm_timeout_ms: 300 })).code).toBe(0);
    expect((await post('setting', { ...body, llm_timeout_ms: 5001 })).status).toBe(400);
    expect((await post('setting', { ...body, llm_enabled: false, llm_url: '', llm_model: '' })).code).toBe(0);
    // another company has its own settings
    expect((await get<{ llm_enabled: boolean }>('setting', 'other_admin')).data.llm_enabled).toBe(false);
  });

  it('picks a branch when no keyword matched; a timeout or garbage goes on as no-match', async () => {
    const llm = await startLlmDouble({ 那就这样吧: '肯定', 随便: '天气很好', 等等: { content: '肯定', delayMs: 6000 } });
    try {
      const graph = sampleGraph({ settings: { max_rounds: 10, max_rounds_prompt: '', use_llm: true } });
      const { id } = await newFlow(withNode(graph, 'open', { no_match: fallbackOf({ repeats: 2 }) }));
      const settings = { llm_enabled: true, llm_url: llm.baseUrl, llm_model: 'qwen-test', llm_key: 'sk-1', llm_timeout_ms: 2000 };
      expect((await post('setting', settings)).code).toBe(0);
      const r = await consoleRun(id, [say('随便'), say('等等'), say('那就这样吧')]);
      expect(r.steps.slice(1).map((s) => [s.match?.kind, s.node_key])).toEqual([
        ['no_match', 'open'],
        ['no_match', 'open'],
        ['llm', 'ask'],
      ]);
      expect(r.counters.positive).toBe(1);
      expect(llm.requests).toHaveLength(3);
      expect(llm.requests[0]).toMatchObject({ auth: 'Bearer sk-1', body: { model: 'qwen-test' } });
      expect(llm.requests[0].body.messages[0].content).toContain('肯定、否定、拒绝、未识别');
      // keywords first: a matched utterance never reaches the classifier; switched off, it is not asked
      await consoleRun(id, [say('是')]);
      expect(llm.requests).toHaveLength(3);
      await post('setting', { ...settings, llm_enabled: false });
      expect((await consoleRun(id, [say('那就这样吧')])).steps[1].match?.kind).toBe('no_match');
      expect(llm.requests).toHaveLength(3);
    } finally {
      await llm.close();
    }
  });
});

describe('where the endpoint may point (the default policy: public http(s) addresses)', () => {
  let strict: TestApp;
  const strictTokens: Record<string, string> = {};
  const api = aibotClient(() => strict, strictTokens);
  beforeAll(async () => {
    strict = await createTestApp();
    strictTokens.admin = await strict.login('admin');
  });
  afterAll(async () => strict.close());

  const body = (llm_url: string) => ({ llm_enabled: true, llm_url, llm_model: 'qwen', llm_timeout_ms: 800 });

  it('saving refuses loopback, internal, link-local and metadata addresses and other schemes with why (400)', async () => {
    for (const url of [
      'http://127.0.0.1:11434/v1',
      'http://localhost:8000/v1',
      'http://10.0.0.5:8000/v1',
      'http://172.16.3.4/v1',
      'http://192.168.1.20/v1',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0:80/v1',
      'http://[::1]:8000/v1',
      'http://[fd00::5]/v1',
    ]) {
      const r = await api.post('setting', body(url));
      expect(r, url).toMatchObject({ status: 400, code: 116007 });
      expect(r.msg, url).toMatch(/^接口地址不能指向本机、内网或云服务器元数据地址/);
    }
    expect(await api.post('setting', body('ftp://203.0.113.5/v1'))).toMatchObject({
      status: 400,
      msg: '接口地址只支持 http:// 或 https://',
    });
    // a public address is taken; nothing was stored by the refused ones
    expect((await api.post('setting', body('http://203.0.113.5:8000/v1'))).code).toBe(0);
    expect((await api.get<{ llm_url: string }>('setting')).data.llm_url).toBe('http://203.0.113.5:8000/v1');
  });

  it('at call time an address stored before (or that now resolves inside) is refused again: the classifier is not asked', async () => {
    const llm = await startLlmDouble({ 那就这样吧: '肯定' });
    try {
      const graph = sampleGraph({ settings: { max_rounds: 10, max_rounds_prompt: '', use_llm: true } });
      const { id } = await api.newFlow(graph);
      // stored as it was before the policy (or a name that resolved outside then)
      const tenantId = await tenantOfAdmin();
      await repo.saveSettings(strict.database.db, {
        tenantId,
        llmEnabled: true,
        llmUrl: llm.baseUrl,
        llmModel: 'qwen',
        llmKey: '',
        llmTimeoutMs: 800,
        updatedAt: new Date(),
      });
      expect((await api.consoleRun(id, [say('那就这样吧')])).steps[1].match?.kind).toBe('no_match');
      expect(llm.requests).toHaveLength(0);
    } finally {
      await llm.close();
    }
  });

  const tenantOfAdmin = async () => {
    const [me] = await strict.database.db.select().from(staff).where(eq(staff.username, 'admin'));
    return me.tenantId;
  };
});
