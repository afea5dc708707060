// HTTP digest (RFC 2617 / RFC 3261 §22.4, MD5, qop auth or none): the Authorization value for a
// 401/407 challenge. The app UA answers a challenge when it has a password (SIP_APP_PASSWORD).
import { createHash, randomBytes } from 'node:crypto';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export type Challenge = { realm: string; nonce: string; opaque?: string; qop?: string; algorithm?: string };

/** `Digest realm="x", nonce="y", qop="auth"` → its fields */
export const parseChallenge = (value: string): Challenge | undefined => {
  const m = /^\s*Digest\s+(.*)$/i.exec(value);
  if (!m) return undefined;
  const fields: Record<string, string> = {};
  for (const p of (m[1] ?? '').matchAll(/([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/g)) {
    fields[(p[1] ?? '').toLowerCase()] = p[2] ?? p[3] ?? '';
  }
  if (fields.realm === undefined || fields.nonce === undefined) return undefined;
  return { realm: fields.realm, nonce: fields.nonce, opaque: fields.opaque, qop: fields.qop, algorithm: fields.algorithm };
};

export type Credentials = { user: string; password: string };

/** the Authorization / Proxy-Authorization header value answering a challenge */
export const digestAuthorization = (
  c: Challenge,
  creds: Credentials,
  method: string,
  uri: string,
  nc = 1,
  cnonce = randomBytes(8).toString('hex'),
): string => {
  const ha1 = md5(`${creds.user}:${c.realm}:${creds.password}`);
  const ha2 = md5(`${method}:${uri}`);
  const useQop = c.qop?.split(',').some((q) => q.trim() === 'auth');
  const ncHex = nc.toString(16).padStart(8, '0');
  const response = useQop ? md5(`${ha1}:${c.nonce}:${ncHex}:${cnonce}:auth:${ha2}`) : md5(`${ha1}:${c.nonce}:${ha2}`);
  const parts = [
    `username="${creds.user}"`,
    `realm="${c.realm}"`,
    `nonce="${c.nonce}"`,
    `uri="${uri}"`,
    `response="${response}"`,
    'algorithm=MD5',
  ];
  if (useQop) parts.push('qop=auth', `nc=${ncHex}`, `cnonce="${cnonce}"`);
  if (c.opaque !== undefined) parts.push(`opaque="${c.opaque}"`);
  return `Digest ${parts.join(', ')}`;
};
