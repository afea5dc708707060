import { HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import type { LegEvent } from '../provider';
import { pcapToWav } from './pcap-wav';
import { causeOfStatus, createSipProvider } from './sip-provider';

const collect = () => {
  const p = createSipProvider({ recordingDir: '' });
  const events: LegEvent[] = [];
  p.onEvent((e) => {
    events.push(e);
  });
  return { p, events };
};

describe('sip provider', () => {
  it('gives the number only to the extension that placed the call', () => {
    const { p } = collect();
    p.dial({ uuid: 'u1', from: '8001', to: '13800138000' });
    expect(p.routeOf('u1', '8001')).toBe('13800138000');
    expect(p.routeOf('u1', '8002')).toBeUndefined();
    expect(p.routeOf('nope', '8001')).toBeUndefined();
  });

  it('turns Kamailio events into leg events, agent BYE → side 1', async () => {
    const { p, events } = collect();
    p.dial({ uuid: 'u2', from: '8001', to: '13800138000' });
    await p.report({ event: 'ringing', callUuid: 'u2', callId: 'c2' });
    await p.report({ event: 'answered', callUuid: 'u2', callId: 'c2' });
    await p.report({ event: 'ended', callUuid: 'u2', callId: 'c2', byAgent: '1' });
    expect(events.map((e) => e.kind)).toEqual(['ringing', 'answered', 'ended']);
    const ended = events[2] as Extract<LegEvent, { kind: 'ended' }>;
    expect(ended.side).toBe(HANGUP_SIDE.agent);
    expect(ended.cause).toBe(HANGUP_CAUSE.normal);
    expect(p.isActive('u2')).toBe(false);
  });

  it('maps a failed INVITE to the record cause', async () => {
    expect(causeOfStatus(486)).toBe(HANGUP_CAUSE.busy);
    expect(causeOfStatus(480)).toBe(HANGUP_CAUSE.noAnswer);
    expect(causeOfStatus(603)).toBe(HANGUP_CAUSE.rejected);
    expect(causeOfStatus(404)).toBe(HANGUP_CAUSE.emptyNumber);
    const { p, events } = collect();
    p.dial({ uuid: 'u3', from: '8001', to: '13800138000' });
    await p.report({ event: 'failed', callUuid: 'u3', sipStatus: '486' });
    expect(events).toMatchObject([{ kind: 'ended', cause: HANGUP_CAUSE.busy, side: HANGUP_SIDE.customer }]);
  });

  it('a server hang-up without Kamailio news ends the leg itself', async () => {
    const { p, events } = collect();
    p.dial({ uuid: 'u4', from: '8001', to: '13800138000' });
    await p.hangup('u4', HANGUP_SIDE.system, HANGUP_CAUSE.timeout);
    expect(events).toMatchObject([{ kind: 'ended', cause: HANGUP_CAUSE.timeout, side: HANGUP_SIDE.system }]);
  });

  it('decodes a G.711 pcap into a WAV', () => {
    // one RAW-linktype record: IPv4 + UDP + RTP (PCMU, 160 bytes of silence)
    const rtp = Buffer.alloc(12 + 160, 0xff);
    rtp[0] = 0x80;
    rtp[1] = 0;
    rtp.writeUInt32BE(1234, 8);
    const ip = Buffer.alloc(20 + 8);
    ip[0] = 0x45;
    ip[9] = 17;
    const pkt = Buffer.concat([ip, rtp]);
    const rec = Buffer.alloc(16);
    rec.writeUInt32LE(pkt.length, 8);
    rec.writeUInt32LE(pkt.length, 12);
    const head = Buffer.alloc(24);
    head.writeUInt32LE(0xa1b2c3d4, 0);
    head.writeUInt32LE(101, 20);
    const wav = pcapToWav(Buffer.concat([head, rec, pkt]));
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.length).toBe(44 + 160 * 2);
  });
});
