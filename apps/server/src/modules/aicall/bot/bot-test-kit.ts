import type { FlowGraph } from '@crm/contracts';
import { expect } from 'vitest';
import { waitFor } from '../../../test/calls';
import type { TestApp } from '../../../test/harness';
import { defaultGradeRules } from '../../aibot/flow-grade';
import { branchOf, fallbackOf, nodeOf } from '../../aibot/flow-test-graphs';
import { originateCustomerLeg } from '../../calls/call-control';
import { legOf } from '../../calls/calls-for-aicall';
import { createSpeech } from '../../speech/speech';
import { saveAiCall } from '../aicall-store';
import { type BotCallInput, runBotCall } from './bot-call';

/**
 * The bot's test flow, for the sim line's scripted customers (sim-script.ts): 开场 (no 打断) → 肯定
 * (有兴趣/可以/好的, key 1) → 介绍, 拒绝 (不需要) → 挂机; silence and no-match repeat once, then hang
 * up; 介绍 → 肯定 (好的) → 结束 (or 转人工 with `transfer`); 价格 (多少钱) in the knowledge base; the
 * default grade rules (A: ≥ 2 肯定 and no refusal; B: one 肯定 or a question; C: ≥ 2 rounds; D: refused …).
 */
export const botTestGraph = (o: { transfer?: boolean; interrupt?: boolean } = {}): FlowGraph => ({
  nodes: [
    nodeOf({
      key: 'open',
      type: 'start',
      name: '开场',
      prompt: '您好{客户名称}，我是小云',
      interrupt: o.interrupt ?? false,
      branches: [
        branchOf({
          key: 'yes',
          label: '肯定',
          intent: 'positive',
          keywords: ['有兴趣', '可以', '好的'],
          digits: ['1'],
          next: 'intro',
        }),
        branchOf({ key: 'no', label: '拒绝', intent: 'refused', keywords: ['不需要'], digits: ['3'], next: 'hangup' }),
      ],
      // 8 s: at the tests' sim speed a key press reaches the bot through the database well inside it
      silence: fallbackOf({ wait_ms: 8000, repeats: 1 }),
      no_match: fallbackOf({ repeats: 1 }),
    }),
    nodeOf({
      key: 'intro',
      type: 'normal',
      name: '介绍',
      prompt: '我们有新产品',
      branches: [
        branchOf({
          key: 'yes',
          label: '肯定',
          intent: 'positive',
          keywords: ['好的', '可以'],
          digits: ['1'],
          next: o.transfer ? 'agent' : 'bye',
        }),
      ],
      silence: fallbackOf({ wait_ms: 8000, repeats: 0 }),
    }),
    nodeOf({ key: 'bye', type: 'end', name: '结束', prompt: '好的再见' }),
    nodeOf({ key: 'hangup', type: 'hangup', name: '挂机', prompt: '打扰了' }),
    nodeOf({ key: 'agent', type: 'transfer', name: '转人工', prompt: '为您转接' }),
  ],
  kb: [{ key: 'price', question: '价格', match: 'any', keywords: ['多少钱'], answer: '按坐席收费', audio_file_id: null }],
  grades: defaultGradeRules(),
  settings: { max_rounds: 10, max_rounds_prompt: '再见', use_llm: false },
});

let seq = 0;
/** A mobile number whose second-to-last digit picks the sim script and last digit the outcome (1: answers). */
export const scriptedNumber = (script: number, outcome = 1) => {
  seq += 1;
  return `13${String(((process.pid % 100) * 100_000 + seq) % 10_000_000).padStart(7, '0')}${script}${outcome}`;
};

/** A bot leg to the number, answered; then runBotCall on it with the graph, and the call stored. */
export const botCallTo = async (
  t: TestApp,
  tenantId: number,
  number: string,
  graph: FlowGraph,
  over: Partial<BotCallInput> = {},
  customerId: number | null = null,
) => {
  const kit = await createSpeech(t.app.config);
  const startedAt = new Date();
  const placed = await originateCustomerLeg(t.app.calls, { tenantId, number, ringSeconds: 30, role: 'bot' });
  await waitFor(async () => ((await legOf(t.app.db, placed.legId))?.state ?? 0) >= 2, 'the bot leg answered', 8000);
  const result = await runBotCall({
    rt: t.app.calls,
    kit,
    tenantId,
    legId: placed.legId,
    callUuid: placed.callUuid,
    flowId: 0,
    flowVersion: 1,
    graph,
    vars: { 客户名称: '张先生' },
    agents: [],
    source: 1,
    ...over,
  });
  const id = await saveAiCall(t.app.calls, {
    taskId: 0,
    numberId: 0,
    customerId,
    callUuid: placed.callUuid,
    source: 1,
    flowId: over.flowId ?? 0,
    flowVersion: 1,
    startedAt,
    result,
    staffIds: over.agents,
  });
  expect(id).toBeGreaterThan(0);
  return { ...placed, result, id };
};
