import { z } from 'zod';

/** SPEC §9 constants shared by server and web. */
export const LIMITS = {
  requestTimeoutMs: 18_000,
  buttonLockMs: 2_000,
  pageSizeOptions: [10, 20, 30, 40],
  staffPageSize: 100,
  maxUploadFiles: 5,
  maxUploadBytes: 20 * 1024 * 1024,
  sessionIdleSeconds: 24 * 60 * 60,
  loginFailWindowSeconds: 15 * 60,
  loginFailMax: 5,
} as const;

/** SPEC §9 action state: 可用(0) / 禁用(1). */
export const ACTION_STATE = { enabled: 0, disabled: 1 } as const;
export const actionStateSchema = z.union([z.literal(0), z.literal(1)]);
export const ACTION_STATE_LABEL: Record<number, string> = { 0: '可用', 1: '禁用' };

export const SEX_LABEL: Record<number, string> = { 1: '男', 2: '女' };
export const MERCHANT_TYPE_LABEL: Record<number, string> = { 1: '普通账号', 2: '商户号' };

/** Query-string numbers arrive as strings; empty strings mean "not given". */
export const qNum = z.preprocess(
  (v) => (v === '' || v === undefined || v === null ? undefined : Number(v)),
  z.number().int().optional(),
);

export const pageQuery = z.object({
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), z.number().int().min(1).default(1)),
  limit: z.preprocess((v) => (v === '' || v === undefined ? 20 : Number(v)), z.number().int().min(1).max(500).default(20)),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idBody = z.object({ id: z.number().int().positive() });

/** Envelope of every JSON answer (DESIGN §4). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number(), msg: z.string(), data });
export const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), count: z.number() });
export const okEnvelope = envelope(z.null());

export type Envelope<T> = { code: number; msg: string; data: T };
export type ListData<T> = { list: T[]; count: number };

/** Format used for every date-time the API sends (SPEC §9), Asia/Shanghai. */
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
