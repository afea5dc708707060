import type { AicallTranscript } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { canUseMenu } from '../../plugins/auth';
import { flowNameOf, versionGraph } from '../aibot/aibot.service';
import type { CallRuntime } from '../calls/call-bus';
import { isAgentOfCall } from '../calls/calls-for-aicall';
import { viewerOf } from '../customers/customer-access';
import * as repo from './aicall-calls.repo';
import { AICALL_MENUS } from './aicall-menus';
import { liveCall } from './bot/bot-live';
import { liveView, nodeNames, turnView } from './bot/bot-transcript';

// 转人工 with the transcript (issue 16): the agent the bot hands a call to sees what the bot and the
// customer said so far, the flow and the grade so far. The bot pushes it on his call socket as his
// extension rings (msg_type 9, bot/bot-transcript.ts); aicall/transcript answers it too: the live turns while the bot call
// runs on this instance, the stored ones (ai_calls) afterwards. Who may read it: a staff rung for the
// call (an agent leg of his), or who may see the AI call detail (the AI menus, and the stored call in
// his scope; a call still running: a company-wide scope).

const storedView = async (rt: CallRuntime, row: repo.AiCallListRow): Promise<AicallTranscript> => {
  const c = row.call;
  const names = nodeNames(await versionGraph(rt.db, c.tenantId, c.flowId, c.flowVersion));
  return {
    callUuid: c.callUuid,
    flowName: await flowNameOf(rt.db, c.tenantId, c.flowId),
    grade: c.grade,
    score: c.score,
    isLive: 0,
    turns: c.turns.map(turnView(names)),
  };
};

/** aicall/transcript: the AI call's dialogue for the agent it was handed to, or who may see its detail. */
export const transcriptOf = async (rt: CallRuntime, actor: Actor, callUuid: string): Promise<AicallTranscript> => {
  const isAgent = await isAgentOfCall(rt.db, actor.tenantId, callUuid, actor.staffId);
  const mayDetail = AICALL_MENUS.some((m) => canUseMenu(actor, m));
  const scope = isAgent ? null : mayDetail ? (await viewerOf(rt.db, actor)).scope : undefined;
  if (scope === undefined) throw new AppError('AICALL_TRANSCRIPT_NOT_FOUND');
  const live = liveCall(callUuid);
  if (live && live.tenantId === actor.tenantId && scope === null) return liveView(rt, live);
  const row = await repo.findAiCallByUuid(rt.db, { tenantId: actor.tenantId, scope, callUuid });
  if (!row || row.call.end === 'not_connected') throw new AppError('AICALL_TRANSCRIPT_NOT_FOUND');
  return storedView(rt, row);
};
