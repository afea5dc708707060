import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyUtterance, type LlmConfig, withBudget } from './llm-classifier';
import { type LlmDouble, type LlmDoubleRequest, startLlmDouble } from './llm-double';

let llm: LlmDouble;
type Request = LlmDoubleRequest;

beforeAll(async () => {
  llm = await startLlmDouble({
    行吧: '肯定',
    啰嗦: ' 分类：“拒绝”。',
    乱码: '我觉得客户可能有点犹豫，难说',
    不懂: '未识别',
    坏了: { status: 500, body: { error: { message: 'boom' } } },
    半截: { body: { choices: [] } },
    慢: { content: '肯定', delayMs: 3000 },
  });
});
afterAll(async () => llm.close());

const labels = ['肯定', '否定', '拒绝'];
const config = (over: Partial<LlmConfig> = {}): LlmConfig => ({
  url: `${llm.baseUrl}/`,
  model: 'qwen-test',
  key: 'sk-test',
  timeoutMs: 3000,
  ...over,
});

describe('the LLM classifier over an OpenAI-compatible endpoint', () => {
  it('sends the model, the labels and 未识别, the key; a matching answer gives the label', async () => {
    expect(await classifyUtterance(config(), '行吧', labels)).toBe('肯定');
    const req = llm.requests.at(-1) as Request;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer sk-test');
    expect(req.body.model).toBe('qwen-test');
    expect(req.body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('肯定、否定、拒绝、未识别') });
    expect(req.body.messages[1]).toEqual({ role: 'user', content: '行吧' });
  });

  it('a chatty answer naming one label gives it; no key, no authorization header', async () => {
    expect(await classifyUtterance(config({ key: '' }), '啰嗦', labels)).toBe('拒绝');
    expect((llm.requests.at(-1) as Request).auth).toBe('');
  });

  it('garbage, 未识别, an error status or an empty answer: null', async () => {
    expect(await classifyUtterance(config(), '乱码', labels)).toBeNull();
    expect(await classifyUtterance(config(), '不懂', labels)).toBeNull();
    expect(await classifyUtterance(config(), '坏了', labels)).toBeNull();
    expect(await classifyUtterance(config(), '半截', labels)).toBeNull();
  });

  it('an answer slower than the timeout: null, in about the timeout', async () => {
    const started = Date.now();
    expect(await classifyUtterance(config({ timeoutMs: 300 }), '慢', labels)).toBeNull();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(2500);
    // the same answer inside a longer timeout is read
    expect(await classifyUtterance(config({ timeoutMs: 5000 }), '慢', labels)).toBe('肯定');
  });

  it('nobody listening, or nothing configured: null without throwing', async () => {
    expect(await classifyUtterance(config({ url: 'http://127.0.0.1:9/v1' }), '行吧', labels)).toBeNull();
    const before = llm.requests.length;
    expect(await classifyUtterance(config({ model: '' }), '行吧', labels)).toBeNull();
    expect(await classifyUtterance(config(), '行吧', [])).toBeNull();
    expect(llm.requests.length).toBe(before);
  });
});

describe('the console’s budget', () => {
  it('stops asking once the budget of waiting is spent', async () => {
    let asked = 0;
    const slow = withBudget(async () => {
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, 60));
      return '肯定';
    }, 100);
    const input = { text: '行吧', labels, node: {} as never };
    expect(await slow(input)).toBe('肯定');
    expect(await slow(input)).toBe('肯定');
    expect(await slow(input)).toBeNull();
    expect(asked).toBe(2);
  });
});
