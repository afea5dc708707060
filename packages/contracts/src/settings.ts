import { z } from 'zod';
import { actionStateSchema, pageQuery, qCode, zId, zUint } from './common';

// ---------- stages (/set/node) ----------
export const stageSchema = z.object({
  cmNid: z.number(),
  name: z.string(),
  sortNum: z.number(),
  actionState: z.number(),
  customerNum: z.number(),
  createTime: z.string(),
});
export type Stage = z.infer<typeof stageSchema>;
export const stageBody = z.object({
  name: z.string().trim().min(1, '请输入阶段名称').max(20, '阶段名称最多20个字符'),
  sortNum: z.number().int().min(0).max(9999).default(0),
});
export const stageEditBody = stageBody.extend({ cmNid: zId(), actionState: actionStateSchema.default(0) });
export type StageBody = z.infer<typeof stageBody>;
export type StageEditBody = z.infer<typeof stageEditBody>;
export const stageListQuery = z.object({ actionState: qCode });

// ---------- labels (/set/label): groups have pid 0, tags have the group's id ----------
export const labelSchema = z.object({
  cmClid: z.number(),
  pid: z.number(),
  name: z.string(),
  sortNum: z.number(),
  actionState: z.number(),
  customerNum: z.number(),
  createTime: z.string(),
});
export type Label = z.infer<typeof labelSchema>;
export const labelGroupSchema = labelSchema.extend({ children: z.array(labelSchema) });
export type LabelGroup = z.infer<typeof labelGroupSchema>;
export const labelBody = z.object({
  pid: zUint().default(0),
  name: z.string().trim().min(1, '请输入标签名称').max(20, '标签名称最多20个字符'),
  sortNum: z.number().int().min(0).max(9999).default(0),
});
export const labelEditBody = labelBody.extend({ cmClid: zId(), actionState: actionStateSchema.default(0) });
export type LabelBody = z.infer<typeof labelBody>;
export type LabelEditBody = z.infer<typeof labelEditBody>;
export const labelListQuery = pageQuery.extend({ actionState: qCode });
/** POST label: set the tags of customers (replaces their tags). */
export const customerLabelBody = z.object({
  cmCtids: z.array(zId()).min(1, '请选择客户').max(1000),
  cmClids: z.array(zId()).max(50),
  /** 'set' replaces (default, SPEC), 'add' keeps existing tags (batch action) */
  mode: z.enum(['set', 'add']).default('set'),
});
export type CustomerLabelBody = z.infer<typeof customerLabelBody>;
