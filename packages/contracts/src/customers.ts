/**
 * Customer contracts: the customer form bodies here; templates, rows, detail, lists and import in
 * their own files, re-exported so `./customers` keeps offering every customer name.
 */
import { z } from 'zod';
import { int4, zId } from './common';
import { CONTROL_LIMITS, templateControlsInput } from './customer-templates';

export * from './customer-detail';
export * from './customer-import';
export * from './customer-lists';
export * from './customer-rows';
export * from './customer-templates';

/** SPEC §3 Customer form payload. */
export const customerCreateBody = z.object({
  cmAtid: zId().optional(),
  name: z.string().trim().max(CONTROL_LIMITS.customerName, '客户名称最多50个字符').default(''),
  templateControls: templateControlsInput,
});
export type CustomerCreateBody = z.infer<typeof customerCreateBody>;
export const customerEditBody = customerCreateBody.extend({ cmCtid: zId(), id: int4().optional() });
export type CustomerEditBody = z.infer<typeof customerEditBody>;
export const customerIdsBody = z.object({ cmCtids: z.array(zId()).min(1, '请选择客户').max(1000) });
export const customerBatchEditBody = customerIdsBody.extend({ templateControls: templateControlsInput });
