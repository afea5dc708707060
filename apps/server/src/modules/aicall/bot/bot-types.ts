import type { AiCallEnd, BotCounters } from '@crm/contracts';
import type { GradeResult } from '../../aibot/flow-grade';

// What one AI call produces (issue 16): its turns as they grow and its result once it is over. The
// bot's files (bot-call, bot-live, bot-message) and the AI call store (aicall-calls.ts) share these
// types from here, below all of them, so the bot's layers import one way.

export type BotTurn = {
  isAi: boolean;
  text: string;
  /** ms from the start of the bot's listening (the answer) */
  atMs: number;
  endMs: number;
  node: string;
  /** how the engine read a customer turn (命中分支 肯定 / 知识库 / 未识别 …), '' for the bot */
  match: string;
  /** 8 kHz samples: the bot's prompt, or the customer's utterance cut by the VAD (empty for a key press) */
  audio: Int16Array;
};

export type BotCallResult = {
  end: AiCallEnd;
  counters: BotCounters;
  grade: GradeResult;
  turns: BotTurn[];
  talkSeconds: number;
  transferStaffId: number | null;
  nodeKeys: string[];
};
