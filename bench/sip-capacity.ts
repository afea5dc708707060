// The sip capacity bench (issue 12), run by bench/sip-capacity.sh inside its network namespace:
// N concurrent server legs through Kamailio + rtpengine to SIPp (the customer), each playing
// audio from the app's 20 ms scheduler; then N/2 bridged pairs in forward mode. Measures set-up
// (INVITE→200), what the app received (loss, largest gap), what rtpengine received from the app
// (its pcap recording: loss, largest gap), the scheduler's lateness and CPU (Node, rtpengine).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ControlEvent } from '../apps/server/src/telephony/control';
import { schedulerLateness } from '../apps/server/src/telephony/sip/rtp/scheduler';
import { createSipControl } from '../apps/server/src/telephony/sip/sip-control';
import { pcapStreams } from './sip-pcap';

const RUN = process.env.TELEPHONY_RUN_DIR ?? '.tmp/sip-bench/telephony';
const HOLD_MS = 6500;
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [10, 20, 40];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

const line = createSipControl({
  config: {
    internalSecret: process.env.SIP_INTERNAL_SECRET ?? '',
    domain: '127.0.0.1',
    appAddr: process.env.SIP_APP_ADDR ?? '127.0.0.1:5070',
    proxy: '127.0.0.1:5060',
  },
  recordingDir: '',
});
const seen = new Map<string, Set<ControlEvent['kind']>>();
line.onControlEvent((e) => {
  const s = seen.get(e.legId) ?? new Set();
  s.add(e.kind);
  seen.set(e.legId, s);
});
const waitAll = async (ids: string[], kind: ControlEvent['kind'], ms = 20_000) => {
  const t = Date.now();
  while (!ids.every((id) => seen.get(id)?.has(kind) || seen.get(id)?.has('ended'))) {
    if (Date.now() - t > ms) throw new Error(`${kind}: ${ids.filter((id) => !seen.get(id)?.has(kind)).length} legs missing`);
    await sleep(20);
  }
};

/** CPU seconds of a daemon started by deploy/telephony/up.sh */
const daemonCpu = (name: string) => {
  try {
    const pid = fs.readFileSync(path.join(RUN, `${name}.pid`), 'utf8').trim();
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
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
const cpuPressure = () => {
  try {
    return `${/some avg10=([\d.]+)/.exec(fs.readFileSync('/proc/pressure/cpu', 'utf8'))?.[1] ?? '?'} %`;
  } catch {
    return 'n/a';
  }
};

const tone = Int16Array.from({ length: 8000 * 8 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));

type Row = Record<string, string | number>;
let batch = 0;
const run = async (n: number, mode: 'play' | 'forward'): Promise<Row> => {
  batch++;
  const ids = Array.from({ length: n }, (_, i) => `b${batch}-${i}`);
  await Promise.all(
    ids.map((id, i) =>
      line.originate({
        legId: id,
        target: {
          kind: 'number',
          number: `139${String(batch).padStart(2, '0')}${String(i).padStart(6, '0')}`,
          callerId: '02150001234',
        },
        ringSeconds: 15,
      }),
    ),
  );
  await waitAll(ids, 'answered');
  const failed = ids.filter((id) => !seen.get(id)?.has('answered')).length;
  if (mode === 'forward') {
    for (let i = 0; i + 1 < ids.length; i += 2) await line.bridge(ids[i] as string, ids[i + 1] as string, 'forward');
  } else {
    for (const id of ids) void line.play(id, tone);
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
  const figs = ids.map((id) => line.figures(id)).filter((f) => f !== undefined);
  const setups = figs.map((f) => (f.answeredAt ?? 0) - (f.inviteAt ?? 0)).sort((a, b) => a - b);
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
  const units = mode === 'forward' ? n / 2 : n;
  return {
    mode: mode === 'forward' ? `forward, ${n / 2} pairs` : 'play',
    legs: n,
    failed,
    'setup p50/p95/max ms': `${round(pct(setups, 0.5))} / ${round(pct(setups, 0.95))} / ${round(setups[setups.length - 1] ?? NaN)}`,
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
  const rows: Row[] = [];
  for (const n of SIZES) {
    rows.push(await run(n, 'play'));
    console.log(JSON.stringify(rows[rows.length - 1]));
    await sleep(1000);
  }
  for (const n of SIZES) {
    rows.push(await run(n, 'forward'));
    console.log(JSON.stringify(rows[rows.length - 1]));
    await sleep(1000);
  }
  await line.close();
  const allCols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const table = [
    `| ${allCols.join(' | ')} |`,
    `| ${allCols.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${allCols.map((c) => String(r[c] ?? '')).join(' | ')} |`),
  ].join('\n');
  const md = [
    '# sip capacity (bench/sip-capacity.sh)',
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} cores (load average at the start ${load0}, at the end ${os
      .loadavg()
      .map((x) => round(x, 2))
      .join(' ')}: the cores are shared with other work);`,
    `CPU pressure (/proc/pressure/cpu "some avg10": share of time a runnable task waited for a core): ${psi0} at the start, ${cpuPressure()} at the end.`,
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
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
