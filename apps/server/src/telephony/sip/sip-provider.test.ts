import { HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import type { LegEvent } from '../provider';
import { pcapToWav } from './pcap-wav';
import { causeOfStatus, createSipProvider, type SipLegStore, type SipProvider, type StoredLeg } from './sip-provider';
import type { SipControl } from './sip-types';

const collect = () => {
  const p = createSipProvider({ recordingDir: '' });
  const events: LegEvent[] = [];
  p.onEvent((e) => {
    events.push(e);
  });
  return { p, events };
};

describe('sip provider', () => {
  it('gives the number only to the extension that placed the call', async () => {
    const { p } = collect();
    p.dial({ uuid: 'u1', from: '8001', to: '13800138000' });
    expect(await p.routeOf('u1', '8001')).toBe('13800138000');
    expect(await p.routeOf('u1', '8002')).toBeUndefined();
    expect(await p.routeOf('nope', '8001')).toBeUndefined();
  });

  it('routes and reports calls it has not seen from the call records (another instance dialled)', async () => {
    const { p, events } = collect();
    const asked: string[] = [];
    p.useStore({
      find: async (uuid) => {
        asked.push(uuid);
        if (uuid !== 'stored') return undefined;
        return { uuid, agent: '8001', number: '13900000001', isInbound: false, answeredAt: null, dialog: null };
      },
      saveDialog: async () => undefined,
    });
    expect(await p.routeOf('stored', '8001')).toBe('13900000001');
    expect(await p.routeOf('stored', '8002')).toBeUndefined();
    expect(await p.routeOf('other', '8001')).toBeUndefined();
    await p.report({ event: 'failed', callUuid: 'stored', sipStatus: '404' });
    expect(events).toMatchObject([{ kind: 'ended', uuid: 'stored', cause: HANGUP_CAUSE.emptyNumber }]);
    // the record is read once, then the leg is known until it ends
    expect(asked.filter((u) => u === 'stored')).toHaveLength(1);
  });

  it('keeps Kamailio names of a call on the record, and ends a call another instance heard answered', async () => {
    const records = new Map<string, StoredLeg>();
    const store: SipLegStore = {
      find: async (uuid) => records.get(uuid),
      saveDialog: async (uuid, dialog) => {
        const r = records.get(uuid);
        if (r) records.set(uuid, { ...r, dialog });
      },
    };
    // instance A took the dial; instance B heard ringing and the answer
    const ended: string[] = [];
    const a = createSipProvider({
      recordingDir: '',
      control: {
        endDialog: async (d) => {
          ended.push(`${d.callId} ${d.fromTag} ${d.toTag}`);
          return false;
        },
        cancelInvite: async () => false,
      },
    });
    const b = createSipProvider({ recordingDir: '' });
    a.useStore(store);
    b.useStore(store);
    a.onEvent(() => undefined);
    b.onEvent(async (e) => {
      const r = records.get(e.uuid);
      if (r && e.kind === 'answered') records.set(e.uuid, { ...r, answeredAt: e.at });
    });
    records.set('x', { uuid: 'x', agent: '8001', number: '13800138000', isInbound: false, answeredAt: null, dialog: null });
    a.dial({ uuid: 'x', from: '8001', to: '13800138000' });
    await b.report({ event: 'ringing', callUuid: 'x', callId: 'cx', cseq: '3' });
    await b.report({ event: 'answered', callUuid: 'x', callId: 'cx', fromTag: 'f5', toTag: 't6' });
    expect(records.get('x')?.dialog).toEqual({ callId: 'cx', cseq: '3', fromTag: 'f5', toTag: 't6' });
    await a.hangup('x', HANGUP_SIDE.system, HANGUP_CAUSE.timeout);
    expect(ended).toEqual(['cx f5 t6']);
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
    expect(await p.hangup('u4', HANGUP_SIDE.system, HANGUP_CAUSE.timeout)).toBe(true);
    expect(events).toMatchObject([{ kind: 'ended', cause: HANGUP_CAUSE.timeout, side: HANGUP_SIDE.system }]);
    expect(await p.hangup('u4', HANGUP_SIDE.system, HANGUP_CAUSE.timeout)).toBe(false);
  });

  it('asks Kamailio to end a dialog the browser left, and keeps the app side and cause', async () => {
    const asked: string[] = [];
    let p: SipProvider;
    const control: SipControl = {
      endDialog: async (d) => {
        asked.push(`end ${d.fromTag}:${d.toTag}`);
        // Kamailio's BYE ends the dialog: its report follows
        void p.report({ event: 'ended', callUuid: 'u5', callId: 'c5' });
        return true;
      },
      cancelInvite: async (callId, cseq) => {
        asked.push(`cancel ${callId}:${cseq}`);
        void p.report({ event: 'failed', callUuid: 'u6', callId, sipStatus: '487' });
        return true;
      },
    };
    p = createSipProvider({ recordingDir: '', control });
    const events: LegEvent[] = [];
    p.onEvent((e) => {
      events.push(e);
    });
    p.dial({ uuid: 'u5', from: '8001', to: '13800138000' });
    await p.report({ event: 'ringing', callUuid: 'u5', callId: 'c5', cseq: '2' });
    await p.report({ event: 'answered', callUuid: 'u5', callId: 'c5', fromTag: 'f12', toTag: 't34' });
    await p.hangup('u5', HANGUP_SIDE.system, HANGUP_CAUSE.lockExpired);
    expect(asked).toEqual(['end f12:t34']);
    expect(events.at(-1)).toMatchObject({ kind: 'ended', side: HANGUP_SIDE.system, cause: HANGUP_CAUSE.lockExpired });

    // still ringing: the INVITE is cancelled; the timeout is the cause, not the 487
    p.dial({ uuid: 'u6', from: '8001', to: '13800138000' });
    await p.report({ event: 'ringing', callUuid: 'u6', callId: 'c6', cseq: '7' });
    await p.hangup('u6', HANGUP_SIDE.system, HANGUP_CAUSE.timeout);
    expect(asked).toEqual(['end f12:t34', 'cancel c6:7']);
    expect(events.at(-1)).toMatchObject({ kind: 'ended', uuid: 'u6', side: HANGUP_SIDE.system, cause: HANGUP_CAUSE.timeout });
  });

  it('closes the record itself when Kamailio cannot end the dialog', async () => {
    const control: SipControl = { endDialog: async () => false, cancelInvite: async () => false };
    const p = createSipProvider({ recordingDir: '', control });
    const events: LegEvent[] = [];
    p.onEvent((e) => {
      events.push(e);
    });
    p.dial({ uuid: 'u7', from: '8001', to: '13800138000' });
    await p.report({ event: 'answered', callUuid: 'u7', callId: 'c7', fromTag: 'f1', toTag: 't2' });
    await p.hangup('u7', HANGUP_SIDE.system, HANGUP_CAUSE.multiLogin);
    expect(events.at(-1)).toMatchObject({ kind: 'ended', side: HANGUP_SIDE.system, cause: HANGUP_CAUSE.multiLogin });
    expect(p.isActive('u7')).toBe(false);
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
