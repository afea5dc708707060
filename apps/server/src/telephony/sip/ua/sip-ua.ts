// The app's SIP user agent: places INVITEs (progress, digest, CANCEL, ACK of the 2xx and its
// retransmissions), answers offered INVITEs (100/180/200 resent until the ACK, 487 on CANCEL),
// and handles what arrives inside its dialogs (BYE, re-INVITE, ACK). Dialogs are keyed by Call-ID:
// every leg is its own call through Kamailio.

import { Dialog } from './dialog';
import { type Credentials, digestAuthorization, parseChallenge } from './digest';
import {
  getHeader,
  getHeaders,
  type Header,
  makeResponse,
  type SipRequest,
  type SipResponse,
  tagOf,
  topVia,
} from './sip-message';
import { newCallId, newTag, type SipTransport } from './sip-transport';

export type InviteProgress = { status: number; reason: string; body: string };

export type OutgoingInvite = {
  callId: string;
  /** the confirmed dialog (ACK sent), or rejects with the final status */
  dialog: Promise<Dialog>;
  /** CANCEL (once a provisional response came; else as soon as one comes) */
  cancel: () => void;
};

export class InviteFailed extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(`INVITE ${status} ${reason}`);
  }
}

export type IncomingInvite = {
  request: SipRequest;
  callId: string;
  from: string;
  to: string;
  ring: () => void;
  /** sends the 2xx (resent until the ACK); resolves with the dialog once the ACK came */
  answer: (sdp: string) => Promise<Dialog>;
  reject: (status: number, reason: string) => void;
  /** the caller cancelled before the answer */
  onCancel: (() => void) | undefined;
};

type Pending = { inc: IncomingInvite; localTag: string; isDone: boolean };

export class SipUa {
  readonly dialogs = new Map<string, Dialog>();
  private readonly pending = new Map<string, Pending>();
  onInvite: (inc: IncomingInvite) => void = (inc) => inc.reject(480, 'Temporarily Unavailable');

  constructor(
    readonly transport: SipTransport,
    readonly opts: { user: string; domain: string; headers: Header[]; credentials?: Credentials },
  ) {
    transport.onRequest = (rq) => this.receive(rq);
  }

  get contact() {
    const l = this.transport.local;
    return `<sip:${this.opts.user}@${l.host}:${l.port}>`;
  }

  invite(req: { uri: string; from: string; sdp: string; headers?: Header[]; onProgress?: (p: InviteProgress) => void }) {
    const callId = newCallId();
    const localTag = newTag();
    const localAddr = req.from;
    const remoteAddr = `<${req.uri}>`;
    let seq = 1;
    let isCancelled = false;
    let hasProvisional = false;
    let current: SipRequest;
    let dialog: Dialog | undefined;
    const build = (auth: Header[]): SipRequest => ({
      kind: 'request',
      method: 'INVITE',
      uri: req.uri,
      headers: [
        ['max-forwards', '70'],
        ['from', `${localAddr};tag=${localTag}`],
        ['to', remoteAddr],
        ['call-id', callId],
        ['cseq', `${seq} INVITE`],
        ['contact', this.contact],
        ['allow', 'INVITE, ACK, CANCEL, BYE, OPTIONS, INFO'],
        ['content-type', 'application/sdp'],
        ...this.opts.headers,
        ...(req.headers ?? []),
        ...auth,
      ],
      body: req.sdp,
    });
    const sendCancel = () => {
      const headers: Header[] = [
        ...current.headers.filter(([k]) => k === 'via').slice(0, 1),
        ['max-forwards', '70'],
        ['from', `${localAddr};tag=${localTag}`],
        ['to', remoteAddr],
        ['call-id', callId],
        ['cseq', `${seq} CANCEL`],
        ...this.opts.headers,
      ];
      this.transport.request({ kind: 'request', method: 'CANCEL', uri: req.uri, headers, body: '' }, () => {});
    };
    const promise = new Promise<Dialog>((resolve, reject) => {
      let hasAuthed = false;
      const onResponse = (rs: SipResponse) => {
        if (rs.status < 200) {
          if (rs.status > 100) req.onProgress?.({ status: rs.status, reason: rs.reason, body: rs.body });
          if (!hasProvisional) {
            hasProvisional = true;
            if (isCancelled) sendCancel();
          }
          return;
        }
        if ((rs.status === 401 || rs.status === 407) && this.opts.credentials && !hasAuthed && !isCancelled) {
          hasAuthed = true;
          const name = rs.status === 401 ? 'www-authenticate' : 'proxy-authenticate';
          const challenge = parseChallenge(getHeader(rs, name) ?? '');
          if (challenge) {
            seq++;
            const value = digestAuthorization(challenge, this.opts.credentials, 'INVITE', req.uri);
            current = build([[rs.status === 401 ? 'authorization' : 'proxy-authorization', value]]);
            this.transport.request(current, onResponse);
            return;
          }
        }
        if (rs.status >= 300) return reject(new InviteFailed(rs.status, rs.reason));
        // 2xx, first or retransmitted: (re)send the ACK
        if (!dialog) {
          dialog = Dialog.ofUac(current, rs, localAddr, remoteAddr, localTag, seq);
          dialog.remoteSdp = rs.body;
          dialog.localSdp = req.sdp;
          dialog.state = 'confirmed';
          this.dialogs.set(callId, dialog);
        }
        this.transport.sendStateless(dialog.request('ACK', this.contact, [], '', seq));
        if (isCancelled) {
          void this.bye(dialog);
          reject(new InviteFailed(487, 'Request Terminated'));
          return;
        }
        resolve(dialog);
      };
      current = build([]);
      this.transport.request(current, onResponse);
    });
    const cancel = () => {
      if (isCancelled || dialog) return;
      isCancelled = true;
      if (hasProvisional) sendCancel();
    };
    return { callId, dialog: promise, cancel } satisfies OutgoingInvite;
  }

  /** BYE; resolves with its final status (the dialog ends at once, whatever the answer) */
  bye(d: Dialog): Promise<number> {
    if (d.state === 'ended') return Promise.resolve(0);
    const rq = d.request('BYE', this.contact, this.opts.headers);
    this.dialogs.delete(d.callId);
    d.end('local');
    return new Promise((resolve) => this.transport.request(rq, (rs) => rs.status >= 200 && resolve(rs.status)));
  }

  /** a re-INVITE with a new offer; resolves with the answer SDP (the ACK is sent) */
  reinvite(d: Dialog, sdp: string): Promise<string> {
    const rq = d.request('INVITE', this.contact, [['content-type', 'application/sdp'], ...this.opts.headers], sdp);
    const seq = d.localSeq;
    return new Promise((resolve, reject) =>
      this.transport.request(rq, (rs) => {
        if (rs.status < 200) return;
        if (rs.status >= 300) return reject(new InviteFailed(rs.status, rs.reason));
        this.transport.sendStateless(d.request('ACK', this.contact, [], '', seq));
        d.localSdp = sdp;
        d.remoteSdp = rs.body || d.remoteSdp;
        resolve(rs.body);
      }),
    );
  }

  private receive(rq: SipRequest) {
    const callId = getHeader(rq, 'call-id') ?? '';
    const d = this.dialogs.get(callId);
    switch (rq.method) {
      case 'ACK':
        if (d && d.state === 'early') {
          d.state = 'confirmed';
          d.onConfirmed?.();
        }
        return;
      case 'BYE':
        this.transport.respond(rq, makeResponse(rq, d ? 200 : 481, d ? 'OK' : 'Call Does Not Exist'));
        if (d) {
          this.dialogs.delete(callId);
          d.end('remote');
        }
        return;
      case 'CANCEL':
        return this.receiveCancel(rq, callId);
      case 'INVITE':
        if (tagOf(getHeader(rq, 'to'))) return this.receiveReinvite(rq, d);
        return this.receiveInvite(rq, callId);
      case 'OPTIONS':
      case 'INFO':
      case 'NOTIFY':
        this.transport.respond(rq, makeResponse(rq, 200, 'OK'));
        return;
      default:
        this.transport.respond(rq, makeResponse(rq, 405, 'Method Not Allowed'));
    }
  }

  private receiveReinvite(rq: SipRequest, d: Dialog | undefined) {
    if (!d) return this.transport.respond(rq, makeResponse(rq, 481, 'Call Does Not Exist'));
    const answer = rq.body && d.onReinvite ? d.onReinvite(rq.body) : d.localSdp;
    if (rq.body) d.remoteSdp = rq.body;
    d.localSdp = answer;
    d.remoteTarget = getHeaders(rq, 'contact')[0]?.replace(/^.*<|>.*$/g, '') || d.remoteTarget;
    const rs = makeResponse(
      rq,
      200,
      'OK',
      [
        ['contact', this.contact],
        ['content-type', 'application/sdp'],
      ],
      answer,
    );
    this.withToTag(rs, d.localTag);
    this.transport.respond(rq, rs);
  }

  private withToTag(rs: SipResponse, tag: string) {
    rs.headers = rs.headers.map(([k, v]): Header => (k === 'to' && !tagOf(v) ? [k, `${v};tag=${tag}`] : [k, v]));
  }

  private receiveInvite(rq: SipRequest, callId: string) {
    this.transport.respond(rq, makeResponse(rq, 100, 'Trying'));
    const localTag = newTag();
    const rr = getHeaders(rq, 'record-route').map((v): Header => ['record-route', v]);
    const respond = (status: number, reason: string, extra: Header[] = [], body = '') => {
      const rs = makeResponse(rq, status, reason, [...rr, ['contact', this.contact], ...extra], body);
      this.withToTag(rs, localTag);
      this.transport.respond(rq, rs);
      return rs;
    };
    const p: Pending = { localTag, isDone: false, inc: undefined as unknown as IncomingInvite };
    const inc: IncomingInvite = {
      request: rq,
      callId,
      from: getHeader(rq, 'from') ?? '',
      to: getHeader(rq, 'to') ?? '',
      onCancel: undefined,
      ring: () => {
        if (!p.isDone) respond(180, 'Ringing');
      },
      reject: (status, reason) => {
        if (p.isDone) return;
        p.isDone = true;
        this.pending.delete(callId);
        respond(status, reason);
      },
      answer: (sdp) => {
        if (p.isDone) return Promise.reject(new Error('INVITE already answered or cancelled'));
        p.isDone = true;
        this.pending.delete(callId);
        const d = Dialog.ofUas(rq, localTag);
        d.remoteSdp = rq.body;
        d.localSdp = sdp;
        this.dialogs.set(callId, d);
        respond(200, 'OK', [['content-type', 'application/sdp']], sdp);
        return this.awaitAck(rq, d, () => respond(200, 'OK', [['content-type', 'application/sdp']], sdp));
      },
    };
    p.inc = inc;
    this.pending.set(callId, p);
    this.onInvite(inc);
  }

  /** RFC 3261 §13.3.1.4: the 2xx is resent (T1 doubling to T2) until the ACK, for 64·T1 at most */
  private awaitAck(rq: SipRequest, d: Dialog, resend: () => void): Promise<Dialog> {
    return new Promise((resolve, reject) => {
      let interval = 500;
      let timer: NodeJS.Timeout;
      const started = Date.now();
      const again = () => {
        timer = setTimeout(() => {
          if (d.state !== 'early') return;
          if (Date.now() - started > 32_000) {
            this.dialogs.delete(d.callId);
            void this.bye(d);
            reject(new Error(`no ACK for the 2xx of ${topVia(rq).branch}`));
            return;
          }
          resend();
          interval = Math.min(interval * 2, 4000);
          again();
        }, interval);
      };
      d.onConfirmed = () => {
        clearTimeout(timer);
        resolve(d);
      };
      again();
    });
  }

  private receiveCancel(rq: SipRequest, callId: string) {
    const p = this.pending.get(callId);
    this.transport.respond(rq, makeResponse(rq, p ? 200 : 481, p ? 'OK' : 'Call Does Not Exist'));
    if (!p) return;
    // the 487 goes in the INVITE's own transaction (respond() keys it by the INVITE's branch)
    p.inc.reject(487, 'Request Terminated');
    p.inc.onCancel?.();
  }

  /** ends every dialog (BYE) and pending INVITE (480) */
  async closeAll(): Promise<void> {
    for (const p of [...this.pending.values()]) p.inc.reject(480, 'Temporarily Unavailable');
    await Promise.all([...this.dialogs.values()].map((d) => this.bye(d)));
  }
}
