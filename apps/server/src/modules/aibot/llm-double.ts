import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A test double of an outside service: an OpenAI-compatible chat-completions endpoint on 127.0.0.1
 * (POST <base>/chat/completions). It answers by what the customer said (the user message), from a
 * table the test gives, and records every request. `{ delayMs }` answers late, `{ status }` fails.
 */
export type LlmDoubleAnswer = string | { content?: string; delayMs?: number; status?: number; body?: unknown };
export type LlmDoubleRequest = {
  path: string;
  auth: string;
  body: { model: string; messages: { role: string; content: string }[] };
};
export type LlmDouble = { baseUrl: string; requests: LlmDoubleRequest[]; close: () => Promise<void> };

const completion = (content: string) => ({
  id: 'chatcmpl-double',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

export const startLlmDouble = async (answers: Record<string, LlmDoubleAnswer>): Promise<LlmDouble> => {
  const requests: LlmDoubleRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(404, { error: { message: 'not found' } });
    const body = JSON.parse(raw) as LlmDoubleRequest['body'];
    requests.push({ path: req.url, auth: req.headers.authorization ?? '', body });
    const said = body.messages.find((m) => m.role === 'user')?.content ?? '';
    const answer = answers[said] ?? '未识别';
    const spec = typeof answer === 'string' ? { content: answer } : answer;
    const reply = () => send(spec.status ?? 200, spec.body ?? completion(spec.content ?? ''));
    if (spec.delayMs) setTimeout(reply, spec.delayMs);
    else reply();
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
