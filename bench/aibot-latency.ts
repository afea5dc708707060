/**
 * AI bot benchmark (issue 16), on the sim line in real time (SIM_SPEED 1) with the real app on
 * PostgreSQL (DATABASE_URL; a fresh database is made and dropped):
 *  1. response latency: from the end of the customer's turn (the last sample of his utterance, or
 *     his key press) to the bot's first audio of its answer (the moment the line starts playing
 *     it), p50/p95 — for speech this includes the detector's end-of-speech wait (SPEECH_END_SILENCE_MS);
 *  2. concurrency: N bot calls at once (scripted customers: interested, keypad, off the point) and
 *     the audio clock: every leg's 20 ms frames must reach the bot without a gap over 40 ms (the
 *     line's prompt playback runs on the same event loop), plus the event loop's delay.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/aibot-latency.ts [calls=12] [levels=5,10,20,40]
 *
 * Writes bench/results/aibot.md (AIBOT_BENCH_OUT to write elsewhere). Never part of npm test.
 */
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { staff } from '../apps/server/src/db/schema';
import { type BotCallResult, runBotCall } from '../apps/server/src/modules/aicall/bot/bot-call';
import { botTestGraph, scriptedNumber } from '../apps/server/src/modules/aicall/bot/bot-test-kit';
import { originateCustomerLeg } from '../apps/server/src/modules/calls/call-control';
import * as legs from '../apps/server/src/modules/calls/call-legs.repo';
import * as calls from '../apps/server/src/modules/calls/calls.repo';
import { createSpeech } from '../apps/server/src/modules/speech/speech';
import type { SimControlLine } from '../apps/server/src/telephony/sim/sim-control';
import { createTestApp, type TestApp } from '../apps/server/src/test/harness';
import { summarise } from './lib';

const CALLS = Number(process.argv[2] ?? 12);
const LEVELS = (process.argv[3] ?? '5,10,20,40').split(',').map(Number);
const OUT = process.env.AIBOT_BENCH_OUT ?? 'bench/results/aibot.md';
const GAP_MS = 40;

type CallRun = {
  result: BotCallResult;
  said: ReturnType<SimControlLine['simHeard']>;
  gaps: number[];
  /** real time (performance.now) of the answer, from the frames' due times */
  answerReal: number;
  /** real times the bot started each prompt */
  plays: number[];
};

/** real times each leg's prompts started playing (the line's play, wrapped once) */
const playsOf = new Map<string, number[]>();
const wrapPlay = (line: SimControlLine) => {
  const play = line.play.bind(line);
  line.play = (legId, samples) => {
    playsOf.set(legId, [...(playsOf.get(legId) ?? []), performance.now()]);
    return play(legId, samples);
  };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One bot call to a scripted number; the real-time gaps between the frames the leg delivered. */
const oneCall = async (t: TestApp, tenantId: number, script: number): Promise<CallRun> => {
  const rt = t.app.calls;
  const line = rt.line as SimControlLine;
  const kit = await createSpeech(t.app.config);
  const placed = await originateCustomerLeg(rt, { tenantId, number: scriptedNumber(script), ringSeconds: 30, role: 'bot' });
  for (;;) {
    const leg = await legs.findLeg(rt.db, placed.legId);
    if ((leg?.state ?? 0) >= 2) break;
    await sleep(20);
  }
  // a second listener on the leg: when each frame reaches the app
  const gaps: number[] = [];
  let last = 0;
  let first = true;
  let answerReal = Number.POSITIVE_INFINITY;
  const off = line.listen(placed.legId, (f) => {
    const now = performance.now();
    // a frame is delivered once due (20 ms after its start): the earliest bound is the answer
    answerReal = Math.min(answerReal, now - (f.seq + 1) * 20);
    // the first delivery catches up the frames since the answer
    if (!first) gaps.push(now - last);
    first = false;
    last = now;
  });
  const result = await runBotCall({
    rt,
    kit,
    tenantId,
    legId: placed.legId,
    callUuid: placed.callUuid,
    flowId: 0,
    flowVersion: 1,
    graph: botTestGraph(),
    vars: { 客户名称: '张先生' },
    agents: [],
    source: 1,
  });
  off();
  const plays = playsOf.get(placed.legId) ?? [];
  playsOf.delete(placed.legId);
  return { result, said: line.simHeard(placed.legId), gaps, answerReal, plays };
};

/** Customer turn end → the bot's next prompt start, in real time (the sim line runs in real time). */
const latencies = (run: CallRun) => {
  const out: { kind: 'speech' | 'digit'; ms: number }[] = [];
  for (const said of run.said) {
    const end = run.answerReal + said.toMs;
    const next = run.plays.find((p) => p >= end - 5);
    if (next !== undefined) out.push({ kind: said.digit ? 'digit' : 'speech', ms: Math.round(next - end) });
  }
  return out;
};

const main = async () => {
  const t = await createTestApp({ config: { simSpeed: 1, simTalkSeconds: 3600 } });
  try {
    const admin = await t.login('admin');
    wrapPlay(t.app.calls.line as SimControlLine);
    const me = (await t.get('/api/frontend/user/info', admin)).json().data.userInfo.cmSid as number;
    const [{ tenantId }] = await t.database.db.select({ tenantId: staff.tenantId }).from(staff).where(eq(staff.id, me));
    await calls.upsertCallSettings(t.app.db, tenantId, { callerNumber: '', callHoursFrom: '00:00', callHoursTo: '24:00' });
    // warm the synthesis cache (each prompt is synthesized once per installation)
    await oneCall(t, tenantId, 0);
    await oneCall(t, tenantId, 4);

    // 1. latency, a few calls at a time
    const speech: number[] = [];
    const digit: number[] = [];
    for (let done = 0; done < CALLS; done += 3) {
      const runs = await Promise.all([0, 3, 4].map((s) => oneCall(t, tenantId, s)));
      for (const r of runs) for (const l of latencies(r)) (l.kind === 'digit' ? digit : speech).push(l.ms);
    }

    // 2. concurrency levels
    const levels: string[] = [];
    for (const n of LEVELS) {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const started = performance.now();
      const runs = await Promise.all(Array.from({ length: n }, (_, i) => oneCall(t, tenantId, [0, 3, 4][i % 3])));
      loop.disable();
      const gaps = runs.flatMap((r) => r.gaps);
      const over = gaps.filter((g) => g > GAP_MS).length;
      const lat = summarise(runs.flatMap((r) => latencies(r).map((l) => l.ms)));
      const ends = runs.map((r) => r.result.end);
      const good = ends.filter((e) => e === 'end' || e === 'hangup').length;
      levels.push(
        `| ${n} | ${good}/${n} | ${gaps.length} | ${over} | ${Math.max(...gaps).toFixed(0)} | ${(loop.percentile(99) / 1e6).toFixed(1)} | ${(loop.max / 1e6).toFixed(0)} | ${lat.p50} | ${lat.p95} | ${((performance.now() - started) / 1000).toFixed(0)} |`,
      );
      console.log(levels.at(-1));
    }

    const s = summarise(speech);
    const d = summarise(digit);
    const md = `# AI bot: response latency and concurrent calls (issue 16)

Run: \`DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/aibot-latency.ts ${CALLS} ${LEVELS.join(',')}\`
on this machine (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores shared with other work: load average
${os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(' / ')} at the end; the app and PostgreSQL on it), sim line in
real time, scripted customers (sim-script.ts), espeak-ng prompts cached, keyword matching (no LLM),
end-of-speech wait SPEECH_END_SILENCE_MS = ${t.app.config.speech.endSilenceMs} ms.

## Customer turn end → the bot's first audio

Real time from the last sample of the customer's utterance (or his key press on the line) to the
moment the bot's answer starts playing into the leg (its first 20 ms frame goes out then).

| turn | n | p50 ms | p95 ms | max ms |
| ---- | - | ------ | ------ | ------ |
| speech (includes the ${t.app.config.speech.endSilenceMs} ms end-of-speech wait) | ${s.n} | ${s.p50} | ${s.p95} | ${s.max} |
| key press (RFC 4733 event → domain event → bot) | ${d.n} | ${d.p50} | ${d.p95} | ${d.max} |

Goal ≤ 1.0 s p95 with keyword matching. Speech minus the fixed end-of-speech wait is the bot's own
work: recognition (the sim test double answers at once; a real FunASR/NLS adds its own final-result
time), the engine, the prompt (cached) and the line.

## Concurrent bot calls

Every call of a level runs at once (a third each interested / keypad / off the point, ~15–25 s of
talk each). "frames" are the 20 ms frames the legs delivered to the app; a gap is the real time
between two deliveries of one leg (the line's audio clock and the bot's playback share the event loop).

| calls | finished normally | frames | gaps > ${GAP_MS} ms | worst gap ms | loop delay p99 ms | loop delay max ms | latency p50 ms | latency p95 ms | wall s |
| ----- | ----------------- | ------ | --------- | ------------ | ----------------- | ----------------- | -------------- | -------------- | ------ |
${levels.join('\n')}
`;
    fs.writeFileSync(OUT, md);
    console.log(md);
  } finally {
    await t.close();
  }
};

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
