import { z } from 'zod';

/** SPEC §3 Strategy; 0 limits display as 不限制 (SPEC §9). */
export const strategySchema = z.object({
  recycleRemind: z.number(),
  maxCustomer: z.number(),
  mustCustomerName: z.number(),
  repeatCustomerName: z.number(),
  seaPhoneEncryp: z.number(),
  phoneEncryp: z.number(),
  decryptPhoneNum: z.number(),
});
export type Strategy = z.infer<typeof strategySchema>;

const flag = z.union([z.literal(0), z.literal(1)]);
/** SPEC §5: maxCustomer and decryptPhoneNum arrive as numbers (the web converts them). */
export const strategySetBody = z.object({
  recycleRemind: z.coerce.number().int().min(0, '提醒天数不能小于0').max(365, '提醒天数不能超过365'),
  maxCustomer: z.coerce.number().int().min(0, '客户上限不能小于0').max(1_000_000, '客户上限不能超过1000000'),
  mustCustomerName: flag,
  repeatCustomerName: flag,
  seaPhoneEncryp: flag,
  phoneEncryp: flag,
  decryptPhoneNum: z.coerce.number().int().min(0, '每日查看次数不能小于0').max(100_000, '每日查看次数不能超过100000'),
});
export type StrategySetBody = z.infer<typeof strategySetBody>;
