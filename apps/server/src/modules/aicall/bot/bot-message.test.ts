import { describe, expect, it } from 'vitest';
import { DEFAULT_VAD } from '../../speech/vad';
import { createEar } from './bot-ear';
import { MESSAGE_LIMITS, MESSAGE_MATCH, MESSAGE_TEXT, messageBeep, takeMessage } from './bot-message';

// 留言's limits on the bot's own ear (VAD included), fed 20 ms frames as a line would: the message
// ends quietMs after the caller's last words, noSpeechMs when he never speaks, at maxMs in all, or
// when he hangs up (what he was saying kept).

const FRAME = 160;
const quiet = () => {
  const f = new Int16Array(FRAME);
  for (let i = 0; i < FRAME; i++) f[i] = Math.round((Math.random() - 0.5) * 40);
  return f;
};
const voiced = (n: number) => {
  const f = new Int16Array(FRAME);
  for (let i = 0; i < FRAME; i++) f[i] = Math.round(6000 * Math.sin((2 * Math.PI * 300 * (n * FRAME + i)) / 8000));
  return f;
};

/** Runs takeMessage while feeding `talk(ms)` (voiced or not) until it resolves or `endAtMs` (the caller hangs up). */
const run = async (talk: (ms: number) => boolean, endAtMs = Number.POSITIVE_INFINITY) => {
  const ear = createEar(DEFAULT_VAD);
  const said: string[] = [];
  let done = false;
  const result = takeMessage({
    legId: 'leg',
    ear,
    recognizer: undefined,
    node: 'agent',
    say: async (text) => {
      said.push(text);
      return 'done';
    },
    play: async (samples) => {
      said.push(`beep ${samples.length}`);
      return 'done';
    },
  }).finally(() => {
    done = true;
  });
  await new Promise((r) => setImmediate(r));
  let n = 0;
  while (!done && ear.nowMs() < 200_000) {
    if (ear.nowMs() >= endAtMs) {
      ear.ended();
      break;
    }
    ear.frame(talk(ear.nowMs()) ? voiced(n) : quiet());
    n++;
    await new Promise((r) => setImmediate(r));
  }
  return { turn: await result, said, endedAtMs: ear.nowMs() };
};

describe('takeMessage', () => {
  it('asks for the message and beeps first', async () => {
    const { said } = await run(() => false);
    expect(said).toEqual([MESSAGE_TEXT, `beep ${messageBeep().length}`]);
  });

  it('a caller who never speaks leaves no message: it ends after noSpeechMs', async () => {
    const { turn, endedAtMs } = await run(() => false);
    expect(turn).toBeNull();
    expect(endedAtMs).toBeGreaterThanOrEqual(MESSAGE_LIMITS.noSpeechMs);
    expect(endedAtMs).toBeLessThan(MESSAGE_LIMITS.noSpeechMs + 200);
  });

  it('two utterances with a pause are one message turn; it ends quietMs after the last', async () => {
    // 1–3 s and 4.5–6 s (a 1.5 s pause, under quietMs)
    const { turn, endedAtMs } = await run((ms) => (ms >= 1000 && ms < 3000) || (ms >= 4500 && ms < 6000));
    expect(turn).toMatchObject({ isAi: false, text: '（未识别）', match: MESSAGE_MATCH, node: 'agent' });
    expect(turn?.atMs).toBeGreaterThanOrEqual(900);
    expect(turn?.atMs).toBeLessThan(1200);
    // the clip runs from the first word to the last, the pause included (with the VAD's padding)
    const seconds = (turn?.audio.length ?? 0) / 8000;
    expect(seconds).toBeGreaterThan(5);
    expect(seconds).toBeLessThan(5.8);
    const lastEnd = turn?.endMs ?? 0;
    expect(endedAtMs).toBeGreaterThanOrEqual(lastEnd + MESSAGE_LIMITS.quietMs);
    expect(endedAtMs).toBeLessThan(lastEnd + MESSAGE_LIMITS.quietMs + 200);
  });

  it('a caller who keeps talking is cut at maxMs', async () => {
    // 2 s of speech, 1 s pause, over and over
    const { turn } = await run((ms) => ms % 3000 < 2000);
    expect(turn).not.toBeNull();
    expect((turn?.audio.length ?? 0) / 8000).toBeLessThanOrEqual(MESSAGE_LIMITS.maxMs / 1000);
    expect((turn?.audio.length ?? 0) / 8000).toBeGreaterThan(MESSAGE_LIMITS.maxMs / 1000 - 4);
  });

  it('a caller who hangs up while speaking leaves what he said', async () => {
    const { turn } = await run((ms) => ms >= 500, 2500);
    expect(turn).toMatchObject({ match: MESSAGE_MATCH });
    expect((turn?.audio.length ?? 0) / 8000).toBeGreaterThan(1.5);
  });
});
