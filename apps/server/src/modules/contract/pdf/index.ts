/**
 * Contract PDF library (issue 26): render, seal, sign, archive and verify contract PDFs.
 * API: helpers note contract-pdf-api.md, summarised in docs/ARCHITECTURE.md (合同 PDF).
 */
export type * from './types';

import type {
  ArchiveResult,
  CertificateInput,
  CompanyKey,
  PdfFieldValue,
  ContractPdfInput,
  SealOptions,
  SignatureSlot,
  StampSignaturesInput,
  VerifyResult,
} from './types';

const notYet = (): never => {
  throw new Error('contract pdf: not yet');
};

/** A4 contract PDF with real Chinese text; signing slots recorded in the file (readSignatureSlots). */
export const renderContractPdf = async (_input: ContractPdfInput): Promise<Uint8Array> => notYet();

/** The signing slots renderContractPdf recorded in a PDF's metadata ([] when none). */
export const readSignatureSlots = async (_pdf: Uint8Array): Promise<SignatureSlot[]> => notYet();

/** The round red seal as a self-contained SVG (glyph outlines as paths, no font needed). */
export const sealSvg = (_options: SealOptions): string => notYet();

/** The seal as a transparent PNG (size px). */
export const sealPng = async (_options: SealOptions): Promise<Uint8Array> => notYet();

/** Company seal and customer signature drawn into their slots (the signed, pre-archive version). */
export const stampSignatures = async (_pdf: Uint8Array, _input: StampSignaturesInput): Promise<Uint8Array> =>
  notYet();

/** An uploaded PDF template with its fields' values drawn where they were placed (same font, real text). */
export const fillPdfTemplate = async (_pdf: Uint8Array, _fields: PdfFieldValue[]): Promise<Uint8Array> => notYet();

/** A new version with 已作废 stamped on every page and the reason on the first. */
export const stampVoid = async (_pdf: Uint8Array, _input: { reason: string; at: string }): Promise<Uint8Array> =>
  notYet();

/** A self-signed signing certificate for a company (CN = company name); the key sealed with the config secret. */
export const createCompanyCertificate = async (_input: {
  companyName: string;
  creditCode: string;
  /** config.contractKeySecret (CONTRACT_KEY_SECRET) */
  keySecret: string;
}): Promise<CompanyKey> => notYet();

/** Flatten, append the Chinese certificate page, then ONE PAdES signature over the whole file. */
export const archiveContractPdf = async (_input: {
  pdf: Uint8Array;
  certificate: CertificateInput;
  companyKey: CompanyKey;
  /** config.contractKeySecret: opens companyKey.encryptedKey inside this call only */
  keySecret: string;
}): Promise<ArchiveResult> => notYet();

/** Whether a PDF is an unchanged archived contract: signature intact and covering the whole file. */
export const verifyArchivedPdf = async (_bytes: Uint8Array): Promise<VerifyResult> => notYet();

/** The characters of a text the shipped font cannot draw (check input before rendering; [] = all fine). */
export const unsupportedChars = (_text: string): string[] => notYet();
