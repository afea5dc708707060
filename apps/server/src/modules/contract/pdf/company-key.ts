import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { ContractPdfError } from './errors';
import type { CompanyKey } from './types';

// Node's webcrypto is the Web Crypto the library expects (its type differs between the DOM and Node libs)
x509.cryptoProvider.set(webcrypto as never);

const ALG = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const KEY_INFO = 'crm contract signing key v1';

/** AES-256-GCM key for one sealed private key: HKDF of CONTRACT_KEY_SECRET with the key's own salt. */
const wrappingKey = (secret: string, salt: Buffer) => {
  if (secret.length < 16) throw new ContractPdfError('KEY_UNAVAILABLE', '未配置合同签名密钥（CONTRACT_KEY_SECRET）');
  return Buffer.from(hkdfSync('sha256', secret, salt, KEY_INFO, 32));
};

const seal = (pkcs8: Buffer, secret: string): string => {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wrappingKey(secret, salt), iv);
  const body = Buffer.concat([cipher.update(pkcs8), cipher.final()]);
  return ['v1', salt, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64'))).join('.');
};

const open = (sealed: string, secret: string): Buffer => {
  const [v, salt, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !body) throw new ContractPdfError('KEY_UNAVAILABLE', '公司签名密钥格式不正确');
  try {
    const decipher = createDecipheriv('aes-256-gcm', wrappingKey(secret, Buffer.from(salt, 'base64')), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]);
  } catch {
    throw new ContractPdfError('KEY_UNAVAILABLE', '无法解开公司签名密钥（CONTRACT_KEY_SECRET 与生成时不同）');
  }
};

/** A self-signed signing certificate for a company (CN = company name); the key sealed with the config secret. */
export const createCompanyCertificate = async (input: {
  companyName: string;
  creditCode: string;
  keySecret: string;
}): Promise<CompanyKey> => {
  const name = input.companyName.trim();
  if (!name) throw new ContractPdfError('KEY_UNAVAILABLE', '公司名称不能为空');
  wrappingKey(input.keySecret, Buffer.alloc(16)); // refuse before generating when the secret is missing
  const keys = (await webcrypto.subtle.generateKey(
    { ...ALG, publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 },
    true,
    ['sign', 'verify'],
  )) as webcrypto.CryptoKeyPair;
  const now = new Date();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: [{ CN: [name] }, { O: [name] }, { '2.5.4.5': [input.creditCode] }, { OU: ['电子合同签章'] }],
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getFullYear() + 10, now.getMonth(), now.getDate()),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { certPem: cert.toString('pem'), encryptedKey: seal(pkcs8, input.keySecret) };
};

type OpenedKey = { certDer: Uint8Array; privateKey: webcrypto.CryptoKey; commonName: string };

/**
 * Keys opened lately, by a hash of (sealed key, certificate, secret): parsing the certificate and importing
 * the key cost more than the signature itself. The private key is a non-extractable CryptoKey held in this
 * process only; a changed secret or key is a different entry.
 */
const opened = new Map<string, Promise<OpenedKey>>();
const OPENED_KEYS = 16;

/** The certificate's DER and the private key, opened for signing (never returned past the archive step). */
export const openCompanyKey = (key: CompanyKey, secret: string): Promise<OpenedKey> => {
  const id = createHash('sha256')
    .update(key.encryptedKey)
    .update('\0')
    .update(key.certPem)
    .update('\0')
    .update(secret)
    .digest('hex');
  const hit = opened.get(id);
  if (hit) return hit;
  const pending = (async () => {
    const cert = new x509.X509Certificate(key.certPem);
    const privateKey = await webcrypto.subtle.importKey('pkcs8', open(key.encryptedKey, secret), ALG, false, ['sign']);
    return { certDer: new Uint8Array(cert.rawData), privateKey, commonName: cert.subjectName.getField('CN')[0] ?? '' };
  })();
  opened.set(id, pending);
  pending.catch(() => opened.delete(id)); // a failure is not remembered
  if (opened.size > OPENED_KEYS) opened.delete(opened.keys().next().value as string);
  return pending;
};

/** SHA-256 (hex) of a certificate's DER: how the verify page recognises this platform's companies. */
export const certificateFingerprint = (certPem: string): string =>
  createHash('sha256')
    .update(new Uint8Array(new x509.X509Certificate(certPem).rawData))
    .digest('hex');
