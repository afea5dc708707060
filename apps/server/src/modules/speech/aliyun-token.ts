import { createHmac, randomUUID } from 'node:crypto';

// Access tokens for Alibaba Cloud NLS (aliyun-nls.ts): a token expires (about a day), so the app
// makes its own from a RAM AccessKey with the CreateToken call (POST nls-meta.cn-shanghai
// .aliyuncs.com, Version 2019-02-28, the POP RPC signature: HMAC-SHA1 of the sorted, percent-
// encoded parameters, keyed with `secret&`). The answer {Token: {Id, ExpireTime (seconds)}} is
// kept until ten minutes before it expires; concurrent callers share one request.

export const NLS_TOKEN_URL = 'https://nls-meta.cn-shanghai.aliyuncs.com/';
const REFRESH_BEFORE_MS = 10 * 60_000;

/** RFC 3986 encoding as the POP signature wants it (space %20, * %2A, ~ kept). */
export const popEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The POP RPC (signature version 1.0) signature of a request's parameters. */
export const popSignature = (method: 'GET' | 'POST', params: Record<string, string>, secret: string) => {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${popEncode(k)}=${popEncode(params[k])}`)
    .join('&');
  const toSign = `${method}&${popEncode('/')}&${popEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
};

export type AliyunTokenOptions = {
  accessKeyId: string;
  accessKeySecret: string;
  url?: string;
  regionId?: string;
  timeoutMs?: number;
  now?: () => number;
};

/** A token source for aliyunNlsRecognizer({ token }): cached, renewed before it expires. */
export const aliyunTokenSource = (o: AliyunTokenOptions) => {
  const now = o.now ?? Date.now;
  let cached: { id: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const request = async (): Promise<string> => {
    const params: Record<string, string> = {
      AccessKeyId: o.accessKeyId,
      Action: 'CreateToken',
      Format: 'JSON',
      RegionId: o.regionId ?? 'cn-shanghai',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      Timestamp: new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2019-02-28',
    };
    params.Signature = popSignature('POST', params, o.accessKeySecret);
    const body = Object.entries(params)
      .map(([k, v]) => `${popEncode(k)}=${popEncode(v)}`)
      .join('&');
    const res = await fetch(o.url ?? NLS_TOKEN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(o.timeoutMs ?? 5_000),
    });
    const json = (await res.json().catch(() => ({}))) as {
      Token?: { Id?: string; ExpireTime?: number };
      Code?: string;
      Message?: string;
    };
    if (!res.ok || !json.Token?.Id || typeof json.Token.ExpireTime !== 'number') {
      throw new Error(
        `CreateToken failed (${res.status}${json.Code ? ` ${json.Code}` : ''}${json.Message ? `: ${json.Message}` : ''})`,
      );
    }
    cached = { id: json.Token.Id, expiresAt: json.Token.ExpireTime * 1000 };
    return cached.id;
  };

  return (): Promise<string> => {
    if (cached && cached.expiresAt - REFRESH_BEFORE_MS > now()) return Promise.resolve(cached.id);
    pending ??= request().finally(() => {
      pending = undefined;
    });
    return pending;
  };
};
