import { describe, expect, it } from 'vitest';
import { digestAuthorization, parseChallenge } from './digest';
import { buildSdp, originOf, parseSdp } from './sdp';
import {
  buildMessage,
  getHeader,
  getHeaders,
  makeResponse,
  parseCSeq,
  parseMessage,
  parseNameAddr,
  topVia,
  userOf,
} from './sip-message';

const INVITE = [
  'INVITE sip:crm-app@127.0.0.2:5070 SIP/2.0',
  'Record-Route: <sip:127.0.0.1;r2=on;lr=on;ftag=abc>, <sip:127.0.0.1:5060;r2=on;lr=on>',
  'v: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKk1;rport=5060',
  'Via: SIP/2.0/UDP 127.0.0.1:5080;received=127.0.0.1;branch=z9hG4bKc1;rport=5080',
  'f: "13800138000" <sip:13800138000@127.0.0.1>;tag=abc',
  't: <sip:4008001234@127.0.0.1>',
  'i: call-1@127.0.0.1',
  'CSeq: 12 INVITE',
  'm: <sip:13800138000@127.0.0.1:5080>',
  'Subject: a folded',
  '  header',
  'c: application/sdp',
  'l: 4',
  '',
  'v=0\r\nextra',
].join('\r\n');

describe('SIP messages', () => {
  it('parses compact, folded and comma-listed headers and the body by Content-Length', () => {
    const m = parseMessage(INVITE);
    if (m?.kind !== 'request') throw new Error('not a request');
    expect(m.method).toBe('INVITE');
    expect(m.uri).toBe('sip:crm-app@127.0.0.2:5070');
    expect(getHeaders(m, 'via')).toHaveLength(2);
    expect(getHeaders(m, 'record-route')).toEqual(['<sip:127.0.0.1;r2=on;lr=on;ftag=abc>', '<sip:127.0.0.1:5060;r2=on;lr=on>']);
    expect(getHeader(m, 'subject')).toBe('a folded header');
    expect(m.body).toBe('v=0\r');
    expect(topVia(m).branch).toBe('z9hG4bKk1');
    expect(topVia(m).sentBy).toBe('127.0.0.1:5060');
    expect(parseCSeq(getHeader(m, 'cseq'))).toEqual({ seq: 12, method: 'INVITE' });
  });

  it('reads name-addr values', () => {
    const from = parseNameAddr('"13800138000" <sip:13800138000@127.0.0.1;transport=udp>;tag=abc');
    expect(from).toEqual({ display: '13800138000', uri: 'sip:13800138000@127.0.0.1;transport=udp', params: { tag: 'abc' } });
    expect(parseNameAddr('sip:1001@h;tag=x').params.tag).toBe('x');
    expect(userOf(from.uri)).toBe('13800138000');
  });

  it('builds a response that copies Via, From, To, Call-ID and CSeq, and parses back', () => {
    const rq = parseMessage(INVITE);
    if (rq?.kind !== 'request') throw new Error('not a request');
    const rs = makeResponse(rq, 180, 'Ringing', [['contact', '<sip:crm-app@127.0.0.2:5070>']]);
    const back = parseMessage(buildMessage(rs));
    if (back?.kind !== 'response') throw new Error('not a response');
    expect(back.status).toBe(180);
    expect(back.reason).toBe('Ringing');
    expect(getHeaders(back, 'via')).toEqual(getHeaders(rq, 'via'));
    expect(getHeader(back, 'call-id')).toBe('call-1@127.0.0.1');
    expect(buildMessage(rs).toString()).toContain('Call-ID: call-1@127.0.0.1\r\nCSeq: 12 INVITE\r\n');
    expect(buildMessage(rs).toString()).toMatch(/Content-Length: 0\r\n\r\n$/);
  });
});

describe('From of an app leg', () => {
  it('is the caller id, or anonymous when the company has none; nothing that breaks the URI gets in', async () => {
    const { fromOf } = await import('../sip-control');
    expect(fromOf('02150001234', '127.0.0.1')).toBe('"02150001234" <sip:02150001234@127.0.0.1>');
    expect(fromOf('', 'h')).toBe('"anonymous" <sip:anonymous@h>');
    expect(fromOf('a"b <c>@d', 'h')).toBe('"abcd" <sip:abcd@h>');
  });
});

describe('digest', () => {
  it('answers the RFC 2617 §3.5 example', () => {
    const c = parseChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    if (!c) throw new Error('no challenge');
    const v = digestAuthorization(c, { user: 'Mufasa', password: 'Circle Of Life' }, 'GET', '/dir/index.html', 1, '0a4f113b');
    expect(v).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(v).toContain('qop=auth, nc=00000001, cnonce="0a4f113b"');
    expect(v).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
    expect(parseChallenge('Basic realm="x"')).toBeUndefined();
  });
});

describe('SDP', () => {
  it('builds a G.711 offer and reads it back', () => {
    const sdp = buildSdp(
      { ip: '127.0.0.2', port: 40000, pts: [0, 8], dtmfPt: 101, direction: 'sendrecv' },
      { sessionId: '42', version: 3 },
    );
    expect(sdp).toContain('m=audio 40000 RTP/AVP 0 8 101\r\n');
    expect(sdp).toContain('a=rtpmap:101 telephone-event/8000\r\na=fmtp:101 0-16\r\n');
    expect(parseSdp(sdp)).toEqual({ ip: '127.0.0.2', port: 40000, pts: [0, 8], dtmfPt: 101, direction: 'sendrecv' });
    expect(originOf(sdp)).toEqual({ sessionId: '42', version: 3 });
  });

  it('reads rtpengine-style answers (session-level c=, dynamic telephone-event, no G.711 refused)', () => {
    const answer = [
      'v=0',
      'o=- 1 2 IN IP4 127.0.0.1',
      's=-',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      'm=audio 30012 RTP/AVP 8 96',
      'a=rtpmap:8 PCMA/8000',
      'a=rtpmap:96 telephone-event/8000',
      'a=sendrecv',
      'a=rtcp:30013',
      '',
    ].join('\r\n');
    expect(parseSdp(answer)).toEqual({ ip: '127.0.0.1', port: 30012, pts: [8], dtmfPt: 96, direction: 'sendrecv' });
    expect(parseSdp('v=0\r\nc=IN IP4 1.2.3.4\r\nm=audio 1 RTP/AVP 18\r\n')).toBeUndefined();
  });
});
