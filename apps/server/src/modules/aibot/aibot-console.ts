import type { FlowTestBody, FlowTestResult } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { companyInfo } from '../company/company.service';
import { flowVersion, requireFlow } from './aibot.service';
import { companyLlm } from './aibot-settings';
import { walkFlow } from './flow-engine';
import { llmClassifier, withBudget } from './llm-classifier';
import type { LlmUrlPolicy } from './llm-url-policy';

// The designer's test console (issue 16): a flow's draft or version replayed turn by turn.

/** The test console's whole wait for the classifier (its turns replay in one request; the web waits 18 s). */
const CONSOLE_LLM_BUDGET_MS = 10_000;

/**
 * The test console: replays the turns against the draft (version 0) or a published version, with
 * the caller as 坐席 and the company's name filled in unless the console sets them.
 */
export const testFlow = async (db: Db, actor: Actor, body: FlowTestBody, policy: LlmUrlPolicy): Promise<FlowTestResult> => {
  const flow = await requireFlow(db, actor, body.id);
  const graph = body.version === 0 ? flow.graph : (await flowVersion(db, actor, body.id, body.version)).graph;
  const company = await companyInfo(db, actor);
  const vars = { 坐席姓名: actor.name, 公司名称: company.name, 客户名称: '客户', 联系人: '客户', ...body.vars };
  const llm = await companyLlm(db, actor.tenantId, policy);
  return walkFlow(graph, body.turns, {
    vars,
    talkSeconds: body.talk_seconds,
    classify: llm ? withBudget(llmClassifier(llm), CONSOLE_LLM_BUDGET_MS) : undefined,
  });
};
