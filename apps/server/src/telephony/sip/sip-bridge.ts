// Joining two legs of the sip line. `3pcc` (RFC 3725): the legs' media meet in rtpengine and the
// app leaves the media path: a new leg is offered the waiting leg's media (rtpengine's address on
// that call), then the waiting leg gets ONE re-INVITE with the new leg's media, never sooner than
// the guard after its answer (the spike's customer UA dropped audio when re-INVITEd at once).
// Kamailio keeps rtpengine's ports on re-INVITEs (port-latching). `forward`: each leg keeps the
// app's RTP and the app copies packets between them (≈ 3 % of a core per pair in the spike).

import { now } from '../../lib/clock';
import type { BridgeMode, ControlEvent } from '../control';
import { aimRtp, offerOf, type SipLeg } from './sip-leg';
import type { Dialog } from './ua/dialog';
import { buildSdp, originOf, parseSdp } from './ua/sdp';
import type { HostPort } from './ua/sip-transport';
import type { SipUa } from './ua/sip-ua';

export type BridgeContext = {
  legs: Map<string, SipLeg>;
  ua: SipUa;
  local: HostPort;
  guardMs: number;
  emit: (ev: ControlEvent) => Promise<void>;
  timing: Map<string, { inviteAt?: number; bridgedAt?: number }>;
};

type BridgeTo = { legId: string; mode: BridgeMode };

const answeredLeg = (ctx: BridgeContext, legId: string): SipLeg & { dialog: Dialog } => {
  const leg = ctx.legs.get(legId);
  if (!leg?.dialog || leg.state !== 'answered') throw new Error(`leg ${legId} is not answered`);
  return leg as SipLeg & { dialog: Dialog };
};

/** the far end's media of a dialog as an SDP offer of ours (the next version of our origin) */
const reofferOf = (d: Dialog, farSdp: string) => {
  const m = parseSdp(farSdp);
  if (!m) throw new Error('no G.711 audio to offer');
  const o = originOf(d.localSdp) ?? { sessionId: `${Date.now()}`, version: 1 };
  return buildSdp({ ...m, pts: m.pts.slice(0, 1), direction: 'sendrecv' }, { sessionId: o.sessionId, version: o.version + 1 });
};

/** the SDP offer of a new leg: its own RTP, or (3PCC) the waiting leg's media */
export const offerFor = (ctx: BridgeContext, leg: SipLeg, to: BridgeTo | undefined): string => {
  if (!to) return offerOf(ctx.local.host, leg.rtp.port);
  const peer = answeredLeg(ctx, to.legId);
  if (to.mode === 'forward') return offerOf(ctx.local.host, leg.rtp.port);
  const m = parseSdp(peer.dialog.remoteSdp);
  if (!m) throw new Error(`leg ${to.legId} has no G.711 audio`);
  // the app stops its own audio to the waiting leg: rtpengine will get the new leg's packets instead
  peer.rtp.setSending(false);
  peer.isMediaAway = true;
  leg.isMediaAway = true;
  leg.joining = peer.id;
  return buildSdp({ ...m, direction: 'sendrecv' }, { sessionId: `${Date.now()}`, version: 1 });
};

const waitGuard = async (ctx: BridgeContext, leg: SipLeg) => {
  const wait = (leg.answeredAt ?? 0) + ctx.guardMs - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
};

const markBridged = async (ctx: BridgeContext, a: SipLeg, b: SipLeg, mode: BridgeMode) => {
  a.peer = { legId: b.id, mode };
  b.peer = { legId: a.id, mode };
  const at = performance.now();
  for (const leg of [a, b]) {
    const t = ctx.timing.get(leg.id);
    if (t) t.bridgedAt = at;
  }
  await ctx.emit({ kind: 'bridged', legId: a.id, otherLegId: b.id, at: now(), mode });
  await ctx.emit({ kind: 'bridged', legId: b.id, otherLegId: a.id, at: now(), mode });
};

const forward = (a: SipLeg, b: SipLeg) => {
  a.rtp.stopPlay();
  b.rtp.stopPlay();
  a.rtp.forwardTo = b.rtp;
  b.rtp.forwardTo = a.rtp;
};

/** a leg placed with bridgeTo was answered: finish the join */
export const joinOnAnswer = async (ctx: BridgeContext, leg: SipLeg, to: BridgeTo) => {
  const peer = answeredLeg(ctx, to.legId);
  const self = answeredLeg(ctx, leg.id);
  if (to.mode === 'forward') {
    forward(peer, self);
  } else {
    await waitGuard(ctx, peer);
    peer.isReanchored = true;
    await ctx.ua.reinvite(peer.dialog, reofferOf(peer.dialog, self.dialog.remoteSdp));
  }
  await markBridged(ctx, peer, self, to.mode);
};

/** joins two answered legs that both still carry the app's RTP */
export const bridgeAnswered = async (ctx: BridgeContext, aId: string, bId: string, mode: BridgeMode) => {
  const a = answeredLeg(ctx, aId);
  const b = answeredLeg(ctx, bId);
  if (mode === 'forward') {
    forward(a, b);
  } else {
    // b is offered a's media, then a gets b's (rtpengine keeps b's port: port-latching)
    a.rtp.setSending(false);
    b.rtp.setSending(false);
    a.isMediaAway = true;
    b.isMediaAway = true;
    await waitGuard(ctx, b);
    a.isReanchored = true;
    b.isReanchored = true;
    const bAnswer = await ctx.ua.reinvite(b.dialog, reofferOf(b.dialog, a.dialog.remoteSdp));
    await waitGuard(ctx, a);
    await ctx.ua.reinvite(a.dialog, reofferOf(a.dialog, bAnswer || b.dialog.remoteSdp));
  }
  await markBridged(ctx, a, b, mode);
};

/**
 * A leg ended: its partner stays up (the calls module decides what becomes of it) and gets the
 * app's media back: forwarding stops; after 3PCC the partner is re-INVITEd to the app's RTP, so
 * prompts, listening and digits work on it again (a declined agent, a leftover customer).
 */
export const unbridge = (ctx: BridgeContext, leg: SipLeg) => {
  const otherId = leg.peer?.legId ?? leg.joining;
  const other = otherId ? ctx.legs.get(otherId) : undefined;
  leg.peer = undefined;
  leg.joining = undefined;
  if (!other || other.state === 'ended') return;
  other.peer = undefined;
  if (other.rtp.forwardTo === leg.rtp) other.rtp.forwardTo = undefined;
  if (!other.isMediaAway) return;
  // a waiting leg never re-INVITEd still has its media on the app's RTP
  if ((!other.isReanchored && !other.joining) || !other.dialog) {
    other.isMediaAway = false;
    other.rtp.setSending(true);
    return;
  }
  // re-INVITEd towards its partner, or (an agent) offered the partner's media from the start
  const d = other.dialog;
  const o = originOf(d.localSdp) ?? { sessionId: `${Date.now()}`, version: 1 };
  void waitGuard(ctx, other)
    .then(() => {
      if (other.state === 'ended') throw new Error('ended');
      return ctx.ua.reinvite(d, offerOf(ctx.local.host, other.rtp.port, o.version + 1, o.sessionId));
    })
    .then((answer) => {
      if (other.state === 'ended' || !aimRtp(other, answer || d.remoteSdp)) return;
      other.isReanchored = false;
      other.joining = undefined;
      other.isMediaAway = false;
      other.rtp.setSending(true);
    })
    .catch(() => {});
};
