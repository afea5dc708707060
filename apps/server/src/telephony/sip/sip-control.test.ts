// Two sip control lines on 127.0.0.1, each the other's "proxy": INVITE/answer/CANCEL/BYE, G.711
// audio, RFC 4733 digits and the forward bridge, without Kamailio (the real-call test has it).
import dgram from 'node:dgram';
import { HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlEvent } from '../control';
import { createSipControl, PROMPT_TAIL_MS, type SipControlLine } from './sip-control';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = dgram.createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const lines: SipControlLine[] = [];
const pair = async () => {
  const [pa, pb] = [await freePort(), await freePort()];
  const mk = (self: number, other: number) => {
    const line = createSipControl({
      config: { internalSecret: 'x'.repeat(16), domain: '127.0.0.1', appAddr: `127.0.0.1:${self}`, proxy: `127.0.0.1:${other}` },
      recordingDir: '',
      reinviteGuardMs: 0,
    });
    const events: ControlEvent[] = [];
    line.onControlEvent((e) => {
      events.push(e);
    });
    lines.push(line);
    return { line, events };
  };
  const a = mk(pa, pb);
  const b = mk(pb, pa);
  await Promise.all([a.line.ready, b.line.ready]);
  /** another process of a's side: same proxy (b), its own port */
  const other = async () => {
    const c = mk(await freePort(), pb);
    await c.line.ready;
    return c;
  };
  return { a, b, other };
};

const until = async (check: () => boolean, ms = 3000) => {
  const t = Date.now();
  while (!check()) {
    if (Date.now() - t > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const kinds = (events: ControlEvent[]) => events.map((e) => e.kind);
const tone = (hz: number, ms: number) =>
  Int16Array.from({ length: (ms * 8) | 0 }, (_, i) => Math.round(10000 * Math.sin((2 * Math.PI * hz * i) / 8000)));
const target = { kind: 'number', number: '13800138000', callerId: '02150001234' } as const;

type Side = { line: SipControlLine; events: ControlEvent[] };

/** a places a customer leg, b answers it (once a heard it ring): b's offered event of the leg */
const placeAnswered = async (a: Side, b: Side, legId: string) => {
  const offeredBefore = b.events.filter((e) => e.kind === 'offered').length;
  await a.line.originate({ legId, target, ringSeconds: 5 });
  await until(() => b.events.filter((e) => e.kind === 'offered').length > offeredBefore);
  const offered = b.events.filter((e) => e.kind === 'offered')[offeredBefore];
  if (offered?.kind !== 'offered') throw new Error('no offer');
  await until(() => a.events.some((e) => e.kind === 'ringing' && e.legId === legId));
  await b.line.answer(offered.legId);
  await until(() => a.events.some((e) => e.kind === 'answered' && e.legId === legId));
  return offered;
};

afterEach(async () => {
  await Promise.all(lines.splice(0).map((l) => l.close()));
});

describe('sip control line (two UAs on loopback)', () => {
  it('places, answers, plays audio, reports digits and hangs up', async () => {
    const { a, b } = await pair();
    const offered = await placeAnswered(a, b, 'c1');
    expect(offered.from).toBe('02150001234');
    expect(offered.to).toBe('13800138000');

    // a's prompt is heard on b as 20 ms frames
    const frames: Int16Array[] = [];
    b.line.listen(offered.legId, (f) => frames.push(f.samples));
    expect(await a.line.play('c1', tone(1000, 400))).toBe('done');
    await until(() => frames.filter((f) => Math.max(...f) > 5000).length >= 15);
    expect(frames.every((f) => f.length === 160)).toBe(true);

    // b presses 5 then #: a reports each once, at its end
    b.line.sendDigit(offered.legId, '5');
    b.line.sendDigit(offered.legId, '#');
    await until(() => a.events.filter((e) => e.kind === 'digit').length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    const digits = a.events.flatMap((e) => (e.kind === 'digit' ? [e] : []));
    expect(digits.map((d) => d.digit)).toEqual(['5', '#']);
    expect(digits[0]?.durationMs).toBe(100);

    // stopPlay drops the queue at once
    const long = a.line.play('c1', tone(440, 3000));
    a.line.stopPlay('c1');
    expect(await long).toBe('stopped');

    expect(await a.line.hangup('c1', HANGUP_CAUSE.normal)).toBe(true);
    const endedA = a.events.find((e) => e.kind === 'ended');
    expect(endedA).toMatchObject({ side: HANGUP_SIDE.system, cause: HANGUP_CAUSE.normal });
    await until(() => kinds(b.events).includes('ended'));
    expect(b.events.find((e) => e.kind === 'ended')).toMatchObject({ side: HANGUP_SIDE.customer, cause: 'normal' });
    expect(a.line.isActive('c1')).toBe(false);
    expect(await a.line.hangup('c1', HANGUP_CAUSE.normal)).toBe(false);
  });

  it("waits for a prompt's tail before its BYE: the far end gets the last frame first", async () => {
    const { a, b } = await pair();
    const offered = await placeAnswered(a, b, 't1');
    let loud = 0;
    let loudAtEnd = -1;
    b.line.listen(offered.legId, (f) => {
      if (Math.max(...f.samples) > 5000) loud++;
    });
    b.line.onControlEvent((e) => {
      if (e.kind === 'ended') loudAtEnd = loud;
    });
    expect(await a.line.play('t1', tone(1000, 200))).toBe('done');
    const done = performance.now();
    await a.line.hangup('t1', HANGUP_CAUSE.normal);
    expect(performance.now() - done).toBeGreaterThanOrEqual(PROMPT_TAIL_MS - 20);
    await until(() => loudAtEnd >= 0);
    // all 10 frames of the 200 ms prompt were heard before the call ended
    expect(loudAtEnd).toBe(10);
  });

  it('cancels at the ring timeout (no_answer) and maps a refusal to its cause', async () => {
    const { a, b } = await pair();
    await a.line.originate({ legId: 'r1', target, ringSeconds: 0.5 });
    await until(() => kinds(a.events).includes('ended'));
    expect(a.events.find((e) => e.kind === 'ended')).toMatchObject({ side: HANGUP_SIDE.system, cause: 'no_answer' });
    await until(() => kinds(b.events).includes('ended'));
    expect(b.events.find((e) => e.kind === 'ended')).toMatchObject({ cause: 'cancelled' });

    await a.line.originate({ legId: 'r2', target, ringSeconds: 5 });
    await until(() => b.events.filter((e) => e.kind === 'offered').length === 2);
    const offered = b.events.filter((e) => e.kind === 'offered')[1];
    await b.line.hangup(offered?.legId ?? '', HANGUP_CAUSE.busy);
    await until(() => a.events.filter((e) => e.kind === 'ended').length === 2);
    expect(a.events.filter((e) => e.kind === 'ended')[1]).toMatchObject({ legId: 'r2', cause: 'busy' });
  });

  it('ends a leg from its handle in another process (its owner died)', async () => {
    const { a, b, other } = await pair();
    await a.line.originate({ legId: 'h1', target, ringSeconds: 5 });
    await until(() => b.events.some((e) => e.kind === 'offered'));
    const offered = b.events.find((e) => e.kind === 'offered');
    await b.line.answer(offered?.legId ?? '');
    await until(() => kinds(a.events).includes('handle'));
    const h = a.events.find((e) => e.kind === 'handle');
    if (h?.kind !== 'handle') throw new Error('no handle');
    const c = await other();
    expect(await c.line.endByHandle?.(h.handle, HANGUP_CAUSE.normal)).toBe(true);
    await until(() => kinds(b.events).includes('ended'));
    expect(await c.line.endByHandle?.(h.handle, HANGUP_CAUSE.normal)).toBe(false);
    expect(await c.line.endByHandle?.('not a handle', HANGUP_CAUSE.normal)).toBe(false);
  });

  it('bridges by 3PCC (one re-INVITE to the waiting leg) and takes the leg back when its partner leaves', async () => {
    const { a, b } = await pair();
    const bc = (await placeAnswered(a, b, 'c')).legId;
    const agent = { kind: 'extension', user: '8001', callerId: 'call-1', callUuid: 'call-1' } as const;
    await a.line.originate({ legId: 'g', target: agent, ringSeconds: 5, bridgeTo: { legId: 'c', mode: '3pcc' } });
    await until(() => b.events.filter((e) => e.kind === 'offered').length === 2);
    const bg = b.events.filter((e) => e.kind === 'offered')[1]?.legId as string;
    await b.line.answer(bg);
    await until(() => a.events.filter((e) => e.kind === 'bridged').length === 2);
    // the app left the media path: b's two legs now send to each other
    expect(await a.line.play('c', tone(440, 100))).toBe('stopped');
    const heardByAgent: Int16Array[] = [];
    b.line.listen(bg, (f) => heardByAgent.push(f.samples));
    void b.line.play(bc, tone(1000, 600));
    await until(() => heardByAgent.filter((f) => Math.max(...f) > 5000).length >= 10);

    // the agent leaves: the customer leg is re-INVITEd back to the app's RTP and hears its prompts again
    await b.line.hangup(bg, HANGUP_CAUSE.normal);
    await until(() => a.events.some((e) => e.kind === 'ended' && e.legId === 'g'));
    const heardByCustomer: Int16Array[] = [];
    b.line.listen(bc, (f) => heardByCustomer.push(f.samples));
    await until(() => a.line.figures('c') !== undefined);
    const t = Date.now();
    let result = 'stopped';
    while (result === 'stopped' && Date.now() - t < 3000) {
      result = await a.line.play('c', tone(1000, 400));
      if (result === 'stopped') await new Promise((r) => setTimeout(r, 50));
    }
    expect(result).toBe('done');
    await until(() => heardByCustomer.filter((f) => Math.max(...f) > 5000).length >= 10);
  });

  it('gives a waiting leg its media back when the agent declines (3PCC never completed)', async () => {
    const { a, b } = await pair();
    const bc = (await placeAnswered(a, b, 'c')).legId;
    const agent = { kind: 'extension', user: '8001', callerId: 'call-2' } as const;
    await a.line.originate({ legId: 'g', target: agent, ringSeconds: 5, bridgeTo: { legId: 'c', mode: '3pcc' } });
    await until(() => b.events.filter((e) => e.kind === 'offered').length === 2);
    await b.line.hangup(b.events.filter((e) => e.kind === 'offered')[1]?.legId as string, HANGUP_CAUSE.rejected);
    await until(() => a.events.some((e) => e.kind === 'ended' && e.legId === 'g'));
    const heard: Int16Array[] = [];
    b.line.listen(bc, (f) => heard.push(f.samples));
    expect(await a.line.play('c', tone(1000, 400))).toBe('done');
    await until(() => heard.filter((f) => Math.max(...f) > 5000).length >= 10);
  });

  it('forwards RTP between two bridged legs', async () => {
    const { a, b } = await pair();
    await a.line.originate({ legId: 'x', target, ringSeconds: 5 });
    await a.line.originate({ legId: 'y', target: { ...target, number: '13800138001' }, ringSeconds: 5 });
    await until(() => b.events.filter((e) => e.kind === 'offered').length === 2);
    const [bx, by] = b.events.flatMap((e) => (e.kind === 'offered' ? [e.legId] : []));
    await b.line.answer(bx as string);
    await b.line.answer(by as string);
    await until(() => a.events.filter((e) => e.kind === 'answered').length === 2);
    await b.line.bridge(bx as string, by as string, 'forward');
    expect(b.events.filter((e) => e.kind === 'bridged')).toHaveLength(2);
    const heard: Int16Array[] = [];
    a.line.listen('y', (f) => heard.push(f.samples));
    void a.line.play('x', tone(1000, 600));
    await until(() => heard.filter((f) => Math.max(...f) > 5000).length >= 20);
    a.line.sendDigit('x', '9');
    await until(() => a.events.some((e) => e.kind === 'digit' && e.legId === 'y' && e.digit === '9'));
  });
});
