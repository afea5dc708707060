import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../lib/app-error';
import { startAliyunSmsDouble } from '../../test/aliyun-sms-double';
import { aliyunSignature, aliyunSmsSender, noSmsSender, percentEncode } from './contract-sms';

const SECRET = 'testsecret';
let double: Awaited<ReturnType<typeof startAliyunSmsDouble>>;
const config = (secret = SECRET) => ({
  provider: 'aliyun' as const,
  endpoint: double.endpoint,
  accessKeyId: 'testid',
  accessKeySecret: secret,
  signName: '云呼科技',
  templateCode: 'SMS_123456',
});

beforeAll(async () => {
  double = await startAliyunSmsDouble(SECRET);
});
afterAll(async () => double.close());

describe('SmsSender (阿里云短信 SendSms)', () => {
  it('signs as the RPC protocol says (the published example of the signature v1.0)', () => {
    expect(percentEncode("a b*~'")).toBe('a%20b%2A~%27');
    // Alibaba Cloud's documented example: AccessKeySecret testsecret, GET, these parameters
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
    expect(aliyunSignature('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  it('delivers the code to the test double, which checks the signature', async () => {
    await aliyunSmsSender(config()).sendCode('13912345678', '123456');
    expect(double.sent.at(-1)).toEqual({
      phone: '13912345678',
      code: '123456',
      signName: '云呼科技',
      templateCode: 'SMS_123456',
    });
  });

  it('a refused request (wrong secret, provider limit) is 短信服务不可用, never a 500', async () => {
    const wrong = await aliyunSmsSender(config('other'))
      .sendCode('13912345678', '1')
      .catch((e: AppError) => e);
    expect((wrong as AppError).key).toBe('CONTRACT_SMS_UNAVAILABLE');
    double.refuseWith('isv.BUSINESS_LIMIT_CONTROL');
    const limited = await aliyunSmsSender(config())
      .sendCode('13912345678', '1')
      .catch((e: AppError) => e);
    expect((limited as AppError).key).toBe('CONTRACT_SMS_UNAVAILABLE');
    expect((limited as AppError).message).toMatch(/天级流控/);
    double.refuseWith('');
    const down = await aliyunSmsSender({ ...config(), endpoint: 'http://127.0.0.1:9/' })
      .sendCode('1', '1')
      .catch((e: AppError) => e);
    expect((down as AppError).key).toBe('CONTRACT_SMS_UNAVAILABLE');
    expect(noSmsSender.isLive).toBe(false);
    await expect(noSmsSender.sendCode('1', '1')).rejects.toMatchObject({ key: 'CONTRACT_SMS_NOT_CONFIGURED' });
  });
});
