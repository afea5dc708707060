// The bot media bench (issue 25), run by bench/bot-media.sh inside its network namespace: N
// concurrent legs through Kamailio + rtpengine to SIPp, each doing what a bot call does with its
// media: a prompt played into the leg while the line's voice detection listens to the customer
// (SIPp talks over the prompt after 1.5 s), the prompt stopped when his speech starts (barge-in),
// then an answer played to the end. Meanwhile the MAIN event loop is kept busy the way API load
// does it: it blocks synchronously 40–120 ms at random every 50–150 ms. Once with the media in the
// main loop (SIP_MEDIA_THREAD=0, "off") and once in the media thread ("on"). Measures what the app
// received (largest gap per leg), the 20 ms clock's lateness, what rtpengine received from the app
// (its pcap recording), the barge-in delay, the main loop's delay and failed legs. Modes
// `off-quiet` and `on-quiet` leave the main loop alone (the reference).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_VAD } from '../apps/server/src/modules/speech/vad';
import type { ControlEvent } from '../apps/server/src/telephony/control';
import { g711Decode, isG711 } from '../apps/server/src/telephony/sip/rtp/g711';
import { terminateMediaThread } from '../apps/server/src/telephony/sip/rtp/media-thread';
import { parseRtp } from '../apps/server/src/telephony/sip/rtp/rtp-packet';
import { schedulerLateness } from '../apps/server/src/telephony/sip/rtp/scheduler';
import { createSipControl, type SipControlLine } from '../apps/server/src/telephony/sip/sip-control';
import { pcapStreams } from './sip-pcap';
import { cpuPressure, loadNow, markdownTable, pct, type Row, round, sleep } from './sip-report';

const RUN = process.env.TELEPHONY_RUN_DIR ?? '.tmp/bot-media-bench/telephony';
const HOLD_MS = 6500;
type Mode = 'off' | 'on' | 'off-quiet' | 'on-quiet';
const args = process.argv.slice(2);
const LEGS = Number(args.find((a) => /^\d+$/.test(a)) ?? 100);
const modes = args.filter((a): a is Mode => ['off', 'on', 'off-quiet', 'on-quiet'].includes(a));
const MODES: Mode[] = modes.length ? modes : ['off', 'on'];
const trio = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? `${round(pct(s, 0.5))} / ${round(pct(s, 0.95))} / ${round(s[s.length - 1] ?? NaN)}` : 'n/a';
};

/** the bot's voice: a 300 Hz tone with a syllable rhythm, about −18 dBFS */
const voice = (ms: number) =>
  Int16Array.from({ length: ms * 8 }, (_, i) => {
    const syllable = 0.6 + 0.4 * Math.sin((2 * Math.PI * 4 * i) / 8000);
    return Math.round(6000 * syllable * Math.sin((2 * Math.PI * 300 * i) / 8000));
  });
const PROMPT = voice(8000);
const ANSWER = voice(3000);

/** blocks the main loop synchronously 40–120 ms every 50–150 ms (an API under load); returns the stop */
const busyMainLoop = () => {
  let isOn = true;
  let timer: NodeJS.Timeout | undefined;
  const block = () => {
    if (!isOn) return;
    const until = performance.now() + 40 + Math.random() * 80;
    while (performance.now() < until) {
      // the loop is busy
    }
    timer = setTimeout(block, 50 + Math.random() * 100);
  };
  timer = setTimeout(block, 50);
  return () => {
    isOn = false;
    clearTimeout(timer);
  };
};

/** the UDP packets of a pcap recording: source, arrival (ms) and RTP payload */
const pcapPackets = (b: Buffer) => {
  const out: { from: string; t: number; pt: number; payload: Buffer }[] = [];
  if (b.length < 24) return out;
  const isLe = b.readUInt32LE(0) === 0xa1b2c3d4 || b.readUInt32LE(0) === 0xa1b23c4d;
  const isNano = b.readUInt32LE(0) === 0xa1b23c4d || b.readUInt32BE(0) === 0xa1b23c4d;
  const u32 = (o: number) => (isLe ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const link = ({ 1: 14, 101: 0, 228: 0, 113: 16, 0: 4 } as Record<number, number>)[u32(20)];
  for (let off = 24; off + 16 <= b.length && link !== undefined; ) {
    const t = u32(off) * 1000 + u32(off + 4) / (isNano ? 1e6 : 1e3);
    const frame = b.subarray(off + 16, off + 16 + u32(off + 8));
    off += 16 + u32(off + 8);
    if (frame.length < link + 28 || (frame[link] ?? 0) >> 4 !== 4 || frame[link + 9] !== 17) continue;
    const ihl = ((frame[link] ?? 0) & 0x0f) * 4;
    const from = `${frame[link + 12]}.${frame[link + 13]}.${frame[link + 14]}.${frame[link + 15]}:${frame.readUInt16BE(link + ihl)}`;
    const rtp = parseRtp(frame.subarray(link + ihl + 8));
    if (rtp) out.push({ from, t, pt: rtp.pt, payload: rtp.payload });
  }
  return out;
};

/**
 * Barge-in as rtpengine saw it: from the customer's packet the detector fired on (the
 * `startFrames`-th he sent) to the app's first silent packet after it (the prompt stopped).
 */
const bargeInMs = (pcap: Buffer, startFrames: number): number | undefined => {
  const packets = pcapPackets(pcap);
  const customer = packets.filter((p) => p.from.endsWith(':6000'));
  const at = customer[startFrames - 1]?.t;
  if (at === undefined) return undefined;
  // the app's silence between the prompt and the answer
  const isSilent = (p: { pt: number; payload: Buffer }) =>
    isG711(p.pt) && g711Decode(p.payload, p.pt).every((x) => Math.abs(x) < 16);
  const silent = packets.find((p) => !p.from.endsWith(':6000') && p.t >= at && isSilent(p));
  return silent ? silent.t - at : undefined;
};

/** /proc/pressure/cpu "some avg10" */

type Leg = { startFrames?: number; prompt?: string; answer?: string; turns: number };

let batch = 0;
const run = async (line: SipControlLine, seen: Map<string, Set<string>>, n: number, mode: Mode): Promise<Row> => {
  batch++;
  const ids = Array.from({ length: n }, (_, i) => `m${batch}-${i}`);
  await Promise.all(
    ids.map((id, i) =>
      line.originate({
        legId: id,
        target: {
          kind: 'number',
          number: `138${String(batch).padStart(2, '0')}${String(i).padStart(6, '0')}`,
          callerId: '02150001234',
        },
        ringSeconds: 15,
      }),
    ),
  );
  const t = Date.now();
  while (!ids.every((id) => seen.get(id)?.has('answered') || seen.get(id)?.has('ended')) && Date.now() - t < 20_000)
    await sleep(20);
  const answered = ids.filter((id) => seen.get(id)?.has('answered') && !seen.get(id)?.has('ended'));
  const legs = new Map<string, Leg>();
  const stops: (() => void)[] = [];
  for (const id of answered) {
    const leg: Leg = { turns: 0 };
    legs.set(id, leg);
    const detection = line.detect?.(id, DEFAULT_VAD, (e) => {
      if (e.kind === 'end') leg.turns++;
      if (e.kind !== 'start' || leg.startFrames !== undefined) return;
      leg.startFrames = e.frames;
      // as the bot's speak() does: its own stop, besides the line's (stopPlayOnSpeech)
      line.stopPlay(id);
    });
    if (!detection) throw new Error('the sip line detects voice itself');
    stops.push(detection.stop);
    detection.stopPlayOnSpeech(true);
    void line.play(id, PROMPT).then((r) => {
      detection.stopPlayOnSpeech(false);
      leg.prompt = r;
      // the answer after a pause (the bot hears him out first): the prompt's end shows in the recording
      if (r === 'stopped') setTimeout(() => void line.play(id, ANSWER).then((a) => (leg.answer = a)), 300);
    });
  }
  const stopBusy = mode.endsWith('-quiet') ? () => {} : busyMainLoop();
  const eld = monitorEventLoopDelay({ resolution: 10 });
  eld.enable();
  schedulerLateness(true);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  await sleep(HOLD_MS);
  const c = process.cpuUsage(c0);
  const nodePct = ((c.user + c.system) / 1e6 / ((performance.now() - w0) / 1000)) * 100;
  stopBusy();
  eld.disable();
  await sleep(200);
  const late = schedulerLateness();
  for (const stop of stops) stop();
  const figs = answered.map((id) => ({ id, f: line.figures(id) })).filter((x) => x.f !== undefined);
  const droppedEarly = answered.filter((id) => seen.get(id)?.has('ended')).length;
  await Promise.all(ids.map((id) => line.hangup(id, 'normal')));
  await sleep(500);
  const dir = path.join(RUN, 'recordings', 'pcaps');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const pcaps = new Map<string, Buffer>();
  for (const { id, f } of figs) {
    const file = files.find((x) => x.startsWith(`${f?.callId}-`));
    if (file) pcaps.set(id, fs.readFileSync(path.join(dir, file)));
  }
  const streams = [...pcaps.values()].flatMap((b) => pcapStreams(b));
  const appStreams = streams.filter((s) => !s.from.endsWith(':6000'));
  // the customer's side: SIPp's own timing, part of every gap the app receives
  const sippStreams = streams.filter((s) => s.from.endsWith(':6000'));
  const bargeIns = [...pcaps].flatMap(([id, b]) => {
    const start = legs.get(id)?.startFrames;
    const ms = start === undefined ? undefined : bargeInMs(b, start);
    return ms === undefined ? [] : [ms];
  });
  for (const f of files) fs.rmSync(path.join(dir, f), { force: true });
  const ms = (ns: number) => (eld.count ? round(ns / 1e6) : 'n/a');
  const rxGaps = figs.map(({ f }) => f?.maxGapMs ?? 0);
  return {
    'media thread': mode,
    legs: n,
    'failed (set-up / dropped)': `${n - answered.length} / ${droppedEarly}`,
    'main loop delay p99/max ms': `${ms(eld.percentile(99))} / ${ms(eld.max)}`,
    'app rx max gap ms (max over legs)': round(Math.max(...rxGaps)),
    'legs with an rx gap > 60 ms': rxGaps.filter((g) => g > 60).length,
    'tick late p99/max ms': `${late.p99} / ${late.max}`,
    'rtpengine rx from app: max gap ms': appStreams.length ? round(Math.max(...appStreams.map((s) => s.maxGapMs))) : 'n/a',
    'rtpengine rx from SIPp: max gap ms': sippStreams.length ? round(Math.max(...sippStreams.map((s) => s.maxGapMs))) : 'n/a',
    'rtpengine rx from app: loss % (max)': appStreams.length ? round(Math.max(...appStreams.map((s) => s.lossPct)), 2) : 'n/a',
    'barge-ins': `${bargeIns.length} of ${answered.length}`,
    'barge-in delay p50/p95/max ms': trio(bargeIns),
    'Node CPU % of a core (busy loop incl.)': round(nodePct),
    'prompts stopped / answers done': `${[...legs.values()].filter((l) => l.prompt === 'stopped').length} / ${[...legs.values()].filter((l) => l.answer === 'done').length}`,
  };
};

const main = async () => {
  const load0 = os
    .loadavg()
    .map((x) => round(x, 2))
    .join(' ');
  const psi0 = cpuPressure();
  const rows: Row[] = [];
  for (const mode of MODES) {
    const line = createSipControl({
      config: {
        internalSecret: process.env.SIP_INTERNAL_SECRET ?? '',
        domain: '127.0.0.1',
        appAddr: process.env.SIP_APP_ADDR ?? '127.0.0.1:5070',
        proxy: '127.0.0.1:5060',
        mediaThread: mode.startsWith('on'),
      },
      recordingDir: '',
    });
    const seen = new Map<string, Set<ControlEvent['kind']>>();
    line.onControlEvent((e) => {
      const s = seen.get(e.legId) ?? new Set();
      s.add(e.kind);
      seen.set(e.legId, s);
    });
    await line.ready;
    rows.push(await run(line, seen, LEGS, mode));
    console.log(JSON.stringify(rows[rows.length - 1]));
    await line.close();
    await terminateMediaThread();
    await sleep(1000);
  }
  const table = markdownTable(rows);
  const md = [
    '# bot media (bench/bot-media.sh)',
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} cores (load average at the start ${load0}, at the end ${loadNow()}); CPU pressure (some avg10) ${psi0} at the start, ${cpuPressure()} at the end.`,
    `${LEGS} legs through Kamailio + rtpengine to SIPp; hold ${HOLD_MS / 1000} s with the main loop blocked 40–120 ms every`,
    '50–150 ms; each leg: an 8 s prompt, voice detection on the customer (SIPp talks over it from 1.5 s),',
    "the prompt stopped at his speech start, 0.3 s later a 3 s answer. Barge-in: in rtpengine's recording, from",
    "the customer packet the detector fired on to the app's first silent packet after it. *-quiet: main loop not blocked.",
    '',
    table,
    '',
  ].join('\n');
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(process.env.BOT_MEDIA_OUT ?? 'bench/results/bot-media.md', md);
  console.log(`\n${table}`);
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
