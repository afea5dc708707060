// SIP messages (RFC 3261 §7) as the app's UA needs them: parse a datagram into a request or a
// response with ordered headers, build one back, and read name-addr values (From/To/Contact/
// Record-Route) and Via branches.

export type Header = [name: string, value: string];

type Base = { headers: Header[]; body: string };
export type SipRequest = Base & { kind: 'request'; method: string; uri: string };
export type SipResponse = Base & { kind: 'response'; status: number; reason: string };
export type SipMessage = SipRequest | SipResponse;

const COMPACT: Record<string, string> = {
  v: 'via',
  f: 'from',
  t: 'to',
  i: 'call-id',
  m: 'contact',
  l: 'content-length',
  c: 'content-type',
  k: 'supported',
  s: 'subject',
};

/** the canonical lower-case name of a header (compact forms expanded) */
export const headerKey = (name: string) => {
  const n = name.trim().toLowerCase();
  return COMPACT[n] ?? n;
};

/** headers whose comma-separated values are separate entries (RFC 3261 §7.3.1) */
const MULTI = new Set(['via', 'contact', 'route', 'record-route']);

/** splits on commas outside quotes and angle brackets */
export const splitList = (value: string): string[] => {
  const out: string[] = [];
  let depth = 0;
  let isQuoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '"' && value[i - 1] !== '\\') isQuoted = !isQuoted;
    else if (!isQuoted && ch === '<') depth++;
    else if (!isQuoted && ch === '>') depth--;
    else if (!isQuoted && depth === 0 && ch === ',') {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out.filter((v) => v.length > 0);
};

export const parseMessage = (data: Buffer | string): SipMessage | undefined => {
  const text = typeof data === 'string' ? data : data.toString('utf8');
  const sep = text.indexOf('\r\n\r\n');
  const head = sep < 0 ? text : text.slice(0, sep);
  const rest = sep < 0 ? '' : text.slice(sep + 4);
  const lines = head.split('\r\n');
  const first = lines.shift() ?? '';
  const headers: Header[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && headers.length > 0) {
      const last = headers[headers.length - 1] as Header;
      last[1] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = headerKey(line.slice(0, colon));
    const value = line.slice(colon + 1).trim();
    for (const v of MULTI.has(key) ? splitList(value) : [value]) headers.push([key, v]);
  }
  const length = Number(headers.find(([k]) => k === 'content-length')?.[1] ?? Buffer.byteLength(rest));
  const body = Buffer.from(rest, 'utf8').subarray(0, length).toString('utf8');
  const res = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(first);
  if (res) return { kind: 'response', status: Number(res[1]), reason: res[2] ?? '', headers, body };
  const req = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(first);
  if (req) return { kind: 'request', method: req[1] as string, uri: req[2] as string, headers, body };
  return undefined;
};

const CANONICAL: Record<string, string> = { 'call-id': 'Call-ID', cseq: 'CSeq', 'www-authenticate': 'WWW-Authenticate' };
const canonical = (key: string) =>
  CANONICAL[key] ?? key.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());

export const buildMessage = (m: SipMessage): Buffer => {
  const first = m.kind === 'request' ? `${m.method} ${m.uri} SIP/2.0` : `SIP/2.0 ${m.status} ${m.reason}`;
  const lines = [first];
  for (const [k, v] of m.headers) if (k !== 'content-length') lines.push(`${canonical(k)}: ${v}`);
  lines.push(`Content-Length: ${Buffer.byteLength(m.body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${m.body}`, 'utf8');
};

export const getHeader = (m: SipMessage, name: string): string | undefined => {
  const key = headerKey(name);
  return m.headers.find(([k]) => k === key)?.[1];
};

export const getHeaders = (m: SipMessage, name: string): string[] => {
  const key = headerKey(name);
  return m.headers.filter(([k]) => k === key).map(([, v]) => v);
};

export type NameAddr = { display: string; uri: string; params: Record<string, string> };

const parseParams = (s: string): Record<string, string> => {
  const params: Record<string, string> = {};
  for (const part of s.split(';')) {
    const p = part.trim();
    if (!p) continue;
    const eq = p.indexOf('=');
    if (eq < 0) params[p.toLowerCase()] = '';
    else params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
  }
  return params;
};

/** `"Name" <sip:u@h;lr>;tag=x` or `sip:u@h;tag=x` */
export const parseNameAddr = (value: string): NameAddr => {
  const lt = value.indexOf('<');
  if (lt >= 0) {
    const gt = value.indexOf('>', lt);
    return {
      display: value.slice(0, lt).trim().replace(/^"|"$/g, ''),
      uri: value.slice(lt + 1, gt),
      params: parseParams(value.slice(gt + 1)),
    };
  }
  const semi = value.indexOf(';');
  return semi < 0
    ? { display: '', uri: value.trim(), params: {} }
    : { display: '', uri: value.slice(0, semi).trim(), params: parseParams(value.slice(semi + 1)) };
};

export const tagOf = (value: string | undefined) => (value ? parseNameAddr(value).params.tag : undefined);

/** the user part of a SIP URI (`sip:user@host`) */
export const userOf = (uri: string) => /^sips?:([^@;>]+)@/.exec(uri)?.[1] ?? '';

export type CSeq = { seq: number; method: string };
export const parseCSeq = (value: string | undefined): CSeq => {
  const [n, method] = (value ?? '').trim().split(/\s+/);
  return { seq: Number(n) || 0, method: method ?? '' };
};

/** the top Via's branch and sent-by */
export const topVia = (m: SipMessage) => {
  const v = getHeader(m, 'via') ?? '';
  const semi = v.indexOf(';');
  const params = parseParams(semi < 0 ? '' : v.slice(semi + 1));
  const sentBy = (semi < 0 ? v : v.slice(0, semi)).split(/\s+/).pop() ?? '';
  return { branch: params.branch ?? '', sentBy, params };
};

/** a response to a request: Via, From, To, Call-ID and CSeq copied (RFC 3261 §8.2.6.2) */
export const makeResponse = (rq: SipRequest, status: number, reason: string, extra: Header[] = [], body = ''): SipResponse => ({
  kind: 'response',
  status,
  reason,
  headers: [
    ...rq.headers.filter(([k]) => k === 'via' || k === 'from' || k === 'to' || k === 'call-id' || k === 'cseq'),
    ...extra,
  ],
  body,
});
