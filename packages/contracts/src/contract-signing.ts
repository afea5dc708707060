/**
 * The contract's public signing page and verify page (issue 26, no login): the view a signing link
 * opens, the SPEC §7 contract draft {price, name, phone} that sends the one-time code, the signature,
 * and the verification of an archived PDF. Token-scoped and rate-limited by the server.
 */
import { z } from 'zod';
import { zText } from './common';
import { CONTRACT_LIMITS } from './contract';
import { MONEY_MAX } from './products';

const text = (what: string, max: number) => zText().trim().min(1, `请输入${what}`).max(max, `${what}最多${max}个字符`);

export const signTokenQuery = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, '链接无效') });
export const signViewSchema = z.object({
  contract_no: z.string(),
  title: z.string(),
  company_name: z.string(),
  customer_name: z.string(),
  signer_name: z.string(),
  /** masked: 138****5678 */
  phone_masked: z.string(),
  amount: z.number(),
  amount_upper: z.string(),
  status: z.number(),
  status_name: z.string(),
  /** 1 may sign now; 0 with `wait_reason` otherwise */
  can_sign: z.number(),
  wait_reason: z.string(),
  is_signed: z.number(),
  signed_at: z.string(),
  expires_at: z.string(),
  /** GET this (same token) for the PDF */
  pdf_url: z.string(),
});
export type SignView = z.infer<typeof signViewSchema>;
/**
 * SPEC §7 "contract draft {price, name, phone} sent without credentials" (POST /api/contract/draft): the
 * customer confirms the amount he read and his name and phone (they must match the contract); the
 * one-time code is then sent to the phone on file. Failure: msg or 操作失败 (SPEC §8).
 */
export const contractDraftBody = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, '链接无效'),
  price: z.number().int().min(0).max(MONEY_MAX),
  name: text('姓名', 30),
  phone: text('手机号', 20),
});
export type ContractDraftBody = z.infer<typeof contractDraftBody>;
export const contractDraftResultSchema = z.object({ phone_masked: z.string(), expires_in: z.number(), resend_in: z.number() });
export const signSubmitBody = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, '链接无效'),
    code: z.string().regex(/^\d{6}$/, '请输入6位验证码'),
    /** a drawn signature: data:image/png;base64,… */
    signature_png: z.string().max(800_000).default(''),
    /** or a typed name */
    typed_name: zText().trim().max(CONTRACT_LIMITS.typedName).default(''),
  })
  .refine((b) => b.signature_png !== '' || b.typed_name !== '', { message: '请签名', path: ['signature_png'] });
export type SignSubmitBody = z.infer<typeof signSubmitBody>;
export const signSubmitResultSchema = z.object({ status: z.number(), status_name: z.string(), signed_at: z.string() });

/** POST /api/contract/verify (public, multipart {file}): is this an unchanged archived contract of this platform? */
export const contractVerifySchema = z.object({
  /** 1 the signature is valid and covers the whole file, and the file is an archived contract here */
  is_valid: z.number(),
  /** 1 the file's SHA-256 is one this platform archived */
  is_known: z.number(),
  contract_no: z.string(),
  company_name: z.string(),
  sealed_at: z.string(),
  signer_subject: z.string(),
  message: z.string(),
});
export type ContractVerify = z.infer<typeof contractVerifySchema>;
export * from './contract-amount';
export * from './contract-credit-code';
