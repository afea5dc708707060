// The media thread (issue 25): a worker_threads entry that owns the RTP sessions of the process's
// sip legs and the 20 ms scheduler, so a busy main event loop (API requests, exports) does not
// delay packets. Main drives it through media-thread.ts; what goes back is batched: every
// BATCH_MS one message with each session's received frames (only while main listens), its
// voice-activity events, digits, finished prompts and figures, and the ticks' lateness. Something
// main waits for (a prompt's end, a digit, a turn's start or end) flushes the batch at once.
import { parentPort } from 'node:worker_threads';
import type { VadOptions } from '../../../modules/speech/vad';
import type { PlayResult, VoiceDetection, VoiceEvent } from '../../control';
import type { DigitPress, Remote, RtpStats } from './media-session';
import { RtpSession } from './rtp-session';
import { setLatenessSink } from './scheduler';

const BATCH_MS = 100;

/** main → worker */
export type ToWorker =
  | { op: 'open'; id: number; address: string }
  | { op: 'remote'; id: number; remote: Remote }
  | { op: 'play'; id: number; playId: number; samples: Int16Array }
  | { op: 'stopPlay'; id: number; result: PlayResult }
  | { op: 'sending'; id: number; isSending: boolean }
  | { op: 'digit'; id: number; digit: string; ms: number }
  | { op: 'forward'; id: number; to: number | null }
  | { op: 'frames'; id: number; isOn: boolean }
  | { op: 'detect'; id: number; options: Partial<VadOptions> | null }
  | { op: 'stopPlayOnSpeech'; id: number; isOn: boolean }
  | { op: 'close'; id: number };

/** what one session reports in a batch */
export type SessionReport = {
  id: number;
  stats: RtpStats;
  /** received frames, back to back, and the length of each */
  frames?: { samples: Int16Array; lengths: number[] };
  voice?: VoiceEvent[];
  digits?: DigitPress[];
  isFirstPacket?: boolean;
  plays?: [playId: number, result: PlayResult][];
};

/** worker → main */
export type FromWorker =
  | { op: 'ready'; timeOrigin: number }
  | { op: 'opened'; id: number; port: number }
  | { op: 'openFailed'; id: number; message: string }
  | { op: 'batch'; late: number[]; sessions: SessionReport[] }
  | { op: 'closed'; id: number };

type Entry = {
  s: RtpSession;
  frames: Int16Array[] | null;
  voice: VoiceEvent[];
  detection: VoiceDetection | undefined;
  digits: DigitPress[];
  isFirstPacket: boolean;
  plays: [number, PlayResult][];
};

const port = parentPort;
if (!port) throw new Error('media-worker.ts runs as a worker thread (media-thread.ts starts it)');

const sessions = new Map<number, Entry>();
let late: number[] = [];
let urgent: NodeJS.Immediate | undefined;

const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

const reportOf = (id: number, e: Entry, transfer: ArrayBuffer[]): SessionReport => {
  const r: SessionReport = { id, stats: e.s.stats() };
  if (e.frames?.length) {
    const lengths = e.frames.map((f) => f.length);
    const samples = new Int16Array(lengths.reduce((a, b) => a + b, 0));
    let at = 0;
    for (const f of e.frames) {
      samples.set(f, at);
      at += f.length;
    }
    r.frames = { samples, lengths };
    transfer.push(samples.buffer);
    e.frames = [];
  }
  if (e.voice.length) {
    r.voice = e.voice;
    for (const v of e.voice) if (v.kind === 'end') transfer.push(v.segment.samples.buffer as ArrayBuffer);
    e.voice = [];
  }
  if (e.digits.length) {
    r.digits = e.digits;
    e.digits = [];
  }
  if (e.isFirstPacket) {
    r.isFirstPacket = true;
    e.isFirstPacket = false;
  }
  if (e.plays.length) {
    r.plays = e.plays;
    e.plays = [];
  }
  return r;
};

const hasNews = (e: Entry) => e.voice.length > 0 || e.digits.length > 0 || e.plays.length > 0 || e.isFirstPacket;

/** every session (the periodic batch), or only those with something main waits for */
const flush = (isAll: boolean) => {
  if (urgent) clearImmediate(urgent);
  urgent = undefined;
  const transfer: ArrayBuffer[] = [];
  const reports: SessionReport[] = [];
  for (const [id, e] of sessions) if (isAll || hasNews(e)) reports.push(reportOf(id, e, transfer));
  if (reports.length === 0 && late.length === 0) return;
  post({ op: 'batch', late, sessions: reports }, transfer);
  late = [];
};

/** main waits for this: send it once the current tick is done */
const soon = () => {
  urgent ??= setImmediate(() => flush(false));
};

setLatenessSink((ms) => late.push(ms));
setInterval(() => flush(true), BATCH_MS);

const open = (id: number, address: string) => {
  const s = new RtpSession(address);
  const e: Entry = { s, frames: null, voice: [], detection: undefined, digits: [], isFirstPacket: false, plays: [] };
  s.onDigit = (d) => {
    e.digits.push(d);
    soon();
  };
  s.onFirstPacket = () => {
    e.isFirstPacket = true;
    soon();
  };
  s.bind().then(
    (p) => {
      sessions.set(id, e);
      post({ op: 'opened', id, port: p });
    },
    (err: unknown) => {
      s.close();
      post({ op: 'openFailed', id, message: err instanceof Error ? err.message : String(err) });
    },
  );
};

const onVoice = (e: Entry) => (v: VoiceEvent) => {
  const last = e.voice.at(-1);
  // the clock only moves on: one clock event per batch is enough
  if (v.kind === 'clock' && last?.kind === 'clock') last.frames = v.frames;
  else e.voice.push(v);
  if (v.kind !== 'clock') soon();
};

port.on('message', (m: ToWorker) => {
  if (m.op === 'open') return open(m.id, m.address);
  const e = sessions.get(m.id);
  if (!e) return;
  const s = e.s;
  switch (m.op) {
    case 'remote':
      return s.setRemote(m.remote);
    case 'play':
      return void s.play(m.samples).then((r) => {
        e.plays.push([m.playId, r]);
        soon();
      });
    case 'stopPlay':
      return s.stopPlay(m.result);
    case 'sending':
      return s.setSending(m.isSending);
    case 'digit':
      return s.sendDigit(m.digit, m.ms);
    case 'forward':
      s.forwardTo = m.to === null ? undefined : sessions.get(m.to)?.s;
      return;
    case 'frames':
      e.frames = m.isOn ? [] : null;
      s.onFrame = m.isOn ? (f) => e.frames?.push(f) : undefined;
      return;
    case 'detect':
      e.detection?.stop();
      e.detection = m.options ? s.detect(m.options, onVoice(e)) : undefined;
      if (!m.options) e.voice = [];
      return;
    case 'stopPlayOnSpeech':
      return e.detection?.stopPlayOnSpeech(m.isOn);
    case 'close':
      void s.close();
      // the plays it ended resolve in microtasks: report them, then the end
      setImmediate(() => {
        flush(true);
        sessions.delete(m.id);
        post({ op: 'closed', id: m.id });
      });
      return;
  }
});

post({ op: 'ready', timeOrigin: performance.timeOrigin });
