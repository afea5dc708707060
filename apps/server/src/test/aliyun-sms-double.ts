import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { aliyunSignature } from '../modules/contract/contract-sms';

/**
 * TEST DOUBLE of 阿里云短信 SendSms (not the product): an HTTP server speaking the RPC protocol. It
 * checks the request's HMAC-SHA1 signature with the secret it was given and answers like the
 * provider: `{Code: 'OK', BizId, RequestId, Message: 'OK'}`, or `SignatureDoesNotMatch` /
 * `isv.BUSINESS_LIMIT_CONTROL` (when told to refuse).
 */
export const startAliyunSmsDouble = async (secret: string) => {
  const sent: { phone: string; code: string; signName: string; templateCode: string }[] = [];
  let refuse = '';
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      const { Signature, ...params } = form;
      const answer = (o: object) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ RequestId: `req-${sent.length}`, ...o }));
      };
      if (params.Action !== 'SendSms' || params.Version !== '2017-05-25')
        return answer({ Code: 'InvalidAction', Message: 'bad action' });
      if (aliyunSignature('POST', params, secret) !== Signature)
        return answer({ Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' });
      if (refuse) return answer({ Code: refuse, Message: '触发号码天级流控Permits:10' });
      sent.push({
        phone: params.PhoneNumbers,
        code: (JSON.parse(params.TemplateParam) as { code: string }).code,
        signName: params.SignName,
        templateCode: params.TemplateCode,
      });
      answer({ Code: 'OK', Message: 'OK', BizId: `biz-${sent.length}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/`,
    sent,
    refuseWith: (code: string) => {
      refuse = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
