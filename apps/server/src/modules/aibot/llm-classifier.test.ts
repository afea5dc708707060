import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyUtterance, type LlmConfig } from './llm-classifier';

/**
 * A test double of an outside service: an OpenAI-compatible chat-completions endpoint on 127.0.0.1.
 * What it answers depends on what the customer said (the user message); it records each request.
 */
type Request = { path: string; auth: string; body: { model: string; messages: { role: string; content: string }[] } };
const seen: Request[] = [];
let server: Server;
let base = '';

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw) as Request['body'];
  seen.push({ path: req.url ?? '', auth: req.headers.authorization ?? '', body });
  const said = body.messages.find((m) => m.role === 'user')?.content ?? '';
  if (said === '行吧') return reply(res, 200, completion('肯定'));
  if (said === '啰嗦') return reply(res, 200, completion(' 分类：“拒绝”。'));
  if (said === '乱码') return reply(res, 200, completion('我觉得客户可能有点犹豫，难说'));
  if (said === '不懂') return reply(res, 200, completion('未识别'));
  if (said === '坏了') return reply(res, 500, { error: { message: 'boom' } });
  if (said === '半截') return reply(res, 200, { choices: [] });
  if (said === '慢') return setTimeout(() => reply(res, 200, completion('肯定')), 1500);
  return reply(res, 200, completion('未识别'));
};

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const labels = ['肯定', '否定', '拒绝'];
const config = (over: Partial<LlmConfig> = {}): LlmConfig => ({
  url: base,
  model: 'qwen-test',
  key: 'sk-test',
  timeoutMs: 800,
  ...over,
});

describe('the LLM classifier over an OpenAI-compatible endpoint', () => {
  it('sends the model, the labels and 未识别, the key; a matching answer gives the label', async () => {
    expect(await classifyUtterance(config(), '行吧', labels)).toBe('肯定');
    const req = seen.at(-1) as Request;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer sk-test');
    expect(req.body.model).toBe('qwen-test');
    expect(req.body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('肯定、否定、拒绝、未识别') });
    expect(req.body.messages[1]).toEqual({ role: 'user', content: '行吧' });
  });

  it('a chatty answer naming one label gives it; no key, no authorization header', async () => {
    expect(await classifyUtterance(config({ key: '' }), '啰嗦', labels)).toBe('拒绝');
    expect((seen.at(-1) as Request).auth).toBe('');
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
    expect(took).toBeLessThan(1200);
    // the same answer inside a longer timeout is read
    expect(await classifyUtterance(config({ timeoutMs: 3000 }), '慢', labels)).toBe('肯定');
  });

  it('nobody listening, or nothing configured: null without throwing', async () => {
    expect(await classifyUtterance(config({ url: 'http://127.0.0.1:9/v1' }), '行吧', labels)).toBeNull();
    const before = seen.length;
    expect(await classifyUtterance(config({ model: '' }), '行吧', labels)).toBeNull();
    expect(await classifyUtterance(config(), '行吧', [])).toBeNull();
    expect(seen.length).toBe(before);
  });
});
