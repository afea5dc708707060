import { emitOpsSignal } from '../../../lib/ops-signals';

// One 20 ms clock for every RTP stream of the process: a single timer (not one per leg) that
// catches up when the event loop was late, so each stream still sends one packet per tick. With
// the media thread (media-worker.ts) the clock runs in the worker and its lateness is posted to
// main (recordLateness), so schedulerLateness and the rtp_tick_late_seconds metric read the same.

export type Ticking = { tick: () => void };

const TICK_MS = 20;
const LATE_KEEP = 50_000;

const streams = new Set<Ticking>();
let t0 = 0;
let n = 0;
let timer: NodeJS.Timeout | undefined;
let late: number[] = [];
/** where the lateness of each tick goes instead of the ops signal (the media worker posts it to main) */
let lateSink: ((lateMs: number) => void) | undefined;

/** keeps one tick's lateness (ms) for schedulerLateness and reports it as rtp_tick_late_seconds */
export const recordLateness = (lateMs: number) => {
  late.push(lateMs);
  if (late.length > LATE_KEEP) late = late.slice(-LATE_KEEP / 2);
  emitOpsSignal('rtp_tick_late_seconds', lateMs / 1000);
};

/** the media worker sends the lateness of its ticks to main, where the metrics live */
export const setLatenessSink = (sink: ((lateMs: number) => void) | undefined) => {
  lateSink = sink;
};

const loop = () => {
  const now = performance.now();
  while (t0 + n * TICK_MS <= now) {
    const lateMs = now - (t0 + n * TICK_MS);
    if (lateSink) lateSink(lateMs);
    else recordLateness(lateMs);
    for (const s of streams) s.tick();
    n++;
  }
  if (streams.size === 0) {
    timer = undefined;
    return;
  }
  timer = setTimeout(loop, Math.max(0, t0 + n * TICK_MS - performance.now()));
};

export const scheduleStream = (s: Ticking) => {
  streams.add(s);
  if (!timer) {
    t0 = performance.now();
    n = 0;
    timer = setTimeout(loop, 0);
  }
};

export const unscheduleStream = (s: Ticking) => {
  streams.delete(s);
};

/** How late the ticks ran (ms), since the last reset: for the capacity benches. */
export const schedulerLateness = (reset = false) => {
  const l = [...late].sort((a, b) => a - b);
  const q = (p: number) => Math.round((l[Math.floor(p * (l.length - 1))] ?? 0) * 100) / 100;
  const out = { ticks: l.length, p50: q(0.5), p99: q(0.99), max: q(1) };
  if (reset) late = [];
  return out;
};
