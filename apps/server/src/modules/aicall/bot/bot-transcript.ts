import { type AicallTranscript, CALL_MSG_TYPE, type FlowGraph } from '@crm/contracts';
import { staffChannel } from '../../../lib/pubsub';
import { flowNameOf } from '../../aibot/aibot.service';
import type { CallRuntime, StaffMessage } from '../../calls/call-bus';
import { type LiveBotCall, liveCall } from './bot-live';

// The running bot call's transcript as the agent reads it (issue 16, 转人工 with the transcript): its
// turns by node name and its grade so far, pushed on the call socket of the agent 转人工 rings
// (msg_type 9); aicall-transcript.ts answers aicall/transcript with it while the call runs.

export const nodeNames = (graph: FlowGraph | null) => new Map((graph?.nodes ?? []).map((n) => [n.key, n.name]));

type TurnLike = { isAi: boolean; text: string; node: string; match: string; atMs: number };
/** A turn as the agent reads it: its node by the name the admin gave (the key when the node is gone). */
export const turnView = (names: Map<string, string>) => (t: TurnLike) => ({
  isAi: t.isAi ? 1 : 0,
  text: t.text,
  node: names.get(t.node) ?? t.node,
  match: t.match,
  at: t.atMs,
});

export const liveView = async (rt: CallRuntime, live: LiveBotCall): Promise<AicallTranscript> => {
  const names = nodeNames(live.graph);
  const grade = live.grade();
  return {
    callUuid: live.callUuid,
    flowName: await flowNameOf(rt.db, live.tenantId, live.flowId),
    grade: grade.grade,
    score: grade.score,
    isLive: live.isRunning ? 1 : 0,
    turns: live.turns.map(turnView(names)),
  };
};

/** Pushes the running call's transcript to the agent its 转人工 rings (his call socket, msg_type 9). */
export const pushTranscript = async (rt: CallRuntime, callUuid: string, staffId: number) => {
  const live = liveCall(callUuid);
  if (!live) return;
  const message: StaffMessage = {
    kind: 'frame',
    frame: { code: 0, msg_type: CALL_MSG_TYPE.aiTranscript, msg: 'AI对话记录', data: await liveView(rt, live) },
  };
  await rt.bus.publish(staffChannel(staffId), message);
};
