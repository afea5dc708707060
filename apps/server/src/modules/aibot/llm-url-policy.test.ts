import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  checkLlmUrl,
  interfaceAddresses,
  isInternalAddress,
  isOwnAddress,
  LlmUrlError,
  STRICT_LLM_POLICY,
} from './llm-url-policy';

// Where a company's LLM endpoint may point (SSRF policy): public http(s) addresses unless the
// operator allows internal ones.

describe('internal addresses', () => {
  it('loopback, unspecified, link-local with the metadata address, private and shared ranges, at their edges', () => {
    for (const ip of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      '::',
      'fe80::1',
      'febf::1',
      'fc00::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::7f00:1',
    ]) {
      expect(isInternalAddress(ip), ip).toBe(true);
    }
    for (const ip of [
      '8.8.8.8',
      '172.15.255.255',
      '172.32.0.1',
      '192.169.0.1',
      '11.0.0.1',
      '100.128.0.1',
      '2001:db8::1',
      'fec0::1',
      '::ffff:8.8.8.8',
    ]) {
      expect(isInternalAddress(ip), ip).toBe(false);
    }
  });
});

describe('checkLlmUrl', () => {
  const publicDns = async () => [{ address: '203.0.113.9', family: 4 as const }];
  const privateDns = async () => [
    { address: '203.0.113.9', family: 4 as const },
    { address: '10.0.0.8', family: 4 as const },
  ];
  const refused = (url: string, lookup = publicDns, policy = STRICT_LLM_POLICY) =>
    checkLlmUrl(url, policy, lookup).then(
      () => '',
      (e: Error) => (e instanceof LlmUrlError ? e.message : `unexpected ${e}`),
    );

  it('a public http(s) endpoint passes and names the address to connect to', async () => {
    const r = await checkLlmUrl('https://api.example.com/v1', STRICT_LLM_POLICY, publicDns);
    expect(r.target).toEqual({ address: '203.0.113.9', family: 4 });
    expect((await checkLlmUrl('http://203.0.113.5:8000/v1', STRICT_LLM_POLICY, publicDns)).target.address).toBe('203.0.113.5');
  });

  it('refuses other schemes, credentials in the URL, unresolvable names and internal addresses', async () => {
    expect(await refused('ftp://api.example.com/v1')).toBe('接口地址只支持 http:// 或 https://');
    expect(await refused('file:///etc/passwd')).toBe('接口地址只支持 http:// 或 https://');
    expect(await refused('http://user:pw@api.example.com/v1')).toMatch(/^接口地址不能包含用户名或密码/);
    expect(await refused('http://nowhere.invalid/v1', async () => [])).toBe('无法解析接口地址的域名 nowhere.invalid');
    for (const url of [
      // the URL parser's forms of 127.0.0.1: ::ffff:7f00:1, and a bare number or hex parts
      'http://[::ffff:127.0.0.1]:11434/v1',
      'http://2130706433/v1',
      'http://0x7f.1/v1',
      'http://127.0.0.1:11434/v1',
      'http://[::1]/v1',
      'http://169.254.169.254/latest',
      'http://0.0.0.0/v1',
      'http://192.168.0.2/v1',
    ]) {
      expect(await refused(url), url).toMatch(/^接口地址不能指向本机、内网或云服务器元数据地址/);
    }
    // any of the name's addresses internal: refused
    expect(await refused('https://mixed.example.com/v1', privateDns)).toMatch(/^接口地址不能指向本机、内网/);
  });

  it("refuses the addresses of the machine's own interfaces, a public one too (issue 22)", async () => {
    // a public address that is this host's own: accepted before, and the API key was sent there
    const own = () => ['198.51.100.20', '2001:db8::20', '127.0.0.1'];
    const check = (url: string, lookup = publicDns) =>
      checkLlmUrl(url, STRICT_LLM_POLICY, lookup, own).then(
        () => '',
        (e: Error) => e.message,
      );
    expect(await check('http://198.51.100.20:8080/v1')).toMatch(/^接口地址不能指向本机/);
    expect(await check('http://[2001:db8:0:0::20]/v1')).toMatch(/^接口地址不能指向本机/);
    expect(await check('http://[::ffff:198.51.100.20]/v1')).toMatch(/^接口地址不能指向本机/);
    expect(await check('https://self.example.com/v1', async () => [{ address: '198.51.100.20', family: 4 }])).toMatch(
      /^接口地址不能指向本机/,
    );
    // a neighbour's public address still passes
    expect(await check('http://198.51.100.21/v1')).toBe('');
    expect(isOwnAddress('198.51.100.20', own())).toBe(true);
    expect(isOwnAddress('198.51.100.21', own())).toBe(false);
    // the default reads this machine's interfaces: every one of them is refused
    const mine = interfaceAddresses();
    expect(mine.length).toBeGreaterThan(0);
    for (const address of mine) {
      const host = net.isIPv6(address) ? `[${address}]` : address;
      expect(await refused(`http://${host}:8080/v1`), address).toMatch(/^接口地址不能指向本机/);
    }
    // the operator's allowance covers them as it covers loopback (a model on the same server)
    expect(
      await checkLlmUrl('http://198.51.100.20/v1', { allowPrivate: true, allowHosts: [] }, publicDns, own).then(() => ''),
    ).toBe('');
  });

  it('the operator may allow internal addresses, all or by host', async () => {
    expect(await refused('http://127.0.0.1:11434/v1', publicDns, { allowPrivate: true, allowHosts: [] })).toBe('');
    // as config.ts reads AIBOT_LLM_ALLOW_HOSTS: lower case, IPv6 without brackets
    const byHost = { allowPrivate: false, allowHosts: ['llm.corp.local', '10.0.0.5', 'fd00::5'] };
    expect(await refused('http://LLM.corp.local/v1', privateDns, byHost)).toBe('');
    expect(await refused('http://10.0.0.5:8000/v1', publicDns, byHost)).toBe('');
    expect(await refused('http://[fd00::5]/v1', publicDns, byHost)).toBe('');
    expect(await refused('http://10.0.0.6:8000/v1', publicDns, byHost)).toMatch(/^接口地址不能指向/);
  });
});
