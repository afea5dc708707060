// A SIP dialog (RFC 3261 §12) of the app's UA: its identifiers, route set and CSeq, the requests
// sent inside it (ACK, BYE, re-INVITE) and its SDP on each side.
import { getHeaders, type Header, parseNameAddr, type SipRequest, type SipResponse } from './sip-message';

export type DialogState = 'early' | 'confirmed' | 'ended';
export type EndedBy = 'local' | 'remote';

export class Dialog {
  state: DialogState = 'early';
  localSdp = '';
  remoteSdp = '';
  /** the far end sent a BYE (or the dialog failed) */
  onEnded: ((by: EndedBy) => void) | undefined;
  /** a re-INVITE from the far end: the answer SDP to give */
  onReinvite: ((offer: string) => string) | undefined;
  /** the ACK of our 2xx arrived */
  onConfirmed: (() => void) | undefined;

  constructor(
    readonly callId: string,
    readonly localTag: string,
    public remoteTag: string,
    /** From of our requests (name-addr without tag) */
    readonly localAddr: string,
    /** To of our requests (name-addr without tag) */
    readonly remoteAddr: string,
    public routeSet: string[],
    public remoteTarget: string,
    public localSeq: number,
    readonly isUac: boolean,
  ) {}

  /** the dialog from a 2xx to our INVITE (route set = reversed Record-Route) */
  static ofUac(invite: SipRequest, rs: SipResponse, localAddr: string, remoteAddr: string, localTag: string, seq: number) {
    const rr = getHeaders(rs, 'record-route')
      .map((v) => parseNameAddr(v).uri)
      .reverse();
    const contact = getHeaders(rs, 'contact')[0];
    const to = getHeaders(rs, 'to')[0] ?? '';
    const callId = getHeaders(invite, 'call-id')[0] ?? '';
    return new Dialog(
      callId,
      localTag,
      parseNameAddr(to).params.tag ?? '',
      localAddr,
      remoteAddr,
      rr,
      contact ? parseNameAddr(contact).uri : invite.uri,
      seq,
      true,
    );
  }

  /** the dialog of an INVITE we answer (route set = Record-Route in order) */
  static ofUas(invite: SipRequest, localTag: string) {
    const from = getHeaders(invite, 'from')[0] ?? '';
    const to = getHeaders(invite, 'to')[0] ?? '';
    const contact = getHeaders(invite, 'contact')[0];
    const f = parseNameAddr(from);
    const t = parseNameAddr(to);
    return new Dialog(
      getHeaders(invite, 'call-id')[0] ?? '',
      localTag,
      f.params.tag ?? '',
      `<${t.uri}>`,
      `<${f.uri}>`,
      getHeaders(invite, 'record-route').map((v) => parseNameAddr(v).uri),
      contact ? parseNameAddr(contact).uri : f.uri,
      1000,
      false,
    );
  }

  /** a request inside the dialog; `seq` given for an ACK (its INVITE's), else the next CSeq */
  request(method: string, contact: string, extra: Header[] = [], body = '', seq?: number): SipRequest {
    const n = seq ?? ++this.localSeq;
    const headers: Header[] = [
      ...this.routeSet.map((uri): Header => ['route', `<${uri}>`]),
      ['max-forwards', '70'],
      ['from', `${this.localAddr};tag=${this.localTag}`],
      ['to', `${this.remoteAddr};tag=${this.remoteTag}`],
      ['call-id', this.callId],
      ['cseq', `${n} ${method}`],
      ['contact', contact],
      ...extra,
    ];
    return { kind: 'request', method, uri: this.remoteTarget, headers, body };
  }

  /** what another process needs to send a request in this dialog (a BYE after its owner died) */
  toHandle(): string {
    const { callId, localTag, remoteTag, localAddr, remoteAddr, routeSet, remoteTarget, localSeq, isUac } = this;
    return JSON.stringify({ callId, localTag, remoteTag, localAddr, remoteAddr, routeSet, remoteTarget, localSeq, isUac });
  }

  /** the dialog of a handle; undefined when it is not one */
  static ofHandle(handle: string): Dialog | undefined {
    try {
      const h = JSON.parse(handle) as Record<string, unknown>;
      const str = (k: string) => (typeof h[k] === 'string' ? (h[k] as string) : undefined);
      const callId = str('callId');
      const localTag = str('localTag');
      const remoteTarget = str('remoteTarget');
      if (!callId || !localTag || !remoteTarget || !Array.isArray(h.routeSet)) return undefined;
      const d = new Dialog(
        callId,
        localTag,
        str('remoteTag') ?? '',
        str('localAddr') ?? '',
        str('remoteAddr') ?? '',
        h.routeSet.filter((r): r is string => typeof r === 'string'),
        remoteTarget,
        // a later CSeq than any the owner may have used (re-INVITEs)
        (typeof h.localSeq === 'number' ? h.localSeq : 1) + 100,
        h.isUac === true,
      );
      d.state = 'confirmed';
      return d;
    } catch {
      return undefined;
    }
  }

  end(by: EndedBy) {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.onEnded?.(by);
  }
}
