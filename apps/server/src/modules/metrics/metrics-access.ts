import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';

/** Who may read GET /metrics: loopback, the METRICS_ALLOW networks, or the METRICS_TOKEN bearer. */

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is checked as 10.0.0.1. */
const plainAddress = (address: string) => /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1] ?? address;

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The decision for one request. The address is Fastify's `req.ip`: the socket's address, unless
 * TRUST_PROXY names the proxy in front, then the client X-Forwarded-For names through it (so a
 * request relayed by a local nginx is not taken for a loopback one when TRUST_PROXY is set).
 * A request relayed by a proxy (X-Forwarded-For) while TRUST_PROXY is off is judged by the token
 * only: a local nginx would otherwise make every client look like loopback. A bearer presented
 * while METRICS_TOKEN is set must match, even from an allowed address.
 */
export const metricsAccess = (metrics: Config['metrics'], trustProxy: Config['trustProxy']) => {
  const allowed = new BlockList();
  allowed.addSubnet('127.0.0.0', 8, 'ipv4');
  allowed.addAddress('::1', 'ipv6');
  for (const entry of metrics.allow) {
    const [ip, bits] = entry.split('/');
    if (bits === undefined) allowed.addAddress(ip, familyOf(ip));
    else allowed.addSubnet(ip, Number(bits), familyOf(ip));
  }
  const token = metrics.token ? digest(metrics.token) : null;

  const isAddressAllowed = (address: string) => {
    const a = plainAddress(address);
    return isIP(a) !== 0 && allowed.check(a, familyOf(a));
  };

  return (req: FastifyRequest): boolean => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token && bearer !== undefined) return timingSafeEqual(digest(bearer), token);
    // relayed by a proxy TRUST_PROXY does not name: the socket's address is the proxy's, not the client's
    if (trustProxy === false && req.headers['x-forwarded-for'] !== undefined) return false;
    return isAddressAllowed(req.ip);
  };
};
