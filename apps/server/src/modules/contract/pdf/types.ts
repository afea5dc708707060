/**
 * The contract PDF library's types (issue 26). The library knows no tables and no routes: the contract
 * module's services pass it plain values and store what it returns.
 */

/** One piece of a contract body, laid out top to bottom on A4 pages. */
export type Block =
  | { kind: 'heading'; text: string /** 1: centred, larger; 2 (default): section heading */; level?: 1 | 2 }
  /** a paragraph with its fields already filled; `\n` starts a new line inside it */
  | {
      kind: 'paragraph';
      text: string;
      align?: 'left' | 'center' | 'right';
      /** first-line indent of two characters (Chinese body text) */
      isIndented?: boolean;
      isBold?: boolean;
    }
  | { kind: 'table'; table: ProductsTable }
  /** vertical space in points */
  | { kind: 'spacer'; height: number }
  | { kind: 'pageBreak' };

/** A products table (产品明细表): cells wrap, rows break across pages and the header repeats. */
export type ProductsTable = {
  /** `width` is relative (weights), `align` of the cells (default left; numbers usually right) */
  columns: { title: string; width: number; align?: 'left' | 'center' | 'right' }[];
  /** strings already formatted (amounts as text: the library never does money arithmetic) */
  rows: string[][];
  /** rows under the table, label over all columns but the last, value in the last (合计 / 大写) */
  totals?: { label: string; value: string }[];
};

/** A party's block at the end of the contract, with its signing area (签署区). */
export type Party = {
  /** 甲方 / 乙方 … */
  role: string;
  name: string;
  /** who signs in this block's area: the company (its seal) or the customer (his signature) */
  signer: 'company' | 'customer';
  /** lines under the name: 联系人, 电话, 地址, 签约日期 … */
  lines?: { label: string; value: string }[];
};

export type ContractPdfInput = {
  title: string;
  /** contract number (合同编号), printed under the title and in every page's footer */
  number: string;
  /** the company issuing the contract (页脚, metadata) */
  companyName: string;
  body: Block[];
  parties: Party[];
  /** extra footer text left of 第 n 页 / 共 m 页 */
  footer?: string;
};

/** Where a signer's seal or signature goes, in PDF points (origin bottom-left), page index from 0. */
export type SignatureSlot = {
  signer: 'company' | 'customer';
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
};

export type SealKind = '合同专用章' | '公章';

export type SealOptions = {
  companyName: string;
  kind: SealKind;
  /** diameter in points (PDF) or pixels (PNG/SVG); default 120 */
  size?: number;
  /** default #d0021b */
  color?: string;
};

/** A seal to stamp: generated from options (vector) or an uploaded PNG (transparent). */
export type SealSource = { generated: SealOptions } | { png: Uint8Array };

/** The customer's signature: a PNG drawn on the signing page's canvas, or his typed name. */
export type CustomerSignature = { png: Uint8Array } | { typedName: string };

export type StampSignaturesInput = {
  seal?: SealSource;
  customer?: CustomerSignature;
  /** default: the slots renderContractPdf recorded in the PDF (readSignatureSlots) */
  slots?: SignatureSlot[];
  /** printed under the signature: 签署时间 (already formatted, e.g. 2026-11-28 10:20) */
  companySignedAt?: string;
  customerSignedAt?: string;
};

/** One signer on the certificate page (签署证书). */
export type CertificateSigner = {
  role: string;
  name: string;
  /** how: 平台自动盖章 / 短信验证码 + 手写签名 … */
  method: string;
  /** formatted time, e.g. 2026-11-28 10:20:31 (UTC+8) */
  signedAt: string;
  ip: string;
  userAgent: string;
  /** masked phone, e.g. 138****0000 */
  phone?: string;
};

export type CertificateInput = {
  contractNumber: string;
  contractTitle: string;
  companyName: string;
  signers: CertificateSigner[];
  /** formatted archive time */
  archivedAt: string;
  /** audit trail lines, oldest first (time + who + what) */
  auditTrail: string[];
};

/** A company's signing certificate; `encryptedKey` is sealed with CONTRACT_KEY_SECRET and never leaves the server. */
export type CompanyKey = {
  certPem: string;
  encryptedKey: string;
};

export type ArchiveResult = {
  bytes: Uint8Array;
  /** SHA-256 (hex) of the signed document before archiving (what the parties signed) */
  sha256Before: string;
  /** SHA-256 (hex) of the archived, digitally signed file */
  sha256After: string;
};

export type VerifyResult = {
  /** true: one signature covering the whole file, cryptographically intact, by a certificate of this platform */
  valid: boolean;
  /** why not valid, in Chinese; empty when valid */
  reason: string;
  /** the signing certificate's CN (the company name); empty when no signature */
  signerName: string;
  /** the signature's signing time (ISO), or empty */
  signedAt: string;
  /** SHA-256 (hex) of the bytes checked */
  sha256: string;
  /** SHA-256 (hex) of the signing certificate's DER: compare with certificateFingerprint(certPem) of your companies */
  certificateSha256: string;
};

/** A field placed on an uploaded PDF template's page (points, origin bottom-left), with its value. */
export type PdfFieldValue = {
  page: number;
  x: number;
  y: number;
  /** wrap width; default: one line */
  width?: number;
  fontSize?: number;
  value: string;
};
