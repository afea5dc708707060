// The sip capacity bench (issue 12), run by bench/sip-capacity.sh inside its network namespace:
// N concurrent server legs through Kamailio + rtpengine to SIPp (the customer), each playing
// audio from the app's 20 ms scheduler; then N/2 bridged pairs in forward mode. Measures set-up
// (INVITE→200), what the app received (loss, largest gap), what rtpengine received from the app
// (its pcap recording: loss, largest gap), the scheduler's lateness and CPU (Node, rtpengine).
// Set-up is taken apart per leg from the app UA's own trace and SIPp's short message trace (same
// clock): INVITE -> 100 Trying (Kamailio took it: its queue + rtpengine offer), INVITE -> SIPp got it,
// SIPp's 200 -> the app got it (rtpengine answer + Kamailio's queue), with retransmissions and the
// UDP receive drops of each socket (/proc/net/udp of the namespace). Only answered legs are paired
// in forward mode; a leg that failed is counted and never bridged.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ControlEvent } from '../apps/server/src/telephony/control';
import { schedulerLateness } from '../apps/server/src/telephony/sip/rtp/scheduler';
import { createSipControl } from '../apps/server/src/telephony/sip/sip-control';
import type { SipLog } from '../apps/server/src/telephony/sip/ua/sip-transport';
import { pcapStreams, sipPackets } from './sip-pcap';
import { cpuPressure, loadNow, markdownTable, pct, type Row, round, sleep } from './sip-report';

const RUN = process.env.TELEPHONY_RUN_DIR ?? '.tmp/sip-bench/telephony';
const HOLD_MS = 6500;
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [10, 20, 40];
/** SIP_BENCH_CPS > 0 paces the INVITEs of a batch at that many per second (a trunk's call rate limit); 0: all at once */
const CPS = Number(process.env.SIP_BENCH_CPS ?? 0);
/** SIP_BENCH_MODES=play skips the forward runs */
const MODES = (process.env.SIP_BENCH_MODES ?? 'play,forward').split(',');
const SIPP_TRACE = process.env.SIPP_SHORTMSG ?? '';
const SIPP_PID = Number(process.env.SIPP_PID ?? 0);
const SIP_PCAP = process.env.SIP_BENCH_PCAP_FILE ?? '';
const APP_PORT = Number((process.env.SIP_APP_ADDR ?? '127.0.0.1:5070').split(':')[1]);

/** what the app's UA sent and received of each INVITE transaction (performance.now() instants) */
type UaTrace = { invites: number[]; trying?: number; ringing?: number; ok?: number; oks: number };
const uaTrace = new Map<string, UaTrace>();
const sipLog: SipLog = (dir, text) => {
  const t = performance.now();
  const cseq = /\r\n(?:cseq):[ \t]*\d+[ \t]+(\w+)/i.exec(text)?.[1];
  if (cseq !== 'INVITE') return;
  const callId = /\r\n(?:call-id|i):[ \t]*([^\r\n]+)/i.exec(text)?.[1]?.trim();
  if (!callId) return;
  let tr = uaTrace.get(callId);
  if (!tr) {
    tr = { invites: [], oks: 0 };
    uaTrace.set(callId, tr);
  }
  if (dir === '>>' && text.startsWith('INVITE ')) tr.invites.push(t);
  if (dir !== '<<' || !text.startsWith('SIP/2.0 ')) return;
  const status = Number(text.slice(8, 11));
  if (status === 100) tr.trying ??= t;
  else if (status > 100 && status < 200) tr.ringing ??= t;
  else if (status >= 200 && status < 300) {
    tr.ok ??= t;
    tr.oks++;
  }
};

/** SIPp's -trace_shortmsg: per Call-ID the epoch ms of the first INVITE received, the count, and the first 200 sent */
type SippTrace = { inviteAt?: number; invites: number; okAt?: number; oks: number };
let sippOffset = 0;
const readSippTrace = (): Map<string, SippTrace> => {
  const out = new Map<string, SippTrace>();
  if (!SIPP_TRACE || !fs.existsSync(SIPP_TRACE)) return out;
  const buf = fs.readFileSync(SIPP_TRACE);
  const text = buf.subarray(sippOffset).toString('utf8');
  sippOffset = buf.length;
  for (const l of text.split('\n')) {
    // date \t time \t epoch.usec \t R|S \t call-id \t CSeq:n METHOD \t first line
    const f = l.split('\t');
    if (f.length < 7 || !/INVITE/.test(f[5] ?? '')) continue;
    const at = Number(f[2]) * 1000;
    const callId = (f[4] ?? '').trim();
    const tr = out.get(callId) ?? { invites: 0, oks: 0 };
    const first = f[6] ?? '';
    if (f[3] === 'R' && first.startsWith('INVITE ')) {
      tr.invites++;
      tr.inviteAt ??= at;
    } else if (f[3] === 'S' && first.startsWith('SIP/2.0 200')) {
      tr.oks++;
      tr.okAt ??= at;
    }
    out.set(callId, tr);
  }
  return out;
};

/** rtpengine's own time per ng command (RTPENGINE_LOG_LEVEL=6 logs it), new log lines since the last call */
let rtpeOffset = 0;
const readRtpengineTimes = (): { offer: number[]; answer: number[] } => {
  const out = { offer: [] as number[], answer: [] as number[] };
  const file = path.join(RUN, 'logs', 'rtpengine.log');
  if (!fs.existsSync(file)) return out;
  const buf = fs.readFileSync(file);
  const text = buf.subarray(rtpeOffset).toString('utf8');
  rtpeOffset = buf.length;
  for (const m of text.matchAll(/Replying to '(offer|answer)'.*elapsed time (\d+\.\d+) sec/g)) {
    out[m[1] as 'offer' | 'answer'].push(Number(m[2]) * 1000);
  }
  return out;
};

/** receive-buffer drops of the namespace's UDP sockets by local port (/proc/net/udp, last column) */
const udpDrops = (): Map<number, number> => {
  const out = new Map<number, number>();
  try {
    for (const l of fs.readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
      const f = l.trim().split(/\s+/);
      const port = Number.parseInt((f[1] ?? '').split(':')[1] ?? '', 16);
      const drops = Number(f[f.length - 1]);
      if (Number.isFinite(port) && Number.isFinite(drops)) out.set(port, (out.get(port) ?? 0) + drops);
    }
  } catch {}
  return out;
};
const DROP_PORTS: [string, number][] = [
  ['kamailio', 5060],
  ['app', Number((process.env.SIP_APP_ADDR ?? '127.0.0.1:5070').split(':')[1])],
  ['sipp', 5080],
  ['rtpengine ng', 2223],
];
/** drops per socket between two readings; RTP ports (30000+) summed as "rtp" */
const dropsBetween = (a: Map<number, number>, b: Map<number, number>) => {
  const parts: string[] = [];
  for (const [name, port] of DROP_PORTS) {
    const d = (b.get(port) ?? 0) - (a.get(port) ?? 0);
    if (d > 0) parts.push(`${name} ${d}`);
  }
  let rtp = 0;
  for (const [port, v] of b) if (port >= 30000 && port < 32000) rtp += v - (a.get(port) ?? 0);
  if (rtp > 0) parts.push(`rtp ${rtp}`);
  return parts.join(', ') || '0';
};

/** the receive buffer (bytes, as the kernel counts it) of the SIP sockets, from `ss -uanm` */
const rcvBuffers = () => {
  const out = spawnSync('ss', ['-uanm'], { encoding: 'utf8' }).stdout ?? '';
  const parts: string[] = [];
  const lines = out.split('\n');
  for (const [name, port] of DROP_PORTS) {
    const i = lines.findIndex((l) => l.includes(`:${port} `));
    const rb = i >= 0 ? /rb(\d+)/.exec(lines[i + 1] ?? '')?.[1] : undefined;
    if (rb) parts.push(`${name} ${Math.round(Number(rb) / 1024)} KB`);
  }
  return parts.join(', ') || 'n/a';
};

const stats = (xs: number[], d = 1) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return 'n/a';
  return `${round(pct(s, 0.5), d)} / ${round(pct(s, 0.95), d)} / ${round(s[s.length - 1] ?? NaN, d)}`;
};

const line = createSipControl({
  config: {
    internalSecret: process.env.SIP_INTERNAL_SECRET ?? '',
    domain: '127.0.0.1',
    appAddr: process.env.SIP_APP_ADDR ?? '127.0.0.1:5070',
    proxy: '127.0.0.1:5060',
  },
  recordingDir: '',
  log: sipLog,
});
const seen = new Map<string, Set<ControlEvent['kind']>>();
const endCause = new Map<string, string>();
line.onControlEvent((e) => {
  const s = seen.get(e.legId) ?? new Set();
  s.add(e.kind);
  seen.set(e.legId, s);
  if (e.kind === 'ended') endCause.set(e.legId, e.cause);
});
const waitAll = async (ids: string[], kind: ControlEvent['kind'], ms = 20_000) => {
  const t = Date.now();
  while (!ids.every((id) => seen.get(id)?.has(kind) || seen.get(id)?.has('ended'))) {
    if (Date.now() - t > ms) throw new Error(`${kind}: ${ids.filter((id) => !seen.get(id)?.has(kind)).length} legs missing`);
    await sleep(20);
  }
};

/** CPU seconds of a process */
const pidCpu = (pid: string | number) => {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
};
/** CPU seconds of a daemon started by deploy/telephony/up.sh */
const daemonCpu = (name: string) => {
  try {
    return pidCpu(fs.readFileSync(path.join(RUN, `${name}.pid`), 'utf8').trim());
  } catch {
    return NaN;
  }
};
/** CPU seconds of Node, Kamailio, rtpengine, SIPp */
const cpuNow = () => {
  const c = process.cpuUsage();
  return {
    node: (c.user + c.system) / 1e6,
    kamailio: kamailioCpu(),
    rtpengine: daemonCpu('rtpengine'),
    sipp: SIPP_PID ? pidCpu(SIPP_PID) : NaN,
  };
};
/** Kamailio runs as several processes: the sum over those whose command is kamailio */
const kamailioCpu = () => {
  let sum = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(kamailio)')) continue;
      const f = stat.split(') ')[1]?.split(' ') ?? [];
      sum += (Number(f[11]) + Number(f[12])) / 100;
    } catch {}
  }
  return sum;
};

/** /proc/pressure/cpu "some avg10": how much of the last 10 s a runnable task waited for a core */

const tone = Int16Array.from({ length: 8000 * 8 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));

let batch = 0;
const run = async (n: number, mode: 'play' | 'forward'): Promise<Row> => {
  batch++;
  const ids = Array.from({ length: n }, (_, i) => `b${batch}-${i}`);
  const drops0 = udpDrops();
  const cpu0 = cpuNow();
  const setupT0 = performance.now();
  readSippTrace();
  readRtpengineTimes();
  await Promise.all(
    ids.map(async (id, i) => {
      if (CPS > 0) await sleep((i * 1000) / CPS);
      await line.originate({
        legId: id,
        target: {
          kind: 'number',
          number: `139${String(batch).padStart(2, '0')}${String(i).padStart(6, '0')}`,
          callerId: '02150001234',
        },
        ringSeconds: 15,
      });
    }),
  );
  // the Call-ID of every leg while all of them still exist (a failed leg is dropped once it ended)
  const callIdOf = ids.map((id) => line.figures(id)?.callId);
  await waitAll(ids, 'answered');
  const setupWall = (performance.now() - setupT0) / 1000;
  const cpu1 = cpuNow();
  const setupCpu = (['node', 'kamailio', 'rtpengine', 'sipp'] as const)
    .map((k) => `${k} ${round(((cpu1[k] - cpu0[k]) / setupWall) * 100, 0)}`)
    .join(', ');
  const drops1 = udpDrops();
  const answered = ids.filter((id) => seen.get(id)?.has('answered') && !seen.get(id)?.has('ended'));
  const failedIds = ids.filter((id) => !answered.includes(id));
  const causes = [...new Set(failedIds.map((id) => endCause.get(id) ?? 'no answer'))].join(' ');
  // the step breakdown of every leg: the app UA's trace and SIPp's, both on the wall clock
  const epoch = (t: number) => performance.timeOrigin + t;
  const sipp = readSippTrace();
  const rtpe = readRtpengineTimes();
  const toTrying: number[] = [];
  const toSipp: number[] = [];
  const sippTurn: number[] = [];
  const back: number[] = [];
  const inviteTo200: number[] = [];
  const firstSent: number[] = [];
  const uaOkAt = new Map<string, number>();
  let appRetrans = 0;
  let sippRetrans = 0;
  let sippOks = 0;
  let appOks = 0;
  for (const callId of callIdOf) {
    const ua = callId ? uaTrace.get(callId) : undefined;
    if (!callId || !ua || ua.invites[0] === undefined) continue;
    const t0 = ua.invites[0];
    firstSent.push(t0);
    appRetrans += ua.invites.length - 1;
    appOks += Math.max(0, ua.oks - 1);
    if (ua.trying !== undefined) toTrying.push(ua.trying - t0);
    if (ua.ok !== undefined) inviteTo200.push(ua.ok - t0);
    if (ua.ok !== undefined) uaOkAt.set(callId, ua.ok);
    const sp = sipp.get(callId);
    if (sp?.inviteAt !== undefined) toSipp.push(sp.inviteAt - epoch(t0));
    if (sp?.inviteAt !== undefined && sp.okAt !== undefined) sippTurn.push(sp.okAt - sp.inviteAt);
    if (sp?.okAt !== undefined && ua.ok !== undefined) back.push(epoch(ua.ok) - sp.okAt);
    sippRetrans += Math.max(0, (sp?.invites ?? 0) - 1);
    sippOks += Math.max(0, (sp?.oks ?? 0) - 1);
    uaTrace.delete(callId);
  }
  const spread = firstSent.length ? Math.max(...firstSent) - Math.min(...firstSent) : NaN;
  // with a capture: Kamailio's time for the INVITE and for the 200 (kernel timestamps), and how long
  // the 200 sat in the app's socket before the app read it
  const kamInvite: number[] = [];
  const kam200: number[] = [];
  const appWait: number[] = [];
  if (SIP_PCAP && fs.existsSync(SIP_PCAP)) {
    const batchIds = new Set(callIdOf.filter((c): c is string => !!c));
    const first = new Map<string, Map<string, number>>();
    for (const p of sipPackets(fs.readFileSync(SIP_PCAP))) {
      if (!batchIds.has(p.callId) || !/INVITE/.test(p.cseq)) continue;
      const what = `${p.srcPort}>${p.dstPort} ${p.firstLine.startsWith('INVITE') ? 'INVITE' : p.firstLine.slice(8, 11)}`;
      const m = first.get(p.callId) ?? new Map<string, number>();
      if (!m.has(what)) m.set(what, p.at);
      first.set(p.callId, m);
    }
    for (const [callId, m] of first) {
      const invOut = m.get(`${APP_PORT}>5060 INVITE`);
      const invFwd = m.get('5060>5080 INVITE');
      const okIn = m.get('5080>5060 200');
      const okOut = m.get(`5060>${APP_PORT} 200`);
      if (invOut !== undefined && invFwd !== undefined) kamInvite.push(invFwd - invOut);
      if (okIn !== undefined && okOut !== undefined) kam200.push(okOut - okIn);
      const read = uaOkAt.get(callId);
      if (okOut !== undefined && read !== undefined) appWait.push(epoch(read) - okOut);
    }
  }
  if (mode === 'forward') {
    // only two answered legs make a pair; a bridge that fails is counted, the run goes on
    let bridgeFailed = 0;
    for (let i = 0; i + 1 < answered.length; i += 2) {
      await line.bridge(answered[i] as string, answered[i + 1] as string, 'forward').catch(() => bridgeFailed++);
    }
    if (bridgeFailed) console.error(`forward: ${bridgeFailed} bridges failed`);
  } else {
    for (const id of answered) void line.play(id, tone);
  }
  schedulerLateness(true);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const r0 = daemonCpu('rtpengine');
  const k0 = kamailioCpu();
  await sleep(HOLD_MS);
  const c = process.cpuUsage(c0);
  const wall = (performance.now() - w0) / 1000;
  const nodePct = ((c.user + c.system) / 1e6 / wall) * 100;
  const rtpePct = ((daemonCpu('rtpengine') - r0) / wall) * 100;
  const kamPct = ((kamailioCpu() - k0) / wall) * 100;
  const late = schedulerLateness();
  const figs = answered.map((id) => line.figures(id)).filter((f) => f !== undefined);
  const setups = figs
    .filter((f) => f.answeredAt !== undefined && f.inviteAt !== undefined)
    .map((f) => (f.answeredAt as number) - (f.inviteAt as number))
    .sort((a, b) => a - b);
  const callIds = figs.map((f) => f.callId);
  await Promise.all(ids.map((id) => line.hangup(id, 'normal')));
  await sleep(500);
  // what rtpengine received from the app (its pcap recording), per leg
  const dir = path.join(RUN, 'recordings', 'pcaps');
  const files = fs.readdirSync(dir);
  const appStreams = callIds.flatMap((cid) => {
    const f = files.find((x) => x.startsWith(`${cid}-`));
    if (!f) return [];
    return pcapStreams(fs.readFileSync(path.join(dir, f))).filter((s) => !s.from.endsWith(':6000'));
  });
  const pairs = Math.floor(answered.length / 2);
  const units = mode === 'forward' ? Math.max(1, pairs) : Math.max(1, answered.length);
  return {
    mode: mode === 'forward' ? `forward, ${pairs} pairs` : 'play',
    legs: n,
    failed: failedIds.length ? `${failedIds.length} (${causes})` : 0,
    'load 1 min': round(os.loadavg()[0] ?? NaN, 2),
    'setup (originate→200) p50/p95/max ms': `${round(pct(setups, 0.5))} / ${round(pct(setups, 0.95))} / ${round(setups[setups.length - 1] ?? NaN)}`,
    'first INVITE sent→200 ms': stats(inviteTo200),
    'INVITE→100 ms': stats(toTrying),
    'INVITE→SIPp ms': stats(toSipp),
    'SIPp INVITE→200 ms': stats(sippTurn),
    'SIPp 200→app ms': stats(back),
    ...(SIP_PCAP
      ? {
          'Kamailio INVITE in→out ms': stats(kamInvite),
          'Kamailio 200 in→out ms': stats(kam200),
          '200 in the app socket ms': stats(appWait),
        }
      : {}),
    'INVITEs sent over ms': round(spread),
    'rtpengine offer / answer ms': rtpe.offer.length ? `${stats(rtpe.offer, 2)}; ${stats(rtpe.answer, 2)}` : 'n/a',
    'INVITE retrans app/at SIPp': `${appRetrans} / ${sippRetrans}`,
    '200 resent SIPp/at app': `${sippOks} / ${appOks}`,
    'UDP drops in set-up': dropsBetween(drops0, drops1),
    'set-up CPU % (node, kamailio, rtpengine, sipp)': setupCpu,
    'app rx loss % (max)': round(Math.max(...figs.map((f) => f.lossPct)), 2),
    'app rx max gap ms': round(Math.max(...figs.map((f) => f.maxGapMs))),
    'rtpengine rx from app: loss % (max)': appStreams.length ? round(Math.max(...appStreams.map((s) => s.lossPct)), 2) : 'n/a',
    'rtpengine rx from app: max gap ms': appStreams.length ? round(Math.max(...appStreams.map((s) => s.maxGapMs))) : 'n/a',
    'tick late p99/max ms': `${late.p99} / ${late.max}`,
    'Node CPU % of a core': round(nodePct),
    [mode === 'forward' ? 'Node CPU % per pair' : 'Node CPU % per leg']: round(nodePct / units, 2),
    'rtpengine CPU %': round(rtpePct),
    'Kamailio CPU %': round(kamPct),
  };
};

const main = async () => {
  await line.ready;
  const load0 = os
    .loadavg()
    .map((x) => round(x, 2))
    .join(' ');
  const psi0 = cpuPressure();
  const buffers = rcvBuffers();
  console.log(`socket receive buffers: ${buffers}`);
  const rows: Row[] = [];
  for (const mode of ['play', 'forward'] as const) {
    if (!MODES.includes(mode)) continue;
    for (const n of SIZES) {
      rows.push(await run(n, mode));
      console.log(JSON.stringify(rows[rows.length - 1]));
      await sleep(1000);
    }
  }
  await line.close();
  const table = markdownTable(rows);
  const md = [
    '# sip capacity (bench/sip-capacity.sh)',
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} cores (load average at the start ${load0}, at the end ${loadNow()}: the cores are shared with other work);`,
    `CPU pressure (/proc/pressure/cpu "some avg10": share of time a runnable task waited for a core): ${psi0} at the start, ${cpuPressure()} at the end.`,
    `Socket receive buffers: ${buffers}; INVITEs ${CPS > 0 ? `paced at ${CPS} per second` : 'all at once'}.`,
    `${process.env.SIP_BENCH_PRIORITY === '1' ? 'Node, rtpengine and SIPp at nice -10; ' : ''}legs through Kamailio + rtpengine (userspace, pcap recording)`,
    `to SIPp (G.711a, 30 ms packets, 7 s); hold ${HOLD_MS / 1000} s; each leg plays 440 Hz from the app's 20 ms scheduler`,
    '(forward: the pairs copy each other\'s SIPp audio instead). "app rx" is what the app received from rtpengine;',
    '"rtpengine rx from app" is the app\'s stream in rtpengine\'s recording.',
    '',
    table,
    '',
  ].join('\n');
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(process.env.SIP_BENCH_OUT ?? 'bench/results/sip-capacity.md', md);
  console.log(`\n${table}`);
  // the media worker (SIP_MEDIA_THREAD) may keep the event loop alive after close
  process.exit(0);
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
