import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { VerifyResult } from './types';

/** our own engine: @libpdf/core installs a different global pkijs engine while it signs */
const engine = new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: webcrypto as unknown as pkijs.ICryptoEngine['crypto'] });

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** PDF date (D:YYYYMMDDHHmmSS+HH'mm') → ISO, or '' */
const pdfDate = (s: string): string => {
  const m = /D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(Z|[+-]\d{2}'?\d{2}'?)?/.exec(s);
  if (!m) return '';
  const tz = !m[7] || m[7] === 'Z' ? 'Z' : `${m[7].slice(0, 3)}:${m[7].replace(/'/g, '').slice(3, 5)}`;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${tz}`);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
};

/** Whether a PDF is an unchanged archived contract: one signature, covering the whole file, intact. */
export const verifyArchivedPdf = async (bytes: Uint8Array): Promise<VerifyResult> => {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const result = (reason: string, extra: Partial<VerifyResult> = {}): VerifyResult => ({
    valid: false,
    reason,
    signerName: '',
    signedAt: '',
    sha256,
    certificateSha256: '',
    ...extra,
  });
  const text = latin1(bytes);
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length === 0) return result('文件没有数字签名，不是本平台归档的合同');
  if (ranges.length > 1) return result('文件含多个数字签名，不是本平台归档的合同');
  const [a, b, c, d] = ranges[0].slice(1).map(Number);
  if (a !== 0 || b <= 0 || c <= b || c + d !== bytes.length) {
    return result('数字签名未覆盖整个文件：签名之后文件被追加或改动过');
  }
  const gap = text.slice(b, c);
  const hex = /^<([0-9A-Fa-f]*)>$/.exec(gap)?.[1];
  if (!hex) return result('数字签名数据损坏');
  const dictStart = text.lastIndexOf('<<', b);
  const signedAtRaw = /\/M\s*\(([^)]*)\)/.exec(text.slice(dictStart, c + 2000))?.[1] ?? '';

  const signed = new Uint8Array(b + d);
  signed.set(bytes.subarray(0, b), 0);
  signed.set(bytes.subarray(c, c + d), b);
  try {
    // the placeholder is zero-padded: the DER's own length ends it (stripping trailing 00s would also cut a
    // signature whose last byte happens to be 0x00, one archive in 256)
    const padded = new Uint8Array(Buffer.from(hex, 'hex'));
    const asn = asn1js.fromBER(padded.buffer);
    if (asn.offset === -1) return result('数字签名数据损坏');
    const content = new pkijs.ContentInfo({ schema: asn.result });
    const signedData = new pkijs.SignedData({ schema: content.content });
    const cert = signedData.certificates?.find((x): x is pkijs.Certificate => x instanceof pkijs.Certificate);
    if (!cert) return result('数字签名中没有签名证书');
    const cn = cert.subject.typesAndValues.find((t) => t.type === '2.5.4.3');
    const signerName = cn ? String(cn.value.valueBlock.value) : '';
    const certificateSha256 = createHash('sha256')
      .update(new Uint8Array(cert.toSchema().toBER(false)))
      .digest('hex');
    const signingTimeAttr = signedData.signerInfos[0]?.signedAttrs?.attributes.find((x) => x.type === '1.2.840.113549.1.9.5');
    const signedAt =
      pdfDate(signedAtRaw) ||
      (signingTimeAttr ? new Date(String(signingTimeAttr.values[0]?.toDate?.() ?? '')).toISOString() : '');
    const ok = await signedData.verify({ signer: 0, data: signed.buffer, checkChain: false, extendedMode: true }, engine);
    const isValid = typeof ok === 'boolean' ? ok : ok.signatureVerified === true;
    if (!isValid) return result('文件在签名后被改动：数字签名校验失败', { signerName, signedAt, certificateSha256 });
    return { valid: true, reason: '', signerName, signedAt, sha256, certificateSha256 };
  } catch {
    return result('文件在签名后被改动：数字签名校验失败');
  }
};
