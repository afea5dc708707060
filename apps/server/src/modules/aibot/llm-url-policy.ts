import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';

// Where a company's LLM endpoint may point (issue 16). A tenant admin types the URL, and the server
// POSTs to it: without a policy he could make the server reach 127.0.0.1, the internal network or
// the cloud's metadata service (SSRF). Only http(s); a host that is, or resolves to, a loopback,
// unspecified (0.0.0.0, ::), link-local (169.254/16 with the metadata address, fe80::/10),
// private (10/8, 172.16/12, 192.168/16, fc00::/7) or shared (100.64/10) address, or an address of
// one of this machine's own interfaces (a public one included: os.networkInterfaces()), is refused, unless
// the operator allows it (AIBOT_LLM_ALLOW_PRIVATE=1, or the host in AIBOT_LLM_ALLOW_HOSTS: a
// self-hosted model in the same network). Checked when the settings are saved (a clear message) and
// again at each request, which then connects to the very address it checked (a DNS answer that
// changes in between cannot redirect it).

export type LlmUrlPolicy = { allowPrivate: boolean; allowHosts: string[] };

/** The default: public addresses only. */
export const STRICT_LLM_POLICY: LlmUrlPolicy = { allowPrivate: false, allowHosts: [] };

export class LlmUrlError extends Error {}

const internal = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['255.255.255.255', 32],
] as const) {
  internal.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
  ['::', 96],
  ['fe80::', 10],
  ['fc00::', 7],
] as const) {
  internal.addSubnet(prefix, bits, 'ipv6');
}

/** An address as a BlockList checks it: an IPv4-mapped IPv6 address as its IPv4; null when not an IP. */
const normalized = (address: string): { ip: string; type: 'ipv4' | 'ipv6' } | null => {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return { ip: mapped[1], type: 'ipv4' };
  // the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (hex) {
    const [hi, lo] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
    return { ip: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, type: 'ipv4' };
  }
  const family = net.isIP(ip);
  return family === 4 ? { ip, type: 'ipv4' } : family === 6 ? { ip, type: 'ipv6' } : null;
};

/** Whether an IP address is internal (see above); an IPv4-mapped IPv6 address counts as its IPv4. */
export const isInternalAddress = (address: string): boolean => {
  const n = normalized(address);
  return n === null || internal.check(n.ip, n.type);
};

/**
 * The addresses of this machine's own interfaces (issue 22: a public address of the server itself
 * reaches its own services as surely as 127.0.0.1 does). Read at each check: interfaces change.
 */
export const interfaceAddresses = (): string[] =>
  Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));

/** Whether an address is one of `own` (this machine's interface addresses), in any of its written forms. */
export const isOwnAddress = (address: string, own: readonly string[]): boolean => {
  const n = normalized(address);
  if (n === null) return true;
  const list = new net.BlockList();
  for (const a of own) {
    const o = normalized(a);
    if (o) list.addAddress(o.ip, o.type);
  }
  return list.check(n.ip, n.type);
};

export type Resolved = { address: string; family: 4 | 6 };
export type Lookup = (host: string) => Promise<Resolved[]>;

const systemLookup: Lookup = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const INTERNAL_MESSAGE = '接口地址不能指向本机、内网或云服务器元数据地址（运营方可在服务器配置中放行）';

/**
 * Checks an endpoint URL against the policy; resolves to the URL and the address to connect to.
 * Rejects with LlmUrlError (a Chinese message) when it is not http(s), its host does not resolve,
 * or any of its addresses is internal and the policy does not allow it.
 */
export const checkLlmUrl = async (
  raw: string,
  policy: LlmUrlPolicy,
  lookup: Lookup = systemLookup,
  ownAddresses: () => readonly string[] = interfaceAddresses,
): Promise<{ url: URL; target: Resolved }> => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LlmUrlError('请输入正确的接口地址');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new LlmUrlError('接口地址只支持 http:// 或 https://');
  if (url.username || url.password) throw new LlmUrlError('接口地址不能包含用户名或密码，请填写在接口密钥中');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = net.isIP(host);
  let addresses: Resolved[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    addresses = await lookup(host).catch(() => []);
    if (addresses.length === 0) throw new LlmUrlError(`无法解析接口地址的域名 ${host}`);
  }
  const isAllowed = policy.allowPrivate || policy.allowHosts.includes(host);
  if (isAllowed) return { url, target: addresses[0] };
  const own = ownAddresses();
  if (addresses.some((a) => isInternalAddress(a.address) || isOwnAddress(a.address, own)))
    throw new LlmUrlError(INTERNAL_MESSAGE);
  return { url, target: addresses[0] };
};
