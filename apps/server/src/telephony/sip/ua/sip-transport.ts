// SIP over UDP for the app's UA: one socket, every request sent to the proxy (Kamailio) with the
// dialog's Route set; client transactions (RFC 3261 §17.1: retransmission timers A/E, timeout B/F
// as a 408, the ACK of a non-2xx final response to an INVITE); server transactions that absorb
// retransmitted requests by resending the last response (§17.2).

import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import {
  buildMessage,
  getHeader,
  type Header,
  parseCSeq,
  parseMessage,
  type SipRequest,
  type SipResponse,
  topVia,
} from './sip-message';

const T1 = 500;
const T2 = 4000;
const TIMEOUT = 64 * T1;
/** how long a finished transaction still absorbs retransmissions */
const LINGER = 32_000;
/**
 * the socket's receive buffer: a dialer's burst of legs brings three responses each (100, 180, 200)
 * while the event loop may be busy; at 100 legs at once the default 208 KB dropped 200 OKs, which
 * the far end only resends after 500 ms. The kernel caps it at net.core.rmem_max
 * (deploy/telephony/sysctl-sip.conf).
 */
export const RECV_BUFFER = 4 * 1024 * 1024;

export type HostPort = { host: string; port: number };
export type SipLog = (dir: '>>' | '<<', text: string) => void;

type ClientTx = {
  request: SipRequest;
  onResponse: (rs: SipResponse) => void;
  isFinal: boolean;
  isQuiet: boolean;
  retransmit?: NodeJS.Timeout;
  timeout?: NodeJS.Timeout;
};
type ServerTx = { last?: Buffer; to: HostPort };

export const newBranch = () => `z9hG4bK${randomBytes(8).toString('hex')}`;
export const newTag = () => randomBytes(5).toString('hex');
export const newCallId = () => randomBytes(12).toString('hex');

export class SipTransport {
  private readonly socket = dgram.createSocket({ type: 'udp4', recvBufferSize: RECV_BUFFER });
  private readonly clients = new Map<string, ClientTx>();
  private readonly servers = new Map<string, ServerTx>();
  onRequest: (rq: SipRequest, from: HostPort) => void = () => {};

  constructor(
    readonly local: HostPort,
    readonly proxy: HostPort,
    private readonly log?: SipLog,
  ) {
    this.socket.on('message', (m, r) => this.receive(m, { host: r.address, port: r.port }));
    this.socket.on('error', () => {});
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(this.local.port, this.local.host, () => {
        this.local.port = this.socket.address().port;
        resolve();
      });
    });
  }

  get via() {
    return `SIP/2.0/UDP ${this.local.host}:${this.local.port}`;
  }

  private sendRaw(b: Buffer, to: HostPort) {
    if (this.log) this.log('>>', b.toString('utf8'));
    this.socket.send(b, to.port, to.host);
  }

  /**
   * Sends a request in a new client transaction (a Via with a new branch is put on top unless the
   * request has one: CANCEL reuses its INVITE's). Every response goes to onResponse; for an INVITE
   * that includes retransmitted 2xx (the dialog resends its ACK).
   */
  request(rq: SipRequest, onResponse: (rs: SipResponse) => void): void {
    if (!rq.headers.some(([k]) => k === 'via')) rq.headers.unshift(['via', `${this.via};branch=${newBranch()};rport`]);
    const key = `${topVia(rq).branch}/${rq.method}`;
    const b = buildMessage(rq);
    const tx: ClientTx = { request: rq, onResponse, isFinal: false, isQuiet: false };
    this.clients.set(key, tx);
    this.sendRaw(b, this.proxy);
    const retransmit = (interval: number) => {
      tx.retransmit = setTimeout(() => {
        if (tx.isFinal || tx.isQuiet) return;
        this.sendRaw(b, this.proxy);
        retransmit(rq.method === 'INVITE' ? interval * 2 : Math.min(interval * 2, T2));
      }, interval);
    };
    retransmit(T1);
    tx.timeout = setTimeout(() => {
      if (tx.isFinal) return;
      this.finish(key, tx);
      const via = rq.headers.filter(([k]) => k === 'via').slice(0, 1);
      const copy = rq.headers.filter(([k]) => k === 'from' || k === 'to' || k === 'call-id' || k === 'cseq');
      onResponse({ kind: 'response', status: 408, reason: 'Request Timeout', headers: [...via, ...copy], body: '' });
    }, TIMEOUT);
  }

  private finish(key: string, tx: ClientTx) {
    tx.isFinal = true;
    clearTimeout(tx.retransmit);
    clearTimeout(tx.timeout);
    setTimeout(() => this.clients.delete(key), LINGER).unref();
  }

  /** sends a request outside any transaction (the ACK of a 2xx) */
  sendStateless(rq: SipRequest) {
    if (!rq.headers.some(([k]) => k === 'via')) rq.headers.unshift(['via', `${this.via};branch=${newBranch()};rport`]);
    this.sendRaw(buildMessage(rq), this.proxy);
  }

  /** sends a response in the request's server transaction (kept to answer retransmissions) */
  respond(rq: SipRequest, rs: SipResponse) {
    const key = `${topVia(rq).branch}/${rq.method}`;
    const tx = this.servers.get(key);
    const b = buildMessage(rs);
    if (tx) tx.last = b;
    this.sendRaw(b, tx?.to ?? this.proxy);
  }

  private receive(m: Buffer, from: HostPort) {
    if (this.log) this.log('<<', m.toString('utf8'));
    const msg = parseMessage(m);
    if (!msg) return;
    if (msg.kind === 'response') return this.receiveResponse(msg);
    const key = `${topVia(msg).branch}/${msg.method}`;
    const known = this.servers.get(key);
    if (known && msg.method !== 'ACK') {
      if (known.last) this.sendRaw(known.last, known.to);
      return;
    }
    if (msg.method !== 'ACK') {
      this.servers.set(key, { to: from });
      setTimeout(() => this.servers.delete(key), LINGER).unref();
    }
    this.onRequest(msg, from);
  }

  private receiveResponse(rs: SipResponse) {
    const method = parseCSeq(getHeader(rs, 'cseq')).method;
    const key = `${topVia(rs).branch}/${method}`;
    const tx = this.clients.get(key);
    if (!tx) return;
    if (rs.status >= 200 && method === 'INVITE' && rs.status >= 300) this.ackFailure(tx.request, rs);
    if (rs.status >= 200 && !tx.isFinal) {
      this.finish(key, tx);
      tx.onResponse(rs);
      return;
    }
    if (rs.status < 200) {
      // a provisional response stops INVITE retransmissions (timer A) and timer B: the ring timeout is the UA's
      if (method === 'INVITE') {
        tx.isQuiet = true;
        clearTimeout(tx.retransmit);
        clearTimeout(tx.timeout);
      }
      if (!tx.isFinal) tx.onResponse(rs);
      return;
    }
    // a retransmitted final response: the dialog resends its 2xx ACK; the non-2xx ACK went above
    if (rs.status < 300) tx.onResponse(rs);
  }

  /** RFC 3261 §17.1.1.3: the ACK of a non-2xx final response, in the INVITE's transaction */
  private ackFailure(invite: SipRequest, rs: SipResponse) {
    const keep = (k: string) => k === 'call-id' || k === 'from' || k === 'route';
    const headers: Header[] = [
      ...invite.headers.filter(([k]) => k === 'via').slice(0, 1),
      ...invite.headers.filter(([k]) => keep(k)),
      ['to', getHeader(rs, 'to') ?? ''],
      ['cseq', `${parseCSeq(getHeader(invite, 'cseq')).seq} ACK`],
      ['max-forwards', '70'],
    ];
    this.sendRaw(buildMessage({ kind: 'request', method: 'ACK', uri: invite.uri, headers, body: '' }), this.proxy);
  }

  close() {
    for (const tx of this.clients.values()) {
      clearTimeout(tx.retransmit);
      clearTimeout(tx.timeout);
    }
    this.clients.clear();
    this.servers.clear();
    this.socket.close();
  }
}
