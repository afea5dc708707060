// The media thread's client (media-thread.ts): sessions in the worker, driven from main, with a
// UDP socket of the test as the far end.
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { VoiceEvent } from '../../control';
import { g711Encode, PT_PCMU } from './g711';
import type { DigitPress } from './media-session';
import { ThreadSession, terminateMediaThread } from './media-thread';
import { buildRtp, buildTelephoneEvent, parseRtp } from './rtp-packet';

const sockets: dgram.Socket[] = [];
const sessions: ThreadSession[] = [];

/** a far end: a socket that counts what it receives */
const farEnd = async () => {
  const s = dgram.createSocket('udp4');
  sockets.push(s);
  const got: { at: number; pt: number; payload: Buffer }[] = [];
  s.on('message', (m) => {
    const p = parseRtp(m);
    if (p) got.push({ at: performance.now(), pt: p.pt, payload: p.payload });
  });
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  return { socket: s, port: s.address().port, got };
};

const bound = async () => {
  const s = new ThreadSession('127.0.0.1');
  sessions.push(s);
  await s.bind();
  return s;
};

const tone = (ms: number, amplitude = 8000) =>
  Int16Array.from({ length: ms * 8 }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / 8000)));

const until = async (check: () => boolean, ms = 5000) => {
  const t = Date.now();
  while (!check()) {
    if (Date.now() - t > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  for (const s of sockets.splice(0)) s.close();
});

describe('media thread', () => {
  it('binds a session in the worker and plays a prompt to the end', async () => {
    const far = await farEnd();
    const s = await bound();
    expect(s.port).toBeGreaterThan(0);
    s.setRemote({ ip: '127.0.0.1', port: far.port, pt: PT_PCMU, dtmfPt: 101 });
    const t0 = performance.now();
    expect(await s.play(tone(200))).toBe('done');
    // 10 frames at 20 ms, plus the batch that reports it
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
    await until(() => far.got.length >= 10);
    // the figures come with the worker's batches, on main's clock
    await until(() => s.stats().txPackets >= 10);
    const firstTx = s.stats().firstTxAt ?? 0;
    expect(firstTx).toBeGreaterThan(t0 - 1000);
    expect(firstTx).toBeLessThanOrEqual(performance.now());
  });

  it('stopPlay ends a prompt as stopped; close ends the queued ones as ended', async () => {
    const far = await farEnd();
    const s = await bound();
    s.setRemote({ ip: '127.0.0.1', port: far.port, pt: PT_PCMU, dtmfPt: 101 });
    const first = s.play(tone(3000));
    await until(() => far.got.length >= 3);
    s.stopPlay();
    expect(await first).toBe('stopped');
    const a = s.play(tone(3000));
    const b = s.play(tone(3000));
    await until(() => far.got.length >= 8);
    await s.close();
    expect(await a).toBe('ended');
    expect(await b).toBe('ended');
    expect(await s.play(tone(100))).toBe('ended');
  });

  it('reports the far end as frames (batched), key presses and voice activity', async () => {
    const s = await bound();
    const far = await farEnd();
    s.setRemote({ ip: '127.0.0.1', port: far.port, pt: PT_PCMU, dtmfPt: 101 });
    const frames: Int16Array[] = [];
    s.onFrame = (f) => frames.push(f);
    const voice: VoiceEvent[] = [];
    s.detect({}, (e) => voice.push(e));
    // 0.5 s quiet, 1 s voiced, 1 s quiet, as 20 ms packets
    const quiet = new Int16Array(160).map(() => Math.round((Math.random() - 0.5) * 40));
    for (let i = 0; i < 125; i++) {
      const voiced = i >= 25 && i < 75;
      const samples = voiced ? tone(20, 6000) : quiet;
      const packet = buildRtp({
        pt: PT_PCMU,
        marker: false,
        seq: i,
        timestamp: i * 160,
        ssrc: 7,
        payload: g711Encode(samples, PT_PCMU),
      });
      far.socket.send(packet, s.port, '127.0.0.1');
      await new Promise((r) => setTimeout(r, 20));
    }
    const digits: DigitPress[] = [];
    s.onDigit = (d) => digits.push(d);
    for (let i = 0; i < 3; i++) {
      const payload = buildTelephoneEvent({ event: 5, end: true, volume: 10, duration: 800 });
      far.socket.send(
        buildRtp({ pt: 101, marker: false, seq: 125 + i, timestamp: 125 * 160, ssrc: 7, payload }),
        s.port,
        '127.0.0.1',
      );
    }
    await until(() => frames.length >= 120 && voice.some((e) => e.kind === 'end') && digits.length > 0);
    expect(digits).toEqual([{ digit: '5', durationMs: 100 }]);
    expect(frames.every((f) => f.length === 160)).toBe(true);
    const start = voice.find((e) => e.kind === 'start');
    const end = voice.find((e) => e.kind === 'end');
    expect(start?.kind === 'start' && start.atMs).toBeGreaterThanOrEqual(400);
    expect(start?.kind === 'start' && start.atMs).toBeLessThan(700);
    if (end?.kind !== 'end') throw new Error('no end');
    expect(end.segment.endMs - end.segment.startMs).toBeGreaterThan(800);
    expect(end.segment.samples.length).toBeGreaterThan(8000);
    // the clock: frames received, one event per batch at most
    const clocks = voice.filter((e) => e.kind === 'clock');
    expect(clocks.at(-1)?.frames).toBeGreaterThanOrEqual(120);
    expect(clocks.length).toBeLessThan(60);
  });

  it('stops an interruptible prompt itself when speech starts (barge-in without main)', async () => {
    const far = await farEnd();
    const s = await bound();
    s.setRemote({ ip: '127.0.0.1', port: far.port, pt: PT_PCMU, dtmfPt: 101 });
    const starts: number[] = [];
    const d = s.detect({}, (e) => {
      if (e.kind === 'start') starts.push(performance.now());
    });
    d.stopPlayOnSpeech(true);
    const playing = s.play(tone(5000));
    let stoppedAt = 0;
    void playing.then(() => {
      stoppedAt = performance.now();
    });
    const quiet = new Int16Array(160).map(() => Math.round((Math.random() - 0.5) * 40));
    for (let i = 0; i < 90 && !stoppedAt; i++) {
      // louder than the prompt it talks over (the detector's echo guard), after 0.6 s of quiet
      const samples = i >= 30 ? tone(20, 20000) : quiet;
      far.socket.send(
        buildRtp({ pt: PT_PCMU, marker: false, seq: i, timestamp: i * 160, ssrc: 3, payload: g711Encode(samples, PT_PCMU) }),
        s.port,
        '127.0.0.1',
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await playing).toBe('stopped');
    expect(starts.length).toBe(1);
  });

  it('forwards between two sessions inside the worker', async () => {
    const [x, y] = [await farEnd(), await farEnd()];
    const a = await bound();
    const b = await bound();
    a.setRemote({ ip: '127.0.0.1', port: x.port, pt: PT_PCMU, dtmfPt: 101 });
    b.setRemote({ ip: '127.0.0.1', port: y.port, pt: PT_PCMU, dtmfPt: 101 });
    a.forwardTo = b;
    b.forwardTo = a;
    const payload = Buffer.alloc(160, 0x55);
    for (let i = 0; i < 5; i++)
      x.socket.send(buildRtp({ pt: PT_PCMU, marker: false, seq: i, timestamp: i * 160, ssrc: 9, payload }), a.port, '127.0.0.1');
    await until(() => y.got.filter((p) => p.payload.equals(payload)).length === 5);
  });

  it('a worker that dies ends its sessions: plays end, onLost is told, a new session gets a new worker', async () => {
    const far = await farEnd();
    const s = await bound();
    s.setRemote({ ip: '127.0.0.1', port: far.port, pt: PT_PCMU, dtmfPt: 101 });
    let lost = 0;
    s.onLost = () => lost++;
    const playing = s.play(tone(5000));
    await until(() => far.got.length >= 3);
    await terminateMediaThread();
    expect(await playing).toBe('ended');
    expect(lost).toBe(1);
    await s.close();
    expect(await s.play(tone(100))).toBe('ended');
    const again = await bound();
    again.setRemote({ ip: '127.0.0.1', port: far.port, pt: PT_PCMU, dtmfPt: 101 });
    expect(await again.play(tone(100))).toBe('done');
  });
});
