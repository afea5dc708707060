/** GET customer/info: one customer with the caller's detail-drawer flags (SPEC §6) and the company's module switches. */
import { z } from 'zod';
import { type CustomerRow, customerRowSchema } from './customer-rows';
import { type CompanyModules, companyModulesSchema } from './org';

/** SPEC §6 detail-drawer flags; each gates a tab or an action. */
export const DETAIL_FLAG_KEYS = [
  'cOrder',
  'cMoney',
  'cReceipt',
  'edit',
  'discard',
  'basic',
  'phone',
  'follow',
  'order',
  'receipt',
  'work',
] as const;
export type DetailFlag = (typeof DETAIL_FLAG_KEYS)[number];
export type DetailFlags = Record<DetailFlag, 0 | 1>;
const flag01 = z.union([z.literal(0), z.literal(1)]);
export const detailFlagsSchema = z.object(
  Object.fromEntries(DETAIL_FLAG_KEYS.map((k) => [k, flag01])) as Record<DetailFlag, typeof flag01>,
);
/** GET customer/info: one customer and the caller's detail-drawer flags (SPEC §6). */
export const customerDetailSchema = customerRowSchema.extend({
  detailFlags: detailFlagsSchema,
  /** the company's module switches: a switched-off module's tab shows its SPEC alert (issue 14) */
  modules: companyModulesSchema,
  /** a pool customer its former owner (the caller) may not claim back before this time (the pool's cooldown), else '' */
  claimBlockedUntil: z.string(),
});

/** GET info: one customer and the caller's detail-drawer flags (SPEC §6). */
export type CustomerDetail = CustomerRow & {
  detailFlags: DetailFlags;
  modules: CompanyModules;
  /** a pool customer its former owner (the caller) may not claim back before this time, else '' (issue 23) */
  claimBlockedUntil: string;
};
