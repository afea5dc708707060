import { type AiCallEnd, type BotStep, type CustomerTurn, type FlowGraph, HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import { emitOpsSignal } from '../../../lib/ops-signals';
import { createFlowSession, type FlowSession } from '../../aibot/flow-engine';
import { gradeCall } from '../../aibot/flow-grade';
import type { CallRuntime } from '../../calls/call-bus';
import { hangupLeg } from '../../calls/call-control';
import type { Recognizer } from '../../speech/recognizer';
import type { SpeechKit } from '../../speech/speech';
import { createEar, type Ear, hearLeg } from './bot-ear';
import { followLeg } from './bot-events';
import { hear, recognizerFor } from './bot-hear';
import { liveEnded, liveStarted } from './bot-live';
import { takeMessage } from './bot-message';
import { speak } from './bot-mouth';
import { createPromptPlayer, type PromptSource } from './bot-prompts';
import { transferToAgent } from './bot-transfer';
import type { BotCallResult, BotTurn } from './bot-types';

// One AI call (issue 16): the bot works a 话术 flow on an answered leg. Each step's prompt is played
// into the leg (recording or synthesis); the leg's audio goes through voice-activity detection with
// the prompt as the echo reference; an utterance is recognized (speech kit recognizer; the sim line's
// test double on the sim line) and read by the flow engine, as are key presses and silence (each
// node's silence.wait_ms). A prompt the node lets the customer interrupt (打断) stops the moment he
// starts speaking; otherwise what he says over it is not heard. Terminal nodes: 挂机/结束 say their
// prompt and hang up, 转人工 says it and rings the first free agent. Every turn keeps its audio.

export type BotCallInput = {
  rt: CallRuntime;
  kit: SpeechKit;
  tenantId: number;
  legId: string;
  callUuid: string;
  flowId: number;
  flowVersion: number;
  graph: FlowGraph;
  /** 客户名称, 联系人, 坐席姓名, 公司名称 */
  vars: Record<string, string>;
  /** staff ids who may take 转人工 (free ones are tried in order) */
  agents: number[];
  /** 1 AI外呼 task call, 2 AI接待 */
  source: 1 | 2;
};
export type { BotCallResult, BotTurn } from './bot-types';

/** What the customer hears when 转人工 finds no free agent (then the bot hangs up); AI接待 takes a message instead (bot-message.ts). */
export const NO_AGENT_TEXT = '抱歉，坐席暂时繁忙，稍后会有专人与您联系，再见';
/** A call longer than this (ms on the line's clock) is ended by the bot. */
const MAX_CALL_MS = 30 * 60_000;
/** the line sent no audio for this long (real time) while the leg is gone: the call is over */
const LINE_IDLE_MS = 10_000;

const matchLabel = (m: BotStep['match']) => (m ? (m.kind === 'branch' || m.kind === 'llm' ? `${m.label}` : m.label) : '');

type Call = {
  input: BotCallInput;
  ear: Ear;
  session: FlowSession;
  turns: BotTurn[];
  play: (p: PromptSource) => Promise<Int16Array>;
  recognizer: Recognizer | undefined;
};

/** Says what the bot says now (its parts: recordings or synthesis, played as one prompt), kept as a bot turn. */
const say = async (call: Call, parts: PromptSource[], node: string, interrupt: boolean) => {
  if (parts.length === 0) return 'done' as const;
  const pieces = await Promise.all(parts.map((p) => call.play(p)));
  const audio = new Int16Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    audio.set(p, at);
    at += p.length;
  }
  const text = parts
    .map((p) => p.text)
    .filter(Boolean)
    .join(' ');
  const turn: BotTurn = { isAi: true, text, atMs: call.ear.nowMs(), endMs: 0, node, match: '', audio };
  // the answer's latency on the call's own clock: from the end of the customer's turn to this prompt
  const heard = call.turns.at(-1);
  if (heard && !heard.isAi) emitOpsSignal('bot_turn_seconds', Math.max(0, turn.atMs - heard.endMs) / 1000);
  call.turns.push(turn);
  const result = await speak(call.input.rt, call.input.legId, call.ear, audio, interrupt);
  turn.endMs = call.ear.nowMs();
  // a prompt cut short by the customer keeps what he heard of it
  if (result === 'stopped') turn.audio = audio.subarray(0, Math.min(audio.length, Math.max(0, (turn.endMs - turn.atMs) * 8)));
  return result;
};

/** The customer's next turn (or the call's end), as the engine reads it. */
const waitTurn = async (call: Call): Promise<CustomerTurn | 'ended'> => {
  const node = call.session.node();
  const heard = await hear(call.recognizer, call.input.legId, call.ear, node.silence.wait_ms);
  if (heard.kind === 'ended') return 'ended';
  if (heard.kind === 'silence') return { kind: 'silence' };
  const at = heard.kind === 'digit' ? heard.atMs : heard.segment.startMs;
  const text = heard.kind === 'digit' ? `按键${heard.digit}` : heard.text;
  const audio = heard.kind === 'digit' ? new Int16Array(0) : heard.segment.samples;
  const endMs = heard.kind === 'digit' ? heard.atMs : heard.segment.endMs;
  call.turns.push({ isAi: false, text: text || '（未识别）', atMs: at, endMs, node: node.key, match: '', audio });
  if (heard.kind === 'digit') return { kind: 'digit', digits: heard.digit };
  // an utterance nobody could read (no recognizer, or it failed) is a no-match turn
  return { kind: 'say', text: heard.text || '…' };
};

/** AI接待: no agent took the call, so the caller may leave a message (bot-message.ts). */
const leaveMessage = async (call: Call, node: string): Promise<{ end: AiCallEnd; transferStaffId: null }> => {
  const { rt, legId } = call.input;
  const turn = await takeMessage({
    legId,
    ear: call.ear,
    recognizer: call.recognizer,
    node,
    say: (text) => say(call, [{ text, audioFileId: null }], node, false),
    play: (samples) => speak(rt, legId, call.ear, samples, false),
  });
  if (turn) call.turns.push(turn);
  if (turn) return { end: 'message', transferStaffId: null };
  return { end: call.ear.isEnded ? 'customer_hangup' : 'hangup', transferStaffId: null };
};

/** Walks the flow until a terminal node, max rounds, the customer's hang-up or the call's limit. */
const walk = async (call: Call): Promise<{ end: AiCallEnd; transferStaffId: number | null }> => {
  const { session, input } = call;
  let step = session.start();
  for (;;) {
    const speech = session.speech().map((p) => ({ text: p.text, audioFileId: p.audio_file_id }));
    const said = await say(call, speech, step.node_key, step.interrupt);
    if (said === 'ended') return { end: 'customer_hangup', transferStaffId: null };
    const end = session.end();
    if (end === 'transfer') {
      const staffId = await transferToAgent(input.rt, input.legId, input.agents, input.callUuid);
      if (staffId !== null) return { end: 'transfer', transferStaffId: staffId };
      if (call.ear.isEnded) return { end: 'customer_hangup', transferStaffId: null };
      if (input.source === 2) return leaveMessage(call, step.node_key);
      await say(call, [{ text: NO_AGENT_TEXT, audioFileId: null }], step.node_key, false);
      return { end: 'hangup', transferStaffId: null };
    }
    if (end !== 'open') return { end, transferStaffId: null };
    if (call.ear.nowMs() > MAX_CALL_MS) return { end: 'hangup', transferStaffId: null };
    const turn = await waitTurn(call);
    if (turn === 'ended') return { end: 'customer_hangup', transferStaffId: null };
    session.setTalkSeconds(Math.round(call.ear.nowMs() / 1000));
    step = await session.next(turn);
    const last = call.turns.at(-1);
    if (turn.kind !== 'silence' && last && !last.isAi) last.match = matchLabel(step.match);
  }
};

/** Runs the flow on an ANSWERED leg until the bot or the customer ends it (or 转人工 bridges it); never throws. */
export const runBotCall = async (input: BotCallInput): Promise<BotCallResult> => {
  const ear = createEar(input.kit.vad);
  const session = createFlowSession(input.graph, { vars: input.vars });
  const call: Call = {
    input,
    ear,
    session,
    turns: [],
    play: createPromptPlayer(input.kit, input.rt.db, input.rt.config.dataDir, input.tenantId),
    recognizer: recognizerFor(input.kit, input.rt.line),
  };
  const unfollow = followLeg(input.legId, { digit: (d) => ear.digit(d), ended: () => ear.ended() });
  // the transcript so far, for the agent 转人工 rings (aicall-transcript.ts)
  liveStarted({
    tenantId: input.tenantId,
    callUuid: input.callUuid,
    flowId: input.flowId,
    graph: input.graph,
    turns: call.turns,
    grade: () => gradeCall(input.graph.grades, session.counters()),
  });
  let unlisten: (() => void) | undefined;
  const watchdog = setInterval(() => {
    if (ear.idleRealMs() > LINE_IDLE_MS && !input.rt.line.isActive(input.legId)) ear.ended();
  }, 1000);
  watchdog.unref();
  let outcome: { end: AiCallEnd; transferStaffId: number | null };
  try {
    unlisten = await hearLeg(input.rt, input.legId, ear);
    outcome = await walk(call);
  } catch {
    // the customer left before the bot could listen or play: his hang-up, not a failure
    const isGone = ear.isEnded || !input.rt.line.isActive(input.legId);
    outcome = { end: isGone ? 'customer_hangup' : 'error', transferStaffId: null };
  } finally {
    clearInterval(watchdog);
    unlisten?.();
    unfollow();
    liveEnded(input.callUuid);
  }
  if (outcome.end !== 'transfer' && outcome.end !== 'customer_hangup') {
    // the call record says why (issue 22): the bot ended it, or a system failure did
    const cause = outcome.end === 'error' ? HANGUP_CAUSE.systemError : HANGUP_CAUSE.botHangup;
    await hangupLeg(input.rt, input.legId, HANGUP_SIDE.system, cause).catch(() => false);
  }
  const talkSeconds = Math.round(ear.nowMs() / 1000);
  session.setTalkSeconds(talkSeconds);
  const counters = session.counters();
  return {
    end: outcome.end,
    counters,
    grade: gradeCall(input.graph.grades, counters),
    turns: call.turns,
    talkSeconds,
    transferStaffId: outcome.transferStaffId,
    nodeKeys: counters.nodes,
  };
};
