import type { Recognizer } from '../../speech/recognizer';
import type { VadSegment } from '../../speech/vad';
import type { Ear } from './bot-ear';
import { recognize } from './bot-hear';
import type { BotTurn } from './bot-types';

// 留言 (issue 16, AI接待 only): 转人工 found no agent to take the call, so the bot asks the caller
// to leave a message, beeps, and records what he says: his utterances (the VAD's segments, the
// silences between them kept) until he hangs up, MESSAGE_LIMITS.quietMs of silence after he
// spoke, noSpeechMs when he never speaks, or maxMs in all (the line's clock). The message is kept
// as one customer turn whose match is MESSAGE_MATCH (its clip is the message); the call then ends
// as 'message'. A caller who says nothing leaves no turn (the call ends as before).

export const MESSAGE_TEXT = '坐席暂时繁忙，请在提示音后留言，留言完毕请挂机';
export const MESSAGE_MATCH = '留言';
export const MESSAGE_LIMITS = { maxMs: 60_000, quietMs: 3_000, noSpeechMs: 10_000 } as const;

const RATE = 8000;
/** the tone before the message: 400 ms of 1 kHz at −12 dBFS */
export const messageBeep = (): Int16Array => {
  const out = new Int16Array((RATE * 400) / 1000);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * 1000 * i) / RATE));
  return out;
};

export type MessageDeps = {
  legId: string;
  ear: Ear;
  recognizer: Recognizer | undefined;
  node: string;
  /** says the text as a bot turn */
  say: (text: string) => Promise<'done' | 'stopped' | 'ended'>;
  /** plays samples that are not a turn (the beep) */
  play: (samples: Int16Array) => Promise<'done' | 'stopped' | 'ended'>;
};

/** The segments in one clip, the silences between them kept; at most maxMs of it. */
const joinSegments = (segments: VadSegment[]): Int16Array => {
  const first = segments[0].audioStartMs;
  const last = segments.at(-1) as VadSegment;
  const totalMs = Math.min(MESSAGE_LIMITS.maxMs, last.audioStartMs + (last.samples.length * 1000) / RATE - first);
  const out = new Int16Array(Math.round((totalMs * RATE) / 1000));
  for (const s of segments) {
    const at = Math.round(((s.audioStartMs - first) * RATE) / 1000);
    if (at >= out.length) break;
    out.set(s.samples.subarray(0, out.length - at), at);
  }
  return out;
};

/** Records the message after the prompt and the beep: its turn, or null when the caller left or said nothing. */
const record = async (d: MessageDeps): Promise<BotTurn | null> => {
  const startMs = d.ear.nowMs();
  const segments: VadSegment[] = [];
  for (;;) {
    const lastEnd = segments.at(-1)?.endMs;
    const deadline = Math.min(
      startMs + MESSAGE_LIMITS.maxMs,
      lastEnd === undefined ? startMs + MESSAGE_LIMITS.noSpeechMs : lastEnd + MESSAGE_LIMITS.quietMs,
    );
    const e = await d.ear.next(deadline);
    if (e.kind === 'speech') segments.push(e.segment);
    if (e.kind === 'speech' && e.segment.endMs - startMs < MESSAGE_LIMITS.maxMs) continue;
    if (e.kind === 'speechStart' || e.kind === 'digit') continue;
    if (e.kind === 'ended') {
      const rest = d.ear.flush();
      if (rest) segments.push(rest);
    }
    break;
  }
  if (segments.length === 0) return null;
  const texts = await Promise.all(segments.map((s) => recognize(d.recognizer, d.legId, s)));
  const text = texts.filter(Boolean).join('，');
  return {
    isAi: false,
    text: text || '（未识别）',
    atMs: segments[0].startMs,
    endMs: (segments.at(-1) as VadSegment).endMs,
    node: d.node,
    match: MESSAGE_MATCH,
    audio: joinSegments(segments),
  };
};

/** Asks for a message, beeps and records it; the message turn, or null (the caller left first or said nothing). */
export const takeMessage = async (d: MessageDeps): Promise<BotTurn | null> => {
  if ((await d.say(MESSAGE_TEXT)) === 'ended') return null;
  if ((await d.play(messageBeep())) === 'ended') return null;
  return record(d);
};
