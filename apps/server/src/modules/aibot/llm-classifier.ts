import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FlowClassifier } from './flow-engine';
import { labelOf } from './flow-match';
import { checkLlmUrl, type LlmUrlPolicy, type Lookup, type Resolved, STRICT_LLM_POLICY } from './llm-url-policy';

/** The company's OpenAI-compatible endpoint (company AI settings), and where it may point (config). */
export type LlmConfig = {
  url: string;
  model: string;
  key: string;
  timeoutMs: number;
  /** where the URL may point (STRICT_LLM_POLICY when absent) */
  policy?: LlmUrlPolicy;
  /** how host names resolve (the system's DNS when absent) */
  lookup?: Lookup;
};

/** The answer that means none of the labels fits. */
export const LLM_NONE = '未识别';

const systemPrompt = (labels: string[]) =>
  [
    '你是电话销售机器人的意图分类器。根据客户说的一句话，从下列分类中选出最符合的一个。',
    `分类：${[...labels, LLM_NONE].join('、')}`,
    `只回答分类名称本身，不要解释；都不符合时回答“${LLM_NONE}”。`,
  ].join('\n');

type ChatCompletion = { choices?: { message?: { content?: unknown } }[] };

const MAX_ANSWER_BYTES = 64 * 1024;

/** A lookup that answers the address already checked (the connection goes where the policy looked). */
const pinned =
  (target: Resolved): LookupFunction =>
  (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    } else {
      callback(null, target.address, target.family);
    }
  };

/** POSTs JSON to the checked address (Host and TLS name stay the URL's); resolves to the status and parsed body. */
const postJson = (url: URL, target: Resolved, headers: Record<string, string>, body: string, signal: AbortSignal) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned(target),
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) return req.destroy(new Error('answer too large'));
          chunks.push(c);
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/**
 * Asks an OpenAI-compatible `/chat/completions` endpoint to put an utterance into one of the labels.
 * Returns the label, or null when it answered 未识别 or something else, failed, took longer than
 * the timeout, or its address is one the policy refuses (llm-url-policy.ts: checked again at each
 * request, and the request connects to the address checked); the call then goes on as no-match.
 * Never throws.
 */
export const classifyUtterance = async (config: LlmConfig, text: string, labels: string[]): Promise<string | null> => {
  if (!config.url || !config.model || labels.length === 0) return null;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), config.timeoutMs);
  // the name's lookup counts against the timeout too
  const timedOut = new Promise<never>((_, reject) =>
    abort.signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }),
  );
  timedOut.catch(() => undefined);
  try {
    const { url, target } = await Promise.race([
      checkLlmUrl(`${config.url.replace(/\/+$/, '')}/chat/completions`, config.policy ?? STRICT_LLM_POLICY, config.lookup),
      timedOut,
    ]);
    const res = await postJson(
      url,
      target,
      { 'content-type': 'application/json', ...(config.key ? { authorization: `Bearer ${config.key}` } : {}) },
      JSON.stringify({
        model: config.model,
        temperature: 0,
        max_tokens: 16,
        messages: [
          { role: 'system', content: systemPrompt(labels) },
          { role: 'user', content: text },
        ],
      }),
      abort.signal,
    );
    if (res.status < 200 || res.status >= 300) return null;
    const content = (res.body as ChatCompletion).choices?.[0]?.message?.content;
    return typeof content === 'string' ? labelOf(content, labels) : null;
  } catch {
    // refused by the policy, timed out, refused, not JSON: the classifier is optional, the call goes on as no-match
    return null;
  } finally {
    clearTimeout(timer);
  }
};

/** The engine's classifier over the company's endpoint. */
export const llmClassifier =
  (config: LlmConfig): FlowClassifier =>
  ({ text, labels }) =>
    classifyUtterance(config, text, labels);

/**
 * A classifier that stops asking once `budgetMs` of waiting is spent (then: no-match): the test
 * console replays up to 60 turns in one request, which must answer within the web's 18 s.
 */
export const withBudget = (classify: FlowClassifier, budgetMs: number): FlowClassifier => {
  let spent = 0;
  return async (input) => {
    if (spent >= budgetMs) return null;
    const started = Date.now();
    try {
      return await classify(input);
    } finally {
      spent += Date.now() - started;
    }
  };
};
