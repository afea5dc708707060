import type { FlowGraph } from '@crm/contracts';
import type { GradeResult } from '../../aibot/flow-grade';
import type { BotTurn } from './bot-types';

// The running bot calls of this instance, by call uuid (issue 16, 转人工 with the transcript): their
// turns as they grow (the bot call's own array) and the grade so far, for the agent the call is
// handed to. An ended call stays a little while, until its stored row (ai_calls) takes over.

export type LiveBotCall = {
  tenantId: number;
  callUuid: string;
  flowId: number;
  graph: FlowGraph;
  turns: BotTurn[];
  grade: () => GradeResult;
  isRunning: boolean;
};

/** how long an ended call is kept: the runner stores it within this */
const KEEP_ENDED_MS = 60_000;
const calls = new Map<string, LiveBotCall>();

export const liveStarted = (call: Omit<LiveBotCall, 'isRunning'>) => {
  calls.set(call.callUuid, { ...call, isRunning: true });
};

export const liveEnded = (callUuid: string) => {
  const call = calls.get(callUuid);
  if (!call) return;
  call.isRunning = false;
  setTimeout(() => {
    if (calls.get(callUuid) === call) calls.delete(callUuid);
  }, KEEP_ENDED_MS).unref();
};

export const liveCall = (callUuid: string) => calls.get(callUuid);
