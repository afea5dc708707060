import { createHmac, randomUUID } from 'node:crypto';
import type { SmsConfig } from '../../config';
import { AppError } from '../../lib/app-error';

/**
 * How a contract's one-time code reaches the signer's phone (issue 26): one interface, one driver per
 * provider. `aliyun` speaks 阿里云短信 SendSms (RPC style, HMAC-SHA1 signature v1.0); without a
 * provider (`none`) nothing is sent and the sim line shows the code to the agent instead.
 */
export type SmsSender = {
  /** true when a real provider delivers the code */
  isLive: boolean;
  sendCode: (phone: string, code: string) => Promise<void>;
};

/** RFC 3986 percent-encoding as the RPC signature wants it (space %20, * %2A, ~ kept). */
export const percentEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature of an RPC request: base64 HMAC-SHA1 of `METHOD&%2F&encoded(canonical query)` keyed `secret&`. */
export const aliyunSignature = (method: string, params: Record<string, string>, secret: string) => {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k])}`)
    .join('&');
  const toSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
};

/** 阿里云短信 SendSms: POST form to the endpoint; Code OK or a refusal (a provider refusal becomes 短信服务不可用). */
export const aliyunSmsSender = (config: SmsConfig, fetchImpl: typeof fetch = fetch): SmsSender => ({
  isLive: true,
  sendCode: async (phone, code) => {
    const params: Record<string, string> = {
      AccessKeyId: config.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: phone,
      RegionId: 'cn-hangzhou',
      SignName: config.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: config.templateCode,
      TemplateParam: JSON.stringify({ code }),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    const body = new URLSearchParams({ ...params, Signature: aliyunSignature('POST', params, config.accessKeySecret) });
    let answer: { Code?: string; Message?: string };
    try {
      const res = await fetchImpl(config.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        signal: AbortSignal.timeout(10_000),
      });
      answer = (await res.json()) as { Code?: string; Message?: string };
    } catch {
      throw new AppError('CONTRACT_SMS_UNAVAILABLE');
    }
    if (answer.Code !== 'OK')
      throw new AppError('CONTRACT_SMS_UNAVAILABLE', `短信发送失败：${answer.Message ?? answer.Code ?? '未知错误'}`);
  },
});

/** No provider: nothing leaves the server (the sim line's demo shows the code to the agent). */
export const noSmsSender: SmsSender = {
  isLive: false,
  sendCode: async () => {
    throw new AppError('CONTRACT_SMS_NOT_CONFIGURED');
  },
};

export const smsSenderOf = (config: SmsConfig): SmsSender =>
  config.provider === 'aliyun' ? aliyunSmsSender(config) : noSmsSender;
