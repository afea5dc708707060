/**
 * Contract PDF library (issue 26): render, seal, sign, archive and verify contract PDFs. Pure functions over
 * bytes and plain values: no tables, no routes, no config import (the caller passes config.contractKeySecret).
 * API notes: docs/ARCHITECTURE.md (合同 PDF).
 */

export { archiveContractPdf } from './archive';
export { certificateFingerprint, createCompanyCertificate } from './company-key';
export { ContractPdfError } from './errors';
export { unsupportedChars, warmContractFont } from './font';
export { A4, readSignatureSlots, renderContractPdf } from './render-contract';
export { drawSeal, sealPng, sealSvg } from './seal';
export { fillPdfTemplate, stampSignatures, stampVoid } from './stamp';
export type * from './types';
export { verifyArchivedPdf } from './verify';
