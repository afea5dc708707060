import { isIP } from 'node:net';

// Address settings read from the environment (TRUST_PROXY, METRICS_ALLOW): parsed and checked here,
// used by config.ts.

/**
 * Fastify's `trustProxy` from the environment: off, on, proxy addresses, or a hop count (as the
 * function proxy-addr builds for a number: the first `n` hops are trusted).
 */
export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/** proxy-addr's named ranges, accepted in a TRUST_PROXY list */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isProxyAddress = (s: string) => {
  if (PROXY_RANGE_NAMES.has(s)) return true;
  const [ip, bits, ...rest] = s.split('/');
  const family = isIP(ip);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (isIP(bits)) return true; // address/netmask
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * TRUST_PROXY: empty/false = the client address is the socket's (X-Forwarded-For ignored);
 * true = trust every proxy (only behind a proxy that overwrites the header); a number = trust
 * that many hops; a comma-separated list of addresses/CIDRs (or loopback, linklocal, uniquelocal).
 */
export const parseTrustProxy = (raw: string): TrustProxy | undefined => {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Math.min(Number(v), 100);
    return hops === 0 ? false : (_address: string, hop: number) => hop < hops;
  }
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length > 0 && list.every(isProxyAddress) ? list : undefined;
};

/** A comma-separated list of IP addresses or CIDRs (METRICS_ALLOW); undefined when one entry is neither. */
export const parseAddressList = (raw: string): string[] | undefined => {
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const isEntry = (s: string) => {
    const [ip, bits, ...rest] = s.split('/');
    const family = isIP(ip);
    if (!family || rest.length > 0) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  };
  return list.every(isEntry) ? list : undefined;
};
