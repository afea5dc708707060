import { z } from 'zod';
import { INT4_MAX, qCode, qNum, zId } from './common';

/** A blacklist file's state: 0 in force, 1 switched off (its numbers are not checked). */
export const BLACK_FILE_STATE = { active: 0, disabled: 1 } as const;
export const BLACK_FILE_STATE_LABEL: Record<number, string> = { 0: '启用', 1: '停用' };

export const BLACK_LIMITS = { name: 30, remark: 50, maxNumbersPerFile: 200_000, checkMaxNumbers: 200_000, pageSize: 20 } as const;

const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1));
const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? BLACK_LIMITS.pageSize : Number(v)),
  z.number().int().min(1).max(200).default(BLACK_LIMITS.pageSize),
);

/** GET /api/frontend/black/file/list */
export const blackFileListQuery = z.object({
  name: z.string().max(BLACK_LIMITS.name).optional(),
  dmState: qCode,
  /** 'YYYY-MM-DD[ HH:mm:ss]' */
  createStartTime: z.string().max(19).optional(),
  createEndTime: z.string().max(19).optional(),
  page,
  limit,
});
export type BlackFileListQuery = z.infer<typeof blackFileListQuery>;

export const blackFileSchema = z.object({
  cmBfid: z.number(),
  name: z.string(),
  dmState: z.number(),
  /** numbers in the file */
  numberCount: z.number(),
  /** lines of the imported file that were not phone numbers */
  invalidCount: z.number(),
  cmSidName: z.string(),
  createTime: z.string(),
});
export type BlackFile = z.infer<typeof blackFileSchema>;

/**
 * POST /api/frontend/black/file/create: import a .xlsx or .txt of numbers already uploaded
 * through /api/frontend/upload/file (fileId = its id). xlsx: every cell of the first sheet;
 * txt: one number per line (commas and spaces also separate).
 */
export const blackFileCreateBody = z.object({
  name: z.string().trim().min(1, '请输入名称').max(BLACK_LIMITS.name, `名称最多${BLACK_LIMITS.name}个字符`),
  fileId: z.number().int().positive({ message: '请上传号码文件' }).max(INT4_MAX),
});
export type BlackFileCreateBody = z.infer<typeof blackFileCreateBody>;

/** POST /api/frontend/black/file/edit */
export const blackFileEditBody = z.object({
  cmBfid: zId(),
  name: z.string().trim().min(1, '请输入名称').max(BLACK_LIMITS.name),
  dmState: z.union([z.literal(0), z.literal(1)]),
});
export type BlackFileEditBody = z.infer<typeof blackFileEditBody>;

/** POST /api/frontend/black/file/del */
export const blackFileDelBody = z.object({ cmBfid: zId() });

/** GET /api/frontend/black/number/list: numbers of a file (cmBfid) or the manual entries (cmBfid 0 / absent). */
export const blackNumberListQuery = z.object({ cmBfid: qNum, phone: z.string().max(20).optional(), page, limit });
export type BlackNumberListQuery = z.infer<typeof blackNumberListQuery>;

export const blackNumberSchema = z.object({
  id: z.number(),
  cmBfid: z.number(),
  phone: z.string(),
  remark: z.string(),
  cmSidName: z.string(),
  createTime: z.string(),
});
export type BlackNumber = z.infer<typeof blackNumberSchema>;

/** POST /api/frontend/black/number/create: a manual entry. */
export const blackNumberCreateBody = z.object({
  phone: z.string().trim().min(1, '请输入电话号码').max(20, '请输入正确的电话号码'),
  remark: z.string().trim().max(BLACK_LIMITS.remark).default(''),
});
export type BlackNumberCreateBody = z.infer<typeof blackNumberCreateBody>;

/** POST /api/frontend/black/number/del: manual entries (or single numbers of a file). */
export const blackNumberDelBody = z.object({ ids: z.array(zId()).min(1).max(1000) });

/**
 * POST /api/frontend/black/check (/call/blackcheck): filter a number list against the
 * blacklist. Either an uploaded .xlsx/.txt (fileId) or typed numbers (one per line).
 * The result file (.xlsx, sheets 可拨打号码 / 黑名单号码 / 无效号码) downloads from `url`.
 */
export const blackCheckBody = z
  .object({ fileId: zId().optional(), numbers: z.string().max(2_000_000).optional() })
  .refine((b) => b.fileId !== undefined || (b.numbers ?? '').trim() !== '', { message: '请上传号码文件或输入号码' });
export type BlackCheckBody = z.infer<typeof blackCheckBody>;

export const blackCheckResultSchema = z.object({
  total: z.number(),
  cleanCount: z.number(),
  blackCount: z.number(),
  invalidCount: z.number(),
  /** the first 20 blacklisted numbers found */
  blackSample: z.array(z.string()),
  url: z.string(),
});
export type BlackCheckResult = z.infer<typeof blackCheckResultSchema>;
