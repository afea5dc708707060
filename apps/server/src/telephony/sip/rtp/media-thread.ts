// Main's side of the media thread (issue 25, media-worker.ts): one worker per process, started with
// the first session, and a proxy per leg with the MediaSession surface sip-control.ts and
// sip-bridge.ts use. Commands go to the worker as they come; what the worker reports arrives in
// batches (media-worker.ts). Figures (stats) are those of the last batch. When the worker dies
// every session of it ends: pending binds fail, prompts end 'ended', onLost tells the line; the
// next session starts a new worker.
import { Worker } from 'node:worker_threads';
import type { VadOptions } from '../../../modules/speech/vad';
import type { PlayResult, VoiceDetection, VoiceEvent } from '../../control';
import type { DigitPress, MediaSession, Remote, RtpStats } from './media-session';
import type { FromWorker, SessionReport, ToWorker } from './media-worker';
import { recordLateness } from './scheduler';

const NO_STATS: RtpStats = {
  rxPackets: 0,
  expected: 0,
  lost: 0,
  lossPct: 0,
  maxGapMs: 0,
  jitterMs: 0,
  txPackets: 0,
  firstRxAt: undefined,
  firstTxAt: undefined,
};

/**
 * From source (tsx, vitest) the worker is the .ts file, loaded through tsx's loader; in the server
 * bundle (apps/server/build.mjs) it is dist/media-worker.mjs next to main.mjs and cluster.mjs.
 */
const startWorker = (): Worker => {
  const isSource = import.meta.url.endsWith('.ts');
  if (!isSource) return new Worker(new URL('./media-worker.mjs', import.meta.url));
  const entry = new URL('./media-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true });
};

class MediaThread {
  private readonly worker: Worker;
  private readonly sessions = new Map<number, ThreadSession>();
  private nextId = 1;
  /** the worker's performance.now() origin minus main's */
  private clockOffset = 0;
  isDead = false;

  constructor() {
    this.worker = startWorker();
    // the legs' SIP dialogs keep the process alive, not the media
    this.worker.unref();
    this.worker.on('message', (m: FromWorker) => this.receive(m));
    this.worker.on('error', () => this.die());
    this.worker.on('exit', () => this.die());
  }

  post(m: ToWorker, transfer: ArrayBuffer[] = []) {
    if (!this.isDead) this.worker.postMessage(m, transfer);
  }

  add(s: ThreadSession): number {
    const id = this.nextId++;
    this.sessions.set(id, s);
    return id;
  }

  forget(id: number) {
    this.sessions.delete(id);
  }

  /** a performance.now() instant of the worker on main's clock */
  toMain(t: number | undefined) {
    return t === undefined ? undefined : t + this.clockOffset;
  }

  async terminate() {
    await this.worker.terminate();
    this.die();
  }

  private receive(m: FromWorker) {
    if (m.op === 'ready') {
      this.clockOffset = m.timeOrigin - performance.timeOrigin;
      return;
    }
    if (m.op === 'batch') {
      for (const ms of m.late) recordLateness(ms);
      for (const r of m.sessions) this.sessions.get(r.id)?.report(r);
      return;
    }
    const s = this.sessions.get(m.id);
    if (m.op === 'opened') s?.opened(m.port);
    else if (m.op === 'openFailed') s?.lost(new Error(m.message));
    else s?.lost();
  }

  private die() {
    if (this.isDead) return;
    this.isDead = true;
    if (shared === this) shared = undefined;
    const error = new Error('the media thread stopped');
    for (const s of this.sessions.values()) s.lost(error);
    this.sessions.clear();
  }
}

let shared: MediaThread | undefined;

const mediaThread = () => {
  shared ??= new MediaThread();
  return shared;
};

/** ends the media thread (process shutdown, tests): its sessions end as if it had crashed */
export const terminateMediaThread = async () => {
  await shared?.terminate();
};

/** A leg's RTP session in the media thread, with the surface of RtpSession. */
export class ThreadSession implements MediaSession {
  port = 0;
  onDigit: ((press: DigitPress) => void) | undefined;
  onFirstPacket: (() => void) | undefined;
  onLost: (() => void) | undefined;
  private readonly thread = mediaThread();
  private readonly id: number;
  private frameListener: ((samples: Int16Array) => void) | undefined;
  private forwardPeer: ThreadSession | undefined;
  private readonly plays = new Map<number, (r: PlayResult) => void>();
  private nextPlay = 1;
  private lastStats: RtpStats = NO_STATS;
  private onVoice: ((e: VoiceEvent) => void) | undefined;
  private bound: { resolve: (port: number) => void; reject: (e: Error) => void } | undefined;
  private closed: (() => void) | undefined;
  private isClosed = false;
  private isLost = false;

  constructor(private readonly address: string) {
    this.id = this.thread.add(this);
  }

  bind(): Promise<number> {
    if (this.isLost || this.thread.isDead) return Promise.reject(new Error('the media thread stopped'));
    return new Promise((resolve, reject) => {
      this.bound = { resolve, reject };
      this.thread.post({ op: 'open', id: this.id, address: this.address });
    });
  }

  get onFrame() {
    return this.frameListener;
  }

  /** frames cross to main only while someone listens */
  set onFrame(fn: ((samples: Int16Array) => void) | undefined) {
    const wasOn = this.frameListener !== undefined;
    this.frameListener = fn;
    if (wasOn !== (fn !== undefined)) this.send({ op: 'frames', id: this.id, isOn: fn !== undefined });
  }

  get forwardTo(): MediaSession | undefined {
    return this.forwardPeer;
  }

  set forwardTo(to: MediaSession | undefined) {
    if (to !== undefined && !(to instanceof ThreadSession)) throw new Error('forwarding needs two sessions of the media thread');
    this.forwardPeer = to;
    this.send({ op: 'forward', id: this.id, to: to ? to.id : null });
  }

  setRemote(remote: Remote) {
    this.send({ op: 'remote', id: this.id, remote });
  }

  play(samples: Int16Array): Promise<PlayResult> {
    if (this.isClosed || this.isLost) return Promise.resolve('ended');
    const playId = this.nextPlay++;
    // a copy crosses (the caller keeps its samples: the bot's turn holds them)
    const copy = samples.slice();
    return new Promise((done) => {
      this.plays.set(playId, done);
      this.send({ op: 'play', id: this.id, playId, samples: copy }, [copy.buffer]);
    });
  }

  stopPlay(result: PlayResult = 'stopped') {
    this.send({ op: 'stopPlay', id: this.id, result });
  }

  setSending(isSending: boolean) {
    this.send({ op: 'sending', id: this.id, isSending });
  }

  sendDigit(digit: string, ms = 100) {
    this.send({ op: 'digit', id: this.id, digit, ms });
  }

  detect(options: Partial<VadOptions>, onVoice: (e: VoiceEvent) => void): VoiceDetection {
    this.onVoice = onVoice;
    this.send({ op: 'detect', id: this.id, options });
    return {
      stop: () => {
        if (this.onVoice !== onVoice) return;
        this.onVoice = undefined;
        this.send({ op: 'detect', id: this.id, options: null });
      },
      stopPlayOnSpeech: (isOn) => {
        if (this.onVoice === onVoice) this.send({ op: 'stopPlayOnSpeech', id: this.id, isOn });
      },
    };
  }

  stats(): RtpStats {
    const s = this.lastStats;
    return { ...s, firstRxAt: this.thread.toMain(s.firstRxAt), firstTxAt: this.thread.toMain(s.firstTxAt) };
  }

  close(): Promise<void> {
    if (this.isLost) return Promise.resolve();
    if (this.isClosed) return new Promise((r) => this.whenClosed(r));
    this.isClosed = true;
    this.frameListener = undefined;
    this.onDigit = undefined;
    return new Promise((r) => {
      this.whenClosed(r);
      // a session still binding is closed once bound (the worker does not know it yet)
      if (this.bound) return;
      this.thread.post({ op: 'close', id: this.id });
    });
  }

  private whenClosed(r: () => void) {
    const before = this.closed;
    this.closed = () => {
      before?.();
      r();
    };
  }

  private send(m: ToWorker, transfer: ArrayBuffer[] = []) {
    if (!this.isClosed && !this.isLost) this.thread.post(m, transfer);
  }

  /** the worker bound the socket */
  opened(port: number) {
    const b = this.bound;
    this.bound = undefined;
    this.port = port;
    if (this.isClosed) this.thread.post({ op: 'close', id: this.id });
    b?.resolve(port);
  }

  /** a batch of the worker's reports for this session */
  report(r: SessionReport) {
    this.lastStats = r.stats;
    if (r.isFirstPacket) this.onFirstPacket?.();
    for (const d of r.digits ?? []) this.onDigit?.(d);
    if (r.frames && this.frameListener) {
      let at = 0;
      for (const n of r.frames.lengths) {
        this.frameListener?.(r.frames.samples.subarray(at, at + n));
        at += n;
      }
    }
    for (const v of r.voice ?? []) this.onVoice?.(v);
    for (const [playId, result] of r.plays ?? []) {
      this.plays.get(playId)?.(result);
      this.plays.delete(playId);
    }
  }

  /** the session ended in the worker (closed, or its thread died: `error`) */
  lost(error?: Error) {
    const wasClosed = this.isClosed;
    this.isLost = true;
    this.thread.forget(this.id);
    this.bound?.reject(error ?? new Error('the media session ended'));
    this.bound = undefined;
    for (const done of this.plays.values()) done('ended');
    this.plays.clear();
    this.onVoice = undefined;
    const c = this.closed;
    this.closed = undefined;
    c?.();
    if (error && !wasClosed) this.onLost?.();
  }
}
