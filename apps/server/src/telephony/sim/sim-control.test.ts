import { afterEach, describe, expect, it } from 'vitest';
import type { AudioFrame, ControlEvent } from '../control';
import { SPEECH_FROM_MS, SPEECH_TO_MS } from './sim-audio';
import { createSimControl, type SimControlLine } from './sim-control';
import { samplesOfWav } from './wav';

// The sim line of call control on its own: outcomes from the sim number table, frames, digits,
// prompts in the recording, bridging, hang-up causes.

const SPEED = 100;
let line: SimControlLine;
let events: ControlEvent[];

const start = (talkSeconds = 3600) => {
  line = createSimControl({ speed: SPEED, talkSeconds });
  events = [];
  line.onControlEvent((e) => {
    events.push(e);
  });
};
afterEach(() => line.close());

const waitEvent = async (legId: string, kind: ControlEvent['kind'], timeoutMs = 3000) => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const e = events.find((x) => x.legId === legId && x.kind === kind);
    if (e) return e;
    if (Date.now() > until) throw new Error(`no ${kind} on ${legId}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const number = (digit: number) => `1390000000${digit}`;
const originate = async (legId: string, digit: number, ringSeconds = 30) =>
  line.originate({ legId, target: { kind: 'number', number: number(digit), callerId: '' }, ringSeconds });

/** The energy of a tone of `freq` Hz in a window of samples (Goertzel), normalised per sample. */
const toneEnergy = (s: Int16Array, from: number, to: number, freq: number) => {
  const k = 2 * Math.cos((2 * Math.PI * freq) / 8000);
  let a = 0;
  let b = 0;
  for (let i = from; i < to; i++) {
    const c = s[i] + k * a - b;
    b = a;
    a = c;
  }
  return (a * a + b * b - k * a * b) / (to - from) ** 2;
};

describe('sim call-control line', () => {
  it('originates by the sim number table: answered, busy, empty number, no answer at the ring limit', async () => {
    start();
    await Promise.all([originate('ans', 1), originate('busy', 6), originate('empty', 7), originate('ring', 5, 2)]);
    await waitEvent('ans', 'answered');
    expect(events.filter((e) => e.legId === 'ans').map((e) => e.kind)).toEqual(['ringing', 'answered', 'handle']);
    expect(await waitEvent('ans', 'handle')).toMatchObject({ handle: '{"sim":"ans"}' });
    expect(await waitEvent('busy', 'ended')).toMatchObject({ cause: 'busy', side: 2 });
    expect(await waitEvent('empty', 'ended')).toMatchObject({ cause: 'empty_number' });
    expect(events.some((e) => e.legId === 'empty' && e.kind === 'ringing')).toBe(false);
    const noAnswer = await waitEvent('ring', 'ended');
    expect(noAnswer).toMatchObject({ cause: 'no_answer' });
    // answered after 1 s of ringing (0.5 s after the dial): the times are simulated
    const ringing = (await waitEvent('ans', 'ringing')).at.getTime();
    expect((await waitEvent('ans', 'answered')).at.getTime() - ringing).toBe(1000);
    expect(await line.hangup('ans', 'normal')).toBe(true);
    expect(await waitEvent('ans', 'ended')).toMatchObject({ side: 3, cause: 'normal' });
    expect(line.isActive('ans')).toBe(false);
    expect(await line.hangup('ans', 'normal')).toBe(false);
    expect(await line.endByHandle?.('{"sim":"ans"}', 'normal')).toBe(false);
  });

  it('hangs up an unanswered leg as cancelled, and reports the far end hanging up', async () => {
    start();
    await originate('a', 5);
    await waitEvent('a', 'ringing');
    await line.hangup('a', 'normal');
    expect(await waitEvent('a', 'ended')).toMatchObject({ cause: 'cancelled', recording: undefined });
    await originate('b', 1);
    await waitEvent('b', 'answered');
    await line.simulateHangup('b');
    expect(await waitEvent('b', 'ended')).toMatchObject({ side: 2, cause: 'normal' });
  });

  it('listens in 20 ms frames of 160 samples: silence, then a speech burst from 1.0 s', async () => {
    start();
    await originate('l', 1);
    await waitEvent('l', 'answered');
    const frames: AudioFrame[] = [];
    const stop = line.listen('l', (f) => frames.push(f));
    // 2.5 simulated seconds = 125 frames
    while (frames.length < 125) await new Promise((r) => setTimeout(r, 5));
    stop();
    expect(frames.every((f) => f.samples.length === 160 && f.legId === 'l')).toBe(true);
    expect(frames.slice(0, 125).map((f) => f.seq)).toEqual(Array.from({ length: 125 }, (_, i) => i));
    const peak = (f: AudioFrame) => Math.max(...f.samples.map(Math.abs));
    const silence = frames.slice(0, SPEECH_FROM_MS / 20).map(peak);
    const speech = frames.slice(SPEECH_FROM_MS / 20, SPEECH_TO_MS / 20).map(peak);
    expect(Math.max(...silence)).toBeLessThan(100);
    expect(Math.max(...speech)).toBeGreaterThan(3000);
  });

  it('reports digits the far end presses', async () => {
    start();
    await originate('d', 1);
    await waitEvent('d', 'answered');
    await line.simulateDigit('d', '5');
    await line.simulateDigit('d', '#', 200);
    const digits = events.filter((e) => e.kind === 'digit');
    expect(digits).toMatchObject([
      { legId: 'd', digit: '5', durationMs: 120 },
      { legId: 'd', digit: '#', durationMs: 200 },
    ]);
    await expect(line.simulateDigit('d', 'x')).rejects.toThrow();
  });

  it('plays a prompt for samples.length / 8 ms (sped up) and the recording holds it', async () => {
    start();
    await originate('p', 1);
    await waitEvent('p', 'answered');
    // 0.5 s of 1 kHz at half scale
    const tone = Int16Array.from({ length: 4000 }, (_, i) => Math.round(16000 * Math.sin((2 * Math.PI * 1000 * i) / 8000)));
    const t0 = Date.now();
    expect(await line.play('p', tone)).toBe('done');
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(4);
    expect(took).toBeLessThan(200);
    // a queued prompt stopped at once
    const stopped = line.play('p', tone);
    line.stopPlay('p');
    expect(await stopped).toBe('stopped');
    await line.hangup('p', 'normal');
    const ended = (await waitEvent('p', 'ended')) as Extract<ControlEvent, { kind: 'ended' }>;
    const samples = samplesOfWav(ended.recording as Buffer);
    // find the tone: the 100 ms window with the most 1 kHz energy holds far more of it than of any
    // other pitch (the recording may start with the tone: on a loaded machine the prompt came before
    // the first 100 ms of the far end's frames, so the first window is no quiet reference)
    let best = 0;
    let bestAt = 0;
    for (let i = 0; i + 800 <= samples.length; i += 80) {
      const e = toneEnergy(samples, i, i + 800, 1000);
      if (e > best) [best, bestAt] = [e, i];
    }
    expect(best).toBeGreaterThan(1e6);
    for (const other of [300, 1700, 2500]) expect(best).toBeGreaterThan(toneEnergy(samples, bestAt, bestAt + 800, other) * 100);
  });

  it("places a scripted customer's reply 0.6 s after the prompt's end on the call's clock, however late the timers run", async () => {
    start();
    // script 1 (refuses): "不需要" after the first prompt; the last digit 1: answered
    await line.originate({
      legId: 's',
      target: { kind: 'number', number: '13900000011', callerId: '' },
      ringSeconds: 30,
      role: 'bot',
    });
    await waitEvent('s', 'answered');
    const played = line.play('s', new Int16Array(4000)); // 0.5 s
    // the event loop stalls for 300 ms (30 s of the call at 100×): every timer of the leg runs late
    const until = Date.now() + 300;
    while (Date.now() < until) {}
    expect(await played).toBe('done');
    const [said] = line.simHeard('s');
    expect(said.text).toBe('不需要');
    // the prompt started within a few ms of the answer (a few hundred ms of the call) and lasted 500 ms
    expect(said.fromMs).toBeGreaterThanOrEqual(500 + 600);
    expect(said.fromMs).toBeLessThan(5000);
    expect(said.toMs - said.fromMs).toBe(750);
  });

  it('rings an extension until answered, then joins it to the waiting leg (bridgeTo)', async () => {
    start();
    await originate('cust', 1);
    await waitEvent('cust', 'answered');
    await line.originate({
      legId: 'agent',
      target: { kind: 'extension', user: '8001', callerId: 'call-1' },
      ringSeconds: 30,
      bridgeTo: { legId: 'cust', mode: '3pcc' },
    });
    await waitEvent('agent', 'ringing');
    expect(events.some((e) => e.legId === 'agent' && e.kind === 'answered')).toBe(false);
    await line.answer('agent');
    expect(await waitEvent('agent', 'bridged')).toMatchObject({ otherLegId: 'cust', mode: '3pcc' });
    expect(await waitEvent('cust', 'bridged')).toMatchObject({ otherLegId: 'agent' });
  });

  it('offers an inbound leg, answers it, and the caller gives up when nobody does', async () => {
    start();
    const legId = await line.simulateInbound({ from: '13800138000', to: '4001' });
    expect(await waitEvent(legId, 'offered')).toMatchObject({ from: '13800138000', to: '4001' });
    await line.answer(legId);
    await waitEvent(legId, 'answered');
    const gone = await line.simulateInbound({ from: '13800138001', to: '4001', ringSeconds: 1 });
    expect(await waitEvent(gone, 'ended')).toMatchObject({ cause: 'no_answer', side: 2 });
  });
});
