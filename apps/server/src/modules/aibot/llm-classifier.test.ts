import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyUtterance, type LlmConfig, withBudget } from './llm-classifier';
import { type LlmDouble, type LlmDoubleRequest, startLlmDouble } from './llm-double';
import { STRICT_LLM_POLICY } from './llm-url-policy';

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
  // the double listens on 127.0.0.1: allowed as an operator allows a self-hosted model
  policy: { allowPrivate: true, allowHosts: [] },
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

describe('where the endpoint may point (llm-url-policy.ts), checked at each request', () => {
  it('an internal address is refused unless the policy allows it: no request is sent', async () => {
    const before = llm.requests.length;
    expect(await classifyUtterance(config({ policy: STRICT_LLM_POLICY }), '行吧', labels)).toBeNull();
    expect(llm.requests.length).toBe(before);
    // allowed by host: the operator's list names it
    const port = new URL(llm.baseUrl).port;
    const byHost = config({
      url: `http://llm.inside.test:${port}/v1`,
      policy: { allowPrivate: false, allowHosts: ['llm.inside.test'] },
    });
    const inside = async () => [{ address: '127.0.0.1', family: 4 as const }];
    expect(await classifyUtterance({ ...byHost, lookup: inside }, '行吧', labels)).toBe('肯定');
    expect(llm.requests.length).toBe(before + 1);
    expect(await classifyUtterance({ ...byHost, policy: STRICT_LLM_POLICY, lookup: inside }, '行吧', labels)).toBeNull();
    expect(llm.requests.length).toBe(before + 1);
  });

  it('connects to the address it checked: a name that resolved to a public address once and an internal one later is refused', async () => {
    const port = new URL(llm.baseUrl).port;
    let answers = 0;
    // DNS rebinding: the first answer public (as at save time), every later one 127.0.0.1
    const rebinding = async () => {
      answers += 1;
      return [{ address: answers === 1 ? '203.0.113.7' : '127.0.0.1', family: 4 as const }];
    };
    const before = llm.requests.length;
    const c = config({ url: `http://rebind.test:${port}/v1`, policy: STRICT_LLM_POLICY, lookup: rebinding, timeoutMs: 300 });
    // the first request goes to the public address it checked (nobody answers there in the test: null);
    // the name was looked up once: no second lookup between the check and the connection
    expect(await classifyUtterance(c, '行吧', labels)).toBeNull();
    expect(answers).toBe(1);
    // the second resolves to 127.0.0.1: refused before connecting
    expect(await classifyUtterance(c, '行吧', labels)).toBeNull();
    expect(answers).toBe(2);
    expect(llm.requests.length).toBe(before);
  });

  it('a name that takes longer to resolve than the timeout: null, in about the timeout', async () => {
    const slowDns = () =>
      new Promise<{ address: string; family: 4 }[]>((r) => setTimeout(() => r([{ address: '203.0.113.7', family: 4 }]), 3000));
    const started = Date.now();
    expect(
      await classifyUtterance(config({ url: 'http://slow.test/v1', lookup: slowDns, timeoutMs: 300 }), '行吧', labels),
    ).toBeNull();
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
