import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { aibotClient } from './aibot-test-client';
import { fallbackOf, sampleGraph, say, withNode } from './flow-test-graphs';
import { startLlmDouble } from './llm-double';

let t: TestApp;
const tokens: Record<string, string> = {};
const { post, get, newFlow, consoleRun } = aibotClient(() => t, tokens);

beforeAll(async () => {
  t = await createTestApp();
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
