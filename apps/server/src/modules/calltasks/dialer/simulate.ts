/**
 * Discrete-event simulation of a group-calling floor driven by the pacing controller: agents,
 * a number list with per-source answer rates, ring/talk/wrap-up times, and the 2-second abandon
 * rule. Virtual time jumps from event to event (no sleeping); a seeded PRNG (floor.ts) makes every
 * run with the same config identical, and runs that differ only in pacing dial the same list.
 */
import { EventQueue } from './event-queue';
import { type BucketRow, DEFAULT_FLOOR, drawList, type FloorConfig, type SimResult } from './floor';
import { Pacer } from './pacer';
import { type OccupancySnapshot, OccupancyTracker, occupancyBetween } from './stats';

export { DEFAULT_FLOOR, type FloorConfig, type SimResult } from './floor';

interface Call {
  n: number;
  placedAt: number;
  answeredAt: number;
  waiting: boolean;
  ended: boolean;
  long: boolean;
}
type Ev =
  | { k: 'tick' }
  | { k: 'bucket' }
  | { k: 'ringEnd'; call: Call }
  | { k: 'abandon'; call: Call }
  | { k: 'msgEnd' }
  | { k: 'talkEnd'; agent: number }
  | { k: 'wrapEnd'; agent: number };

/**
 * Runs the floor until every number was dialled and every call and wrap-up ended. `timer` (e.g.
 * performance.now) measures each decision (gathering its inputs + decidePacing) into `decisionMs`.
 */
export const simulateFloor = (
  partial: Partial<FloorConfig> = {},
  options: { timer?: () => number; decisionMs?: number[] } = {},
): SimResult => {
  const c: FloorConfig = { ...DEFAULT_FLOOR, ...partial, pacing: { ...DEFAULT_FLOOR.pacing, ...partial.pacing } };
  const pacer = new Pacer({
    settings: c.pacing,
    answerWindowMs: c.answerWindowMs,
    answerPriorWeight: c.answerPriorWeight,
    answerWarmupMs: c.answerWarmupMs,
    abandonWindowMs: c.abandonWindowMs,
    ramp: c.ramp,
  });
  const list = drawList(c);
  const q = new EventQueue<Ev>();
  const occ = new OccupancyTracker();
  const agents = Array.from({ length: c.agents }, () => ({ state: 'free' as 'free' | 'talking' | 'wrapup', wrapEnd: 0 }));
  const freeQueue: number[] = agents.map((_, i) => i);
  const waiting: Call[] = [];
  let now = c.startAt;
  let next = 0;
  let ringing = 0;
  let ringingLong = 0;
  const placedCalls: Call[] = [];
  let longPtr = 0;
  let talking = 0;
  let playing = 0;
  let maxLines = 0;
  let exhaustedAt: number | null = null;
  let exhaustedOcc: OccupancySnapshot | null = null;
  const tally = { placed: 0, answered: 0, connected: 0, abandoned: 0, busy: 0, invalid: 0, noAnswer: 0 };
  const steps = { halved: 0, lowered: 0, raised: 0 };
  let decisions = 0;
  const ratioAll = { sum: 0, n: 0 };
  const buckets: BucketRow[] = [];
  let bucketFrom = c.startAt;
  let bucketOcc = occ.snapshot(now);
  let b = { placed: 0, answered: 0, connected: 0, abandoned: 0, ended: 0, ratioSum: 0, ratioN: 0, ratioMin: 0, ratioMax: 0 };
  for (let i = 0; i < c.agents; i++) occ.set(i, 'free', now);

  const linesInUse = () => ringing + waiting.length + talking + playing;

  const closeBucket = () => {
    const snap = occ.snapshot(now);
    buckets.push({
      fromMs: bucketFrom - c.startAt,
      toMs: now - c.startAt,
      placed: b.placed,
      answered: b.answered,
      connected: b.connected,
      abandoned: b.abandoned,
      abandonRate: b.answered > 0 ? b.abandoned / b.answered : 0,
      answerRate: b.ended > 0 ? b.answered / b.ended : 0,
      occupancy: occupancyBetween(bucketOcc, snap),
      ratioAvg: b.ratioN > 0 ? b.ratioSum / b.ratioN : 0,
      ratioMin: b.ratioMin,
      ratioMax: b.ratioMax,
    });
    bucketFrom = now;
    bucketOcc = snap;
    b = { placed: 0, answered: 0, connected: 0, abandoned: 0, ended: 0, ratioSum: 0, ratioN: 0, ratioMin: 0, ratioMax: 0 };
  };

  const connect = (call: Call, agent: number) => {
    call.waiting = false;
    agents[agent].state = 'talking';
    occ.set(agent, 'talking', now);
    talking++;
    tally.connected++;
    b.connected++;
    pacer.connected(now, now - call.answeredAt);
    q.push(now + list.talkMs[call.n], { k: 'talkEnd', agent });
  };

  const decide = (sampleRatio: boolean) => {
    const t0 = options.timer?.();
    let soon = 0;
    for (const a of agents) if (a.state === 'wrapup' && a.wrapEnd - now <= c.predictHorizonMs) soon++;
    while (c.ringLongMs > 0 && longPtr < placedCalls.length && placedCalls[longPtr].placedAt <= now - c.ringLongMs) {
      const call = placedCalls[longPtr++];
      if (!call.ended) {
        call.long = true;
        ringingLong++;
      }
    }
    const decision = pacer.decide(now, {
      freeAgents: freeQueue.length,
      agentsSoonFree: soon,
      waiting: waiting.length,
      linesInUse: linesInUse(),
      ringing,
      ringingLong,
      lineLimit: c.lineLimit,
      teamSize: c.agents,
    });
    if (options.timer && t0 !== undefined) options.decisionMs?.push(options.timer() - t0);
    decisions++;
    if (decision.step !== 'none') steps[decision.step]++;
    if (sampleRatio && next < c.numbers) {
      const r = decision.ratio;
      b.ratioMin = b.ratioN === 0 ? r : Math.min(b.ratioMin, r);
      b.ratioMax = b.ratioN === 0 ? r : Math.max(b.ratioMax, r);
      b.ratioSum += r;
      b.ratioN++;
      ratioAll.sum += r;
      ratioAll.n++;
    }
    for (let i = 0; i < decision.dial && next < c.numbers; i++) {
      const call: Call = { n: next++, placedAt: now, answeredAt: 0, waiting: false, ended: false, long: false };
      placedCalls.push(call);
      ringing++;
      tally.placed++;
      b.placed++;
      q.push(now + list.ringMs[call.n], { k: 'ringEnd', call });
    }
    maxLines = Math.max(maxLines, linesInUse());
    if (next >= c.numbers && exhaustedAt === null) {
      exhaustedAt = now;
      exhaustedOcc = occ.snapshot(now);
    }
  };

  const handle = (ev: Ev) => {
    switch (ev.k) {
      case 'tick':
        decide(true);
        q.push(now + c.tickMs, { k: 'tick' });
        return;
      case 'bucket':
        closeBucket();
        q.push(now + c.bucketMs, { k: 'bucket' });
        return;
      case 'ringEnd': {
        ringing--;
        ev.call.ended = true;
        if (ev.call.long) ringingLong--;
        b.ended++;
        const o = list.outcome[ev.call.n];
        pacer.rang(now, o === 'answered');
        if (o !== 'answered') {
          tally[o]++;
          return;
        }
        tally.answered++;
        b.answered++;
        ev.call.answeredAt = now;
        const agent = freeQueue.shift();
        if (agent !== undefined) connect(ev.call, agent);
        else {
          ev.call.waiting = true;
          waiting.push(ev.call);
          q.push(now + c.abandonAfterMs, { k: 'abandon', call: ev.call });
        }
        return;
      }
      case 'abandon': {
        if (!ev.call.waiting) return;
        ev.call.waiting = false;
        waiting.splice(waiting.indexOf(ev.call), 1);
        tally.abandoned++;
        b.abandoned++;
        pacer.abandoned(now);
        playing++;
        q.push(now + c.abandonMessageMs, { k: 'msgEnd' });
        return;
      }
      case 'msgEnd':
        playing--;
        return;
      case 'talkEnd':
        talking--;
        agents[ev.agent].state = 'wrapup';
        agents[ev.agent].wrapEnd = now + c.wrapUpMs;
        occ.set(ev.agent, 'wrapup', now);
        q.push(now + c.wrapUpMs, { k: 'wrapEnd', agent: ev.agent });
        return;
      case 'wrapEnd': {
        agents[ev.agent].state = 'free';
        occ.set(ev.agent, 'free', now);
        const call = waiting.shift();
        if (call) connect(call, ev.agent);
        else freeQueue.push(ev.agent);
        decide(false);
        return;
      }
    }
  };

  const done = () =>
    next >= c.numbers &&
    ringing === 0 &&
    waiting.length === 0 &&
    talking === 0 &&
    playing === 0 &&
    agents.every((a) => a.state === 'free');

  q.push(now, { k: 'tick' });
  q.push(now + c.bucketMs, { k: 'bucket' });
  while (q.size > 0 && !done() && now - c.startAt < c.maxDurationMs) {
    const e = q.pop() as { at: number; item: Ev };
    now = e.at;
    handle(e.item);
  }
  if (now > bucketFrom) closeBucket();
  const end = occ.snapshot(now);
  const exhausted = exhaustedAt ?? now;
  const listHours = Math.max(1, exhausted - c.startAt) / 3_600_000;
  const d = pacer.snapshot(now);
  return {
    mode: d.power ? 'power' : 'adaptive',
    ...tally,
    abandonRate: d.abandonRate,
    avgWaitMs: d.avgWaitMs,
    occupancy: (exhaustedOcc ?? end).occupancy,
    occupancyAll: end.occupancy,
    listExhaustedMs: exhausted - c.startAt,
    durationMs: now - c.startAt,
    callsPerHour: tally.placed / listHours,
    connectedPerHour: tally.connected / listHours,
    ratioAvg: ratioAll.n > 0 ? ratioAll.sum / ratioAll.n : 0,
    maxLinesInUse: maxLines,
    steps,
    decisions,
    buckets,
  };
};
