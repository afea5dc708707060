import type { FlowClassifier } from './flow-engine';
import { labelOf } from './flow-match';

/** The company's OpenAI-compatible endpoint (company AI settings). */
export type LlmConfig = { url: string; model: string; key: string; timeoutMs: number };

/** The answer that means none of the labels fits. */
export const LLM_NONE = '未识别';

const systemPrompt = (labels: string[]) =>
  [
    '你是电话销售机器人的意图分类器。根据客户说的一句话，从下列分类中选出最符合的一个。',
    `分类：${[...labels, LLM_NONE].join('、')}`,
    `只回答分类名称本身，不要解释；都不符合时回答“${LLM_NONE}”。`,
  ].join('\n');

type ChatCompletion = { choices?: { message?: { content?: unknown } }[] };

/**
 * Asks an OpenAI-compatible `/chat/completions` endpoint to put an utterance into one of the labels.
 * Returns the label, or null when it answered 未识别 or something else, failed, or took longer than
 * the timeout (the call then goes on as no-match). Never throws.
 */
export const classifyUtterance = async (config: LlmConfig, text: string, labels: string[]): Promise<string | null> => {
  if (!config.url || !config.model || labels.length === 0) return null;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), config.timeoutMs);
  try {
    const res = await fetch(`${config.url.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(config.key ? { authorization: `Bearer ${config.key}` } : {}),
      },
      body: JSON.stringify({
        model: config.model,
        temperature: 0,
        max_tokens: 16,
        messages: [
          { role: 'system', content: systemPrompt(labels) },
          { role: 'user', content: text },
        ],
      }),
      signal: abort.signal,
    });
    if (!res.ok) return null;
    const body = (await res.json()) as ChatCompletion;
    const content = body.choices?.[0]?.message?.content;
    return typeof content === 'string' ? labelOf(content, labels) : null;
  } catch {
    // timed out, refused, not JSON: the classifier is optional, the call goes on as no-match
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
