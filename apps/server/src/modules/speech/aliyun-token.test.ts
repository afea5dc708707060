import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { aliyunTokenSource, popEncode, popSignature } from './aliyun-token';

describe('Alibaba Cloud POP signature', () => {
  it('matches the documented example (DescribeRegions, testid / testsecret)', () => {
    const params = {
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      Format: 'XML',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0',
      Timestamp: '2016-02-23T12:46:24Z',
      Version: '2014-05-26',
    };
    expect(popSignature('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  it('encodes as RFC 3986', () => {
    expect(popEncode("a b*c~d!'()")).toBe('a%20b%2Ac~d%21%27%28%29');
    expect(popEncode('2016-02-23T12:46:24Z')).toBe('2016-02-23T12%3A46%3A24Z');
  });
});

describe('CreateToken (a local server standing in for nls-meta)', () => {
  let server: http.Server | undefined;
  afterEach(() => server?.close());

  const start = async (answer: (params: URLSearchParams) => { status: number; body: object }) => {
    const seen: URLSearchParams[] = [];
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const params = new URLSearchParams(body);
        seen.push(params);
        const a = answer(params);
        res.statusCode = a.status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(a.body));
      });
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
  };

  it('sends a signed CreateToken, keeps the token until 10 minutes before it expires, shares one request', async () => {
    let clock = Date.UTC(2026, 10, 25, 1, 0, 0);
    let n = 0;
    const { url, seen } = await start((p) => {
      // the server checks the signature the way Alibaba Cloud does: over every parameter but Signature
      const rest = Object.fromEntries([...p.entries()].filter(([k]) => k !== 'Signature'));
      if (p.get('Signature') !== popSignature('POST', rest, 'sk-secret'))
        return { status: 400, body: { Code: 'SignatureDoesNotMatch' } };
      n++;
      return {
        status: 200,
        body: { RequestId: 'r', Token: { Id: `tok-${n}`, ExpireTime: Math.floor(clock / 1000) + 3600, UserId: '1' } },
      };
    });
    const token = aliyunTokenSource({ accessKeyId: 'LTAI-id', accessKeySecret: 'sk-secret', url, now: () => clock });
    expect(await Promise.all([token(), token(), token()])).toEqual(['tok-1', 'tok-1', 'tok-1']);
    expect(seen).toHaveLength(1);
    expect(Object.fromEntries(seen[0])).toMatchObject({
      AccessKeyId: 'LTAI-id',
      Action: 'CreateToken',
      Version: '2019-02-28',
      Format: 'JSON',
      RegionId: 'cn-shanghai',
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      Timestamp: '2026-11-25T01:00:00Z',
    });
    clock += 49 * 60_000 + 59_000; // 10 min 1 s before expiry: still good
    expect(await token()).toBe('tok-1');
    clock += 2_000; // 9 min 59 s before: renewed
    expect(await token()).toBe('tok-2');
    expect(seen).toHaveLength(2);
  });

  it('fails with the service’s code, and tries again on the next call', async () => {
    const { url, seen } = await start(() => ({
      status: 403,
      body: { Code: 'InvalidAccessKeyId.NotFound', Message: 'Specified access key is not found.' },
    }));
    const token = aliyunTokenSource({ accessKeyId: 'x', accessKeySecret: 'y', url });
    await expect(token()).rejects.toThrow('CreateToken failed (403 InvalidAccessKeyId.NotFound');
    await expect(token()).rejects.toThrow('403');
    expect(seen).toHaveLength(2);
  });
});
