// One leg's RTP endpoint on the app's address: G.711 sender paced by the shared 20 ms scheduler
// (prompts queue as 160-sample frames, silence in between so rtpengine records a continuous
// stream), receiver with loss / gap / jitter figures, decoded 20 ms frames for listeners, RFC 4733
// digits reported once at their end, raw forwarding to another session (bridge mode forward), and
// voice-activity detection on the received audio with the frame sent in the same tick as the echo
// reference. It runs where the scheduler runs: the media worker (media-worker.ts) or main.

import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { type VadOptions, VoiceActivityDetector } from '../../../modules/speech/vad';
import { FRAME_SAMPLES, type PlayResult, type VoiceDetection, type VoiceEvent } from '../../control';
import { g711Decode, g711Encode, isG711 } from './g711';
import type { DigitPress, MediaSession, Remote, RtpStats } from './media-session';
import {
  buildRtp,
  buildTelephoneEvent,
  digitOfEvent,
  eventOfDigit,
  parseRtp,
  parseTelephoneEvent,
  type RtpPacket,
} from './rtp-packet';
import { scheduleStream, type Ticking, unscheduleStream } from './scheduler';

export type { DigitPress, Remote, RtpStats } from './media-session';

/** a prompt, sent 160 samples per tick from `at` (framed as it goes: 100 prompts of 8 s queued at once cost nothing), or its end */
type Queued = { samples: Int16Array; at: number } | { done: (r: PlayResult) => void };

const SILENCE = new Int16Array(FRAME_SAMPLES);

export class RtpSession implements Ticking, MediaSession {
  readonly socket = dgram.createSocket('udp4');
  port = 0;
  remote: Remote | undefined;
  /** decoded 20 ms frames of the far end */
  onFrame: ((samples: Int16Array) => void) | undefined;
  onDigit: ((press: DigitPress) => void) | undefined;
  onFirstPacket: (() => void) | undefined;
  /** never called here: a session in this thread cannot lose its media without close() */
  onLost: (() => void) | undefined;
  /** the session its received packets are copied to (forward bridge); its own sending stops */
  forwardTo: RtpSession | undefined;
  private queue: Queued[] = [];
  private dtmfOut: { payload: Buffer; isFirst: boolean; isLast: boolean; duration: number }[] = [];
  private isSending = true;
  private ssrc = randomInt(2 ** 31);
  private seq = randomInt(65536);
  private ts = randomInt(2 ** 31);
  private fwdOffset: number | undefined;
  private rx = { packets: 0, firstSeq: -1, maxSeq: 0, cycles: 0, lastAt: 0, maxGap: 0, jitter: 0, transit: NaN };
  private tx = { packets: 0, firstAt: undefined as number | undefined };
  private firstRxAt: number | undefined;
  private lastEventTs: number | undefined;
  private isClosed = false;
  /** the prompt frame sent at the last tick (undefined: silence, a digit or nothing) */
  private lastSent: Int16Array | undefined;
  private voice:
    | { vad: VoiceActivityDetector; frames: number; onVoice: (e: VoiceEvent) => void; isStopOnSpeech: boolean }
    | undefined;

  constructor(private readonly address: string) {
    this.socket.on('message', (m) => this.receive(m));
    this.socket.on('error', () => {});
  }

  bind(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(0, this.address, () => {
        this.port = this.socket.address().port;
        resolve(this.port);
      });
    });
  }

  /** where to send (from the far end's SDP); starts the 20 ms sending */
  setRemote(remote: Remote) {
    this.remote = remote;
    if (!this.isClosed) scheduleStream(this);
  }

  /**
   * queues samples (read as they are sent: the caller does not change them, and the media thread
   * hands over its own copy); resolves when played, stopped (stopPlay) or the session closed
   */
  play(samples: Int16Array): Promise<PlayResult> {
    if (this.isClosed) return Promise.resolve('ended');
    if (samples.length > 0) this.queue.push({ samples, at: 0 });
    return new Promise((done) => this.queue.push({ done }));
  }

  stopPlay(result: PlayResult = 'stopped') {
    const q = this.queue;
    this.queue = [];
    for (const x of q) if ('done' in x) x.done(result);
  }

  /** stops (false) or resumes the app's own audio (prompts and silence), e.g. once 3PCC took the media away */
  setSending(isSending: boolean) {
    this.isSending = isSending;
    if (!isSending) this.stopPlay();
  }

  /** sends an RFC 4733 key press (used by tests and the bench to play the customer) */
  sendDigit(digit: string, ms = 100) {
    const event = eventOfDigit(digit);
    if (event === undefined) throw new Error(`not a DTMF digit: ${digit}`);
    const n = Math.max(1, Math.round(ms / 20));
    const duration = n * FRAME_SAMPLES;
    for (let i = 1; i <= n; i++) {
      const payload = buildTelephoneEvent({ event, end: false, volume: 10, duration: i * FRAME_SAMPLES });
      this.dtmfOut.push({ payload, isFirst: i === 1, isLast: false, duration });
    }
    for (let i = 0; i < 3; i++) {
      const payload = buildTelephoneEvent({ event, end: true, volume: 10, duration });
      this.dtmfOut.push({ payload, isFirst: false, isLast: i === 2, duration });
    }
  }

  tick() {
    const r = this.remote;
    this.lastSent = undefined;
    if (!r || this.isClosed || this.forwardTo) return;
    const ev = r.dtmfPt === undefined ? undefined : this.dtmfOut.shift();
    if (ev && r.dtmfPt !== undefined) {
      // every packet of one event carries the event's start timestamp; the clock moves on after it
      this.send({ pt: r.dtmfPt, marker: ev.isFirst, seq: 0, timestamp: 0, ssrc: 0, payload: ev.payload }, 0);
      if (ev.isLast) this.ts = (this.ts + ev.duration) >>> 0;
      return;
    }
    if (!this.isSending) return;
    let head = this.queue[0];
    while (head && 'done' in head) {
      this.queue.shift();
      head.done('done');
      head = this.queue[0];
    }
    let frame: Int16Array | undefined;
    if (head && 'samples' in head) {
      const { samples, at } = head;
      frame = samples.subarray(at, at + FRAME_SAMPLES);
      if (frame.length < FRAME_SAMPLES) frame = Int16Array.from({ length: FRAME_SAMPLES }, (_, i) => samples[at + i] ?? 0);
      head.at += FRAME_SAMPLES;
      if (head.at >= samples.length) this.queue.shift();
    }
    this.lastSent = frame;
    this.send(
      { pt: r.pt, marker: false, seq: 0, timestamp: 0, ssrc: 0, payload: g711Encode(frame ?? SILENCE, r.pt) },
      FRAME_SAMPLES,
    );
    if (this.queue.length > 0 && 'done' in (this.queue[0] as Queued)) {
      const tail = this.queue.shift() as { done: (r: PlayResult) => void };
      tail.done('done');
    }
  }

  /** sends with this session's SSRC, sequence and clock; `advance` is the payload's duration in samples */
  private send(p: RtpPacket, advance: number) {
    const r = this.remote;
    if (!r) return;
    const packet = buildRtp({ ...p, seq: this.seq, timestamp: this.ts, ssrc: this.ssrc });
    this.seq = (this.seq + 1) & 0xffff;
    this.ts = (this.ts + advance) >>> 0;
    this.tx.packets++;
    this.tx.firstAt ??= performance.now();
    this.socket.send(packet, r.port, r.ip);
  }

  /** copies a packet received on the other leg, keeping its payload type, marker and timing */
  private forward(p: RtpPacket) {
    const r = this.remote;
    if (!r || this.isClosed) return;
    this.fwdOffset ??= (this.ts - p.timestamp) >>> 0;
    const pt = isG711(p.pt) ? r.pt : r.dtmfPt;
    if (pt === undefined) return;
    const payload = isG711(p.pt) && p.pt !== r.pt ? g711Encode(g711Decode(p.payload, p.pt), r.pt) : p.payload;
    const packet = buildRtp({
      ...p,
      pt,
      payload,
      seq: this.seq,
      timestamp: (p.timestamp + this.fwdOffset) >>> 0,
      ssrc: this.ssrc,
    });
    this.seq = (this.seq + 1) & 0xffff;
    this.tx.packets++;
    this.socket.send(packet, r.port, r.ip);
  }

  private receive(m: Buffer) {
    const p = parseRtp(m);
    if (!p || this.isClosed) return;
    const now = performance.now();
    const rx = this.rx;
    rx.packets++;
    if (this.firstRxAt === undefined) {
      this.firstRxAt = now;
      this.onFirstPacket?.();
    }
    if (rx.lastAt) rx.maxGap = Math.max(rx.maxGap, now - rx.lastAt);
    rx.lastAt = now;
    if (rx.firstSeq < 0) {
      rx.firstSeq = p.seq;
      rx.maxSeq = p.seq;
    } else {
      const d = (p.seq - rx.maxSeq) & 0xffff;
      if (d > 0 && d < 32768) {
        if (p.seq < rx.maxSeq) rx.cycles += 65536;
        rx.maxSeq = p.seq;
      }
    }
    this.forwardTo?.forward(p);
    if (p.pt === this.remote?.dtmfPt) return this.receiveEvent(p);
    if (!isG711(p.pt)) return;
    const transit = now * 8 - p.timestamp;
    if (!Number.isNaN(rx.transit)) {
      const d = Math.abs(transit - rx.transit);
      if (d < 8000) rx.jitter += (d - rx.jitter) / 16;
    }
    rx.transit = transit;
    if (!this.onFrame && !this.voice) return;
    const samples = g711Decode(p.payload, p.pt);
    if (this.voice) this.detectIn(samples);
    this.onFrame?.(samples);
  }

  detect(options: Partial<VadOptions>, onVoice: (e: VoiceEvent) => void): VoiceDetection {
    const voice = { vad: new VoiceActivityDetector(options), frames: 0, onVoice, isStopOnSpeech: false };
    this.voice = voice;
    return {
      stop: () => {
        if (this.voice === voice) this.voice = undefined;
      },
      stopPlayOnSpeech: (isOn) => {
        voice.isStopOnSpeech = isOn;
      },
    };
  }

  private detectIn(samples: Int16Array) {
    const v = this.voice as NonNullable<RtpSession['voice']>;
    const frames = ++v.frames;
    for (const e of v.vad.push(samples, this.lastSent)) {
      if (e.type !== 'start') {
        v.onVoice({ kind: 'end', frames, segment: e.segment, isFlush: false });
        continue;
      }
      // barge-in: the prompt stops here, at the tick after the voiced frame
      if (v.isStopOnSpeech) this.stopPlay();
      v.onVoice({ kind: 'start', frames, atMs: e.atMs });
    }
    v.onVoice({ kind: 'clock', frames });
  }

  /** one digit per key press: reported at its first end packet (the end is sent three times) */
  private receiveEvent(p: RtpPacket) {
    const e = parseTelephoneEvent(p.payload);
    if (!e?.end || this.lastEventTs === p.timestamp) return;
    this.lastEventTs = p.timestamp;
    const digit = digitOfEvent(e.event);
    if (digit) this.onDigit?.({ digit, durationMs: Math.round(e.duration / 8) });
  }

  stats(): RtpStats {
    const rx = this.rx;
    const expected = rx.firstSeq < 0 ? 0 : rx.cycles + rx.maxSeq - rx.firstSeq + 1;
    const lost = Math.max(0, expected - rx.packets);
    return {
      rxPackets: rx.packets,
      expected,
      lost,
      lossPct: expected ? Math.round((10000 * lost) / expected) / 100 : 0,
      maxGapMs: Math.round(rx.maxGap * 10) / 10,
      jitterMs: Math.round(rx.jitter / 0.8) / 10,
      txPackets: this.tx.packets,
      firstRxAt: this.firstRxAt,
      firstTxAt: this.tx.firstAt,
    };
  }

  close(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    this.isClosed = true;
    unscheduleStream(this);
    // a turn in progress when the media ends (a message left until the caller hung up)
    const v = this.voice;
    this.voice = undefined;
    for (const e of v?.vad.flush() ?? []) {
      if (e.type === 'end') v?.onVoice({ kind: 'end', frames: v.frames, segment: e.segment, isFlush: true });
    }
    this.stopPlay('ended');
    this.onFrame = undefined;
    this.onDigit = undefined;
    this.socket.close();
    return Promise.resolve();
  }
}
