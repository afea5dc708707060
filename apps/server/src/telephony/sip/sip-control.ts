// The sip line of call control (issue 12): the app's own SIP user agent on UDP, every leg an
// INVITE through Kamailio (which trusts the app by address plus the X-Crm-App-Secret header,
// deploy/telephony/kamailio.cfg.in) and anchored + recorded by rtpengine; G.711 RTP from the app's
// address, paced by one 20 ms scheduler, so prompts are in rtpengine's pcap recording.
//
// Wiring (telephony/index.ts):
//   createSipControl({ config: config.sip, recordingDir: config.sip.recordingDir }): SipControlLine
//   config.sip.appAddr   'host:port' the UA binds (SIP_APP_ADDR, default 127.0.0.1:5070)
//   config.sip.proxy     Kamailio's SIP/UDP 'host:port' (SIP_PROXY, default 127.0.0.1:5060)
//   config.sip.internalSecret  sent as X-Crm-App-Secret (Kamailio strips it before relaying)
//   config.sip.domain    the SIP domain of R-URIs/From (default: the proxy's host)
//   config.sip.mediaThread  RTP in the media worker (SIP_MEDIA_THREAD, rtp/media-thread.ts)
// The UA binds asynchronously: `ready` resolves once it listens; every operation awaits it.
// Inbound legs arrive as `offered` events (Kamailio routes the trunk's INVITEs for the app's
// numbers to SIP_APP_ADDR); `answer(legId)` takes them.
import { randomUUID } from 'node:crypto';
import { HANGUP_CAUSE, HANGUP_SIDE, type HangupCause } from '@crm/contracts';
import type { Config } from '../../config';
import { now } from '../../lib/clock';
import type { CallControlLine, ControlEvent, ControlListener, OriginateRequest } from '../control';
import type { HangupSideValue } from '../provider';
import { recordingOfCall } from './pcap-wav';
import type { RtpStats } from './rtp/media-session';
import { bridgeAnswered, joinOnAnswer, offerFor, unbridge } from './sip-bridge';
import { aimRtp, answerOf, listenTo, mediaSession, type SipLeg } from './sip-leg';
import { causeOfStatus } from './sip-provider';
import { Dialog } from './ua/dialog';
import { parseSdp } from './ua/sdp';
import { parseNameAddr, userOf } from './ua/sip-message';
import { type HostPort, type SipLog, SipTransport } from './ua/sip-transport';
import { type IncomingInvite, InviteFailed, SipUa } from './ua/sip-ua';

export type SipControlOptions = {
  config: Pick<Config['sip'], 'internalSecret' | 'domain' | 'appAddr' | 'proxy' | 'mediaThread'>;
  recordingDir: string;
  /** no re-INVITE to a leg sooner than this after its answer (ms; a UA dropped audio when re-INVITEd at once) */
  reinviteGuardMs?: number;
  /** no BYE sooner than this after a prompt's last frame left (ms; PROMPT_TAIL_MS) */
  promptTailMs?: number;
  log?: SipLog;
};

/** what the real-call test and the capacity bench read of a leg (performance.now() instants) */
export type LegFigures = RtpStats & {
  callId: string;
  inviteAt?: number;
  answeredAt?: number;
  bridgedAt?: number;
};

export type SipControlLine = CallControlLine & {
  readonly name: 'sip';
  ready: Promise<void>;
  readonly local: HostPort;
  figures: (legId: string) => LegFigures | undefined;
  /** sends an RFC 4733 key press into a leg (tests and the bench play the customer with it) */
  sendDigit: (legId: string, digit: string) => void;
};

/**
 * The app's BYE waits this long after the last frame of a prompt was sent: the frames still on their
 * way (rtpengine, a carrier, the far end's jitter buffer) are played before the call ends. On a loaded
 * machine a group call's abandoned customer lost the message's last 0.26 s to the BYE (30 Nov 2026).
 */
export const PROMPT_TAIL_MS = 300;

const hostPort = (s: string | undefined, fallback: string): HostPort => {
  const [host, port] = (s || fallback).split(':');
  return { host: host || '127.0.0.1', port: Number(port) || 0 };
};

/** the From of an app leg: the caller id as user and display name; anonymous without one (the trunk's own number) */
export const fromOf = (callerId: string, domain: string) => {
  const user = callerId.replace(/[^\w.!~*'()&=+$,;?/-]/g, '');
  return user ? `"${user}" <sip:${user}@${domain}>` : `"anonymous" <sip:anonymous@${domain}>`;
};

export const createSipControl = (opts: SipControlOptions): SipControlLine => {
  const local = hostPort(opts.config.appAddr, '127.0.0.1:5070');
  const proxy = hostPort(opts.config.proxy, '127.0.0.1:5060');
  const domain = opts.config.domain || proxy.host;
  const transport = new SipTransport(local, proxy, opts.log);
  const ua = new SipUa(transport, {
    user: 'crm-app',
    domain,
    headers: opts.config.internalSecret ? [['x-crm-app-secret', opts.config.internalSecret]] : [],
  });
  const ready = transport.start();
  const legs = new Map<string, SipLeg>();
  const timing = new Map<string, { inviteAt?: number; bridgedAt?: number }>();
  let listener: ControlListener = () => {};
  const guardMs = opts.reinviteGuardMs ?? 1500;
  const tailMs = opts.promptTailMs ?? PROMPT_TAIL_MS;

  /**
   * the listener is called at once, as the sim line does: a listener may itself hang up or answer a
   * leg (the partner of one that ended), which a queue of events would make wait for itself
   */
  const emit = (ev: ControlEvent): Promise<void> => Promise.resolve(listener(ev)).catch(() => {});
  const sideOf = (leg: SipLeg): HangupSideValue => (leg.target?.kind === 'extension' ? HANGUP_SIDE.agent : HANGUP_SIDE.customer);

  const end = (leg: SipLeg, side: HangupSideValue, cause: HangupCause): Promise<void> => {
    if (leg.ended) return leg.ended;
    const wasAnswered = leg.state === 'answered';
    leg.state = 'ended';
    clearTimeout(leg.ringTimer);
    // the media's last events (a turn in progress, the prompts it ended) come before the ended event
    const closed = leg.rtp.close();
    unbridge(ctx, leg);
    leg.ended = (async () => {
      await closed;
      // rtpengine closes the pcap once Kamailio relayed the BYE
      if (wasAnswered && opts.recordingDir) await new Promise((r) => setTimeout(r, 200));
      const recording = wasAnswered ? await recordingOfCall(opts.recordingDir, leg.callId) : undefined;
      await emit({ kind: 'ended', legId: leg.id, at: now(), side, cause, recording });
      legs.delete(leg.id);
      timing.delete(leg.id);
    })();
    return leg.ended;
  };

  const watchDialog = (leg: SipLeg) => {
    const d = leg.dialog;
    if (!d) return;
    d.onEnded = (by) => {
      if (by === 'remote') void end(leg, sideOf(leg), HANGUP_CAUSE.normal);
    };
    // a re-INVITE from the far end (its media moved): the app's RTP follows, unless 3PCC took it away
    d.onReinvite = (offer) => {
      const m = parseSdp(offer);
      if (!m || leg.isMediaAway) return d.localSdp;
      aimRtp(leg, offer);
      return answerOf(m, local.host, leg.rtp.port);
    };
  };

  const newLeg = async (id: string, callId: string, target: SipLeg['target']): Promise<SipLeg> => {
    const rtp = mediaSession(local.host, opts.config.mediaThread !== false);
    await rtp.bind();
    const leg: SipLeg = { id, callId, target, state: 'calling', rtp, isMediaAway: false, listeners: new Set(), frameSeq: 0 };
    rtp.onDigit = (p) => void emit({ kind: 'digit', legId: id, at: now(), digit: p.digit, durationMs: p.durationMs });
    rtp.onLost = () => void hangup(id, HANGUP_CAUSE.systemError); // the media thread died
    return leg;
  };

  const ctx = { legs, ua, local, guardMs, emit, timing };

  const originate = async (req: OriginateRequest) => {
    await ready;
    if (legs.has(req.legId)) throw new Error(`leg ${req.legId} exists`);
    const leg = await newLeg(req.legId, '', req.target);
    const t = req.target;
    const isAgent = t.kind === 'extension';
    const uri = `sip:${isAgent ? t.user : t.number}@${domain}`;
    const from = fromOf(t.callerId, domain);
    const headers: [string, string][] = isAgent
      ? [
          ['x-crm-leg', 'agent'],
          ['x-call-uuid', t.callUuid ?? req.legId],
        ]
      : [['x-crm-leg', 'customer']];
    const sdp = offerFor(ctx, leg, req.bridgeTo);
    legs.set(leg.id, leg);
    timing.set(leg.id, { inviteAt: performance.now() });
    const out = ua.invite({
      uri,
      from,
      sdp,
      headers,
      onProgress: (p) => {
        if (leg.state !== 'calling' || (p.status !== 180 && p.status !== 183)) return;
        leg.state = 'ringing';
        void emit({ kind: 'ringing', legId: leg.id, at: now() });
      },
    });
    leg.callId = out.callId;
    leg.outgoing = out;
    leg.ringTimer = setTimeout(() => {
      if (leg.state !== 'calling' && leg.state !== 'ringing') return;
      out.cancel();
      void end(leg, HANGUP_SIDE.system, HANGUP_CAUSE.noAnswer);
    }, req.ringSeconds * 1000);
    out.dialog.then(
      async (d) => {
        if (leg.state === 'ended') return void ua.bye(d);
        clearTimeout(leg.ringTimer);
        leg.dialog = d;
        leg.state = 'answered';
        leg.answeredAt = performance.now();
        watchDialog(leg);
        if (!leg.isMediaAway) aimRtp(leg, d.remoteSdp);
        await emit({ kind: 'answered', legId: leg.id, at: now() });
        void emit({ kind: 'handle', legId: leg.id, at: now(), handle: d.toHandle() });
        if (req.bridgeTo) await joinOnAnswer(ctx, leg, req.bridgeTo).catch(() => hangup(leg.id, HANGUP_CAUSE.deviceError));
      },
      (e: unknown) => {
        const status = e instanceof InviteFailed ? e.status : 500;
        const isAgentFail = isAgent && status !== 487;
        void end(leg, isAgentFail ? HANGUP_SIDE.agent : HANGUP_SIDE.customer, causeOfStatus(status));
      },
    );
  };

  ua.onInvite = async (inc: IncomingInvite) => {
    const id = randomUUID();
    // no media for it (the media thread died): the call is turned away
    const leg = await newLeg(id, inc.callId, undefined).catch(() => inc.reject(503, 'Service Unavailable'));
    if (!leg) return;
    leg.state = 'offered';
    leg.incoming = inc;
    legs.set(id, leg);
    timing.set(id, { inviteAt: performance.now() });
    inc.onCancel = () => void end(leg, HANGUP_SIDE.customer, HANGUP_CAUSE.cancelled);
    inc.ring();
    const from = userOf(parseNameAddr(inc.from).uri);
    const to = userOf(parseNameAddr(inc.to).uri) || userOf(inc.request.uri);
    void emit({ kind: 'offered', legId: id, at: now(), from, to });
  };

  const answer = async (legId: string) => {
    const leg = legs.get(legId);
    const inc = leg?.incoming;
    if (!leg || !inc || leg.state !== 'offered') throw new Error(`leg ${legId} is not offered`);
    const offer = parseSdp(inc.request.body);
    if (!offer) {
      inc.reject(488, 'Not Acceptable Here');
      await end(leg, HANGUP_SIDE.system, HANGUP_CAUSE.deviceError);
      throw new Error('the offer has no G.711 audio');
    }
    aimRtp(leg, inc.request.body);
    leg.state = 'answered';
    leg.answeredAt = performance.now();
    const d = await inc.answer(answerOf(offer, local.host, leg.rtp.port));
    leg.dialog = d;
    watchDialog(leg);
    // not awaited: answer() may be called from an event listener (the queue would wait for itself)
    void emit({ kind: 'answered', legId, at: now() });
    void emit({ kind: 'handle', legId, at: now(), handle: d.toHandle() });
  };

  const hangup = async (legId: string, cause: HangupCause): Promise<boolean> => {
    const leg = legs.get(legId);
    if (!leg) return false;
    const tail = (leg.playEndedAt ?? Number.NEGATIVE_INFINITY) + tailMs - performance.now();
    if (!leg.ended && leg.dialog && tail > 0) await new Promise((r) => setTimeout(r, tail));
    // ended meanwhile (the far end's BYE) or before
    if (leg.ended) {
      await leg.ended;
      return true;
    }
    // the BYE's answer is awaited (rtpengine then closes the recording), 3 s at most
    if (leg.dialog) await Promise.race([ua.bye(leg.dialog), new Promise((r) => setTimeout(r, 3000))]);
    else if (leg.incoming) leg.incoming.reject(cause === HANGUP_CAUSE.busy ? 486 : 480, 'Temporarily Unavailable');
    else leg.outgoing?.cancel();
    const effective = leg.state !== 'answered' && cause === HANGUP_CAUSE.normal ? HANGUP_CAUSE.cancelled : cause;
    await end(leg, HANGUP_SIDE.system, effective);
    return true;
  };

  return {
    name: 'sip',
    ready,
    local,
    onControlEvent: (l) => {
      listener = l;
    },
    originate,
    answer,
    bridge: (a, b, mode) => bridgeAnswered(ctx, a, b, mode),
    play: async (legId, samples) => {
      const leg = legs.get(legId);
      if (!leg || leg.state === 'ended') return 'ended';
      if (leg.isMediaAway) return 'stopped';
      const result = await leg.rtp.play(samples);
      if (result === 'done') leg.playEndedAt = performance.now();
      return result;
    },
    stopPlay: (legId) => legs.get(legId)?.rtp.stopPlay(),
    listen: (legId, onFrame) => {
      const leg = legs.get(legId);
      if (!leg) return () => {};
      return listenTo(leg, (samples, seq) => onFrame({ legId, seq, samples }));
    },
    detect: (legId, options, onVoice) =>
      legs.get(legId)?.rtp.detect(options, onVoice) ?? { stop: () => {}, stopPlayOnSpeech: () => {} },
    hangup,
    endByHandle: async (handle) => {
      await ready;
      const d = Dialog.ofHandle(handle);
      if (!d) return false;
      const status = await Promise.race([ua.bye(d), new Promise<number>((r) => setTimeout(() => r(408), 5000))]);
      return status >= 200 && status < 300;
    },
    isActive: (legId) => {
      const leg = legs.get(legId);
      return !!leg && leg.state !== 'ended';
    },
    figures: (legId) => {
      const leg = legs.get(legId);
      if (!leg) return undefined;
      return { ...leg.rtp.stats(), callId: leg.callId, answeredAt: leg.answeredAt, ...timing.get(legId) };
    },
    sendDigit: (legId, digit) => legs.get(legId)?.rtp.sendDigit(digit),
    close: async () => {
      await ready.catch(() => {});
      await Promise.all([...legs.keys()].map((id) => hangup(id, HANGUP_CAUSE.normal)));
      try {
        transport.close();
      } catch {
        // the socket never bound
      }
    },
  };
};
