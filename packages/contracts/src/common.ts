import { z } from 'zod';
// Chinese messages for zod's own checks, installed wherever contracts load.
import './zod-messages';
import { ERRORS } from './errors';

/** SPEC §9 constants shared by server and web. */
export const LIMITS = {
  requestTimeoutMs: 18_000,
  /** SPEC §9: a lazily loaded page (its JS chunk) that has not arrived after this fails with a message */
  chunkLoadTimeoutMs: 120_000,
  buttonLockMs: 2_000,
  pageSizeOptions: [10, 20, 30, 40],
  staffPageSize: 100,
  maxUploadFiles: 5,
  maxUploadBytes: 20 * 1024 * 1024,
  sessionIdleSeconds: 24 * 60 * 60,
  /** a session ends this long after its login, however active (issue 11) */
  sessionMaxAgeSeconds: 7 * 24 * 60 * 60,
  /** SPEC §9 cookie expiry 1 day: the `token` cookie's Max-Age and the web's stored token end this long after login */
  tokenCookieSeconds: 24 * 60 * 60,
  loginFailWindowSeconds: 15 * 60,
  /** failed logins of one account (from any address) within the window before it is throttled */
  loginFailMax: 5,
  /** failed logins from one address (across accounts: password spraying) within the window */
  loginFailMaxPerAddress: 30,
} as const;

/** SPEC §9 action state: 可用(0) / 禁用(1). */
export const ACTION_STATE = { enabled: 0, disabled: 1 } as const;
export const actionStateSchema = z.union([z.literal(0), z.literal(1)]);
export const ACTION_STATE_LABEL: Record<number, string> = { 0: '可用', 1: '禁用' };

export const SEX_LABEL: Record<number, string> = { 1: '男', 2: '女' };
export const MERCHANT_TYPE_LABEL: Record<number, string> = { 1: '普通账号', 2: '商户号' };
/** SPEC §9 enumerations: the WeChat binding (userInfo.isBindWeiXin) */
export const WEIXIN_BIND_LABEL: Record<number, string> = { 0: '未绑定', 1: '已绑定' };

// ---------- building blocks every contract uses for what reaches the database ----------

/** PostgreSQL `integer` (int4): ids, counts and codes beyond it are refused before a query runs. */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;
/** An integer that fits a PostgreSQL `integer` column. */
export const int4 = () => z.number().int().min(INT4_MIN).max(INT4_MAX);
/** PostgreSQL `smallint` (int2): the codes and flags stored as small numbers (states, types, sides). */
export const INT2_MAX = 32_767;
export const int2 = () =>
  z
    .number()
    .int()
    .min(-INT2_MAX - 1)
    .max(INT2_MAX);
/** A row id: a positive int4. */
export const zId = () => z.number().int().positive().max(INT4_MAX);
/** A count, an index or an optional id: 0 … int4 max. */
export const zUint = () => z.number().int().min(0).max(INT4_MAX);
/** A query-string id (`?cmCtid=12`): coerced, then bounded like zId. */
export const qId = () => z.coerce.number().int().positive().max(INT4_MAX);

/**
 * PostgreSQL refuses NUL (U+0000) in text and a UTF-16 lone surrogate cannot be encoded as UTF-8:
 * such text is refused with a message instead of failing in the database.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSTORABLE_TEXT_MSG = ERRORS.INPUT_UNSTORABLE_TEXT.msg;
export const isStorableText = (s: string) => !UNSTORABLE_TEXT.test(s);
/** Text that PostgreSQL can store (no NUL, no lone surrogate). */
export const zText = () => z.string().refine(isStorableText, UNSTORABLE_TEXT_MSG);

/** Query-string numbers arrive as strings; empty strings mean "not given". */
export const qNum = z.preprocess((v) => (v === '' || v === undefined || v === null ? undefined : Number(v)), int4().optional());

/** A query-string code or flag filter (actionState=1): bounded like the smallint column it filters. */
export const qCode = z.preprocess((v) => (v === '' || v === undefined || v === null ? undefined : Number(v)), int2().optional());

export const pageQuery = z.object({
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1)),
  limit: z.preprocess((v) => (v === '' || v === undefined ? 20 : Number(v)), z.number().int().min(1).max(500).default(20)),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idBody = z.object({ id: zId() });

/** Envelope of every JSON answer (DESIGN §4). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number(), msg: z.string(), data });
export const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), count: z.number() });
export const okEnvelope = envelope(z.null());
/** `data: { count }`: how many rows a batch call changed. */
export const countEnvelope = envelope(z.object({ count: z.number() }));
/** `data: { jobId }`: a background job was started (poll GET customer/job). */
export const jobIdEnvelope = envelope(z.object({ jobId: z.string() }));
/** `data: { <key>: id }`: the id of the row a create call made. */
export const idEnvelope = <K extends string>(key: K) => envelope(z.object({ [key]: z.number() } as { [P in K]: z.ZodNumber }));
/** A file download (xlsx, recording, upload): the body is the file itself, never the envelope. */
export const fileResponse = z
  .custom<Uint8Array | { pipe: unknown }>((v) => v instanceof Uint8Array || (typeof v === 'object' && v !== null && 'pipe' in v))
  .meta({ type: 'string', format: 'binary', description: '文件内容' });

export type Envelope<T> = { code: number; msg: string; data: T };
export type ListData<T> = { list: T[]; count: number };

/** GET /api/health. */
export const healthSchema = z.object({ status: z.string(), database: z.string(), telephony: z.string() });
/** GET /api/health/ready: each check (database, redis, line) and whether the instance may take traffic. */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'fail']),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string(), ms: z.number() })),
});
export type Readiness = z.infer<typeof readinessSchema>;
/** The business clock of the test build (CLOCK_CONTROL=1). */
export const testClockSchema = z.object({ now: z.string(), offsetSeconds: z.number() });

/** Format used for every date-time the API sends (SPEC §9), Asia/Shanghai. */
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
