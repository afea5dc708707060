import { z } from 'zod';
import { zText } from './common';
import { dialNumberRefusal } from './rules';

// 外呼设置 (issue 12): a company's rules for the calls the server places (caller number, calling
// hours, how an agent is joined to a customer leg) and the admin's 线路测试 (a test call that plays
// a synthesized prompt). The web's form rules run these same schemas.

/** How an agent is joined to a customer leg (telephony/control.ts BridgeMode). */
export const BRIDGE_MODES = ['3pcc', 'forward'] as const;
export type BridgeModeValue = (typeof BRIDGE_MODES)[number];
export const BRIDGE_MODE_LABEL: Record<BridgeModeValue, string> = {
  '3pcc': '媒体服务器直连（推荐）',
  forward: '由系统转发语音',
};

export const CALLER_NUMBER_MSG = '请输入正确的外显号码';
export const CALL_HOURS_MSG = '请选择外呼时段';
export const CALL_HOURS_SAME_MSG = '外呼时段的开始与结束时间不能相同';
export const TEST_PROMPT_MAX = 100;

/** 外显号码: 4–20 digits, or empty (the line's own number). */
export const callerNumberSchema = z
  .string()
  .trim()
  .refine((v) => v === '' || /^\d{4,20}$/.test(v), CALLER_NUMBER_MSG);

/** HH:mm, Beijing time; `to` may be 24:00 (until midnight, so 00:00–24:00 is all day). */
export const hhmmSchema = z.string({ error: CALL_HOURS_MSG }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, CALL_HOURS_MSG);
const hhmmEndSchema = z.string({ error: CALL_HOURS_MSG }).regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, CALL_HOURS_MSG);

/** From inclusive, to exclusive; a window may run past midnight (20:00–02:00), never from = to. */
export const callHoursSchema = z
  .object({ from: hhmmSchema, to: hhmmEndSchema }, { error: CALL_HOURS_MSG })
  .refine((h) => h.from !== h.to, { message: CALL_HOURS_SAME_MSG });

export const bridgeModeSchema = z.enum(BRIDGE_MODES, { error: '请选择桥接方式' });

/** Issue 15: per-number caps across the company (0 = no cap) and how long a 禁拨 entry is kept. */
export const COMPLIANCE_LIMITS = { capPer5MinMax: 100, capPerDayMax: 1000, dncRetentionMonthsMax: 120 } as const;
export const COMPLIANCE_DEFAULTS = { manualObeysHours: true, capPer5Min: 3, capPerDay: 5, dncRetentionMonths: 6 } as const;
export const CAP_ORDER_MSG = '5分钟内的呼叫上限不能大于24小时的呼叫上限';

const boundedInt = (max: number, msg: string) => z.number({ error: msg }).int(msg).min(0, msg).max(max, msg);

export const callSettingsSaveBody = z
  .object({
    callerNumber: callerNumberSchema.default(''),
    callHours: callHoursSchema,
    bridgeMode: bridgeModeSchema.default('3pcc'),
    /** agents' manual dials obey the calling hours too */
    manualObeysHours: z.boolean({ error: '请选择人工外呼是否受外呼时段限制' }).default(COMPLIANCE_DEFAULTS.manualObeysHours),
    capPer5Min: boundedInt(
      COMPLIANCE_LIMITS.capPer5MinMax,
      `5分钟内呼叫上限请输入0–${COMPLIANCE_LIMITS.capPer5MinMax}的整数`,
    ).default(COMPLIANCE_DEFAULTS.capPer5Min),
    capPerDay: boundedInt(
      COMPLIANCE_LIMITS.capPerDayMax,
      `24小时内呼叫上限请输入0–${COMPLIANCE_LIMITS.capPerDayMax}的整数`,
    ).default(COMPLIANCE_DEFAULTS.capPerDay),
    dncRetentionMonths: boundedInt(
      COMPLIANCE_LIMITS.dncRetentionMonthsMax,
      `禁拨保留时长请输入0–${COMPLIANCE_LIMITS.dncRetentionMonthsMax}的整数（月）`,
    ).default(COMPLIANCE_DEFAULTS.dncRetentionMonths),
  })
  .refine((b) => b.capPer5Min === 0 || b.capPerDay === 0 || b.capPer5Min <= b.capPerDay, {
    message: CAP_ORDER_MSG,
    path: ['capPer5Min'],
  });
export type CallSettingsSaveBody = z.infer<typeof callSettingsSaveBody>;

export const callSettingsSchema = z.object({
  callerNumber: z.string(),
  callHours: z.object({ from: z.string(), to: z.string() }),
  bridgeMode: z.enum(BRIDGE_MODES),
  manualObeysHours: z.boolean(),
  capPer5Min: z.number(),
  capPerDay: z.number(),
  dncRetentionMonths: z.number(),
  /** the line this server runs (sim: simulated calls; sip: real calls through Kamailio) */
  line: z.enum(['sim', 'sip']),
  /** whether 线路测试 can synthesize its prompt (espeak-ng and sox found at start) */
  isSpeechAvailable: z.boolean(),
});
export type CallSettingsInfo = z.infer<typeof callSettingsSchema>;

// ---------- 线路测试 ----------

export const testCallBody = z.object({
  number: z
    .string({ error: '请输入测试号码' })
    .trim()
    .min(1, '请输入测试号码')
    .max(30, '请正确输入电话号码')
    .refine((v) => dialNumberRefusal(v) === null, '请正确输入电话号码'),
  prompt: zText().trim().min(1, '请输入提示语').max(TEST_PROMPT_MAX, `提示语最多${TEST_PROMPT_MAX}个字`),
});
export type TestCallBody = z.infer<typeof testCallBody>;
export const testCallStarted = z.object({ uuid: z.string() });

export const testCallQuery = z.object({ uuid: z.string().trim().min(1, '请指定测试通话').max(64, '请指定测试通话') });

/** One step of the test call's leg, in order. */
export const testCallEventSchema = z.object({
  kind: z.enum(['created', 'ringing', 'answered', 'playing', 'played', 'digits', 'ended']),
  /** 'YYYY-MM-DD HH:mm:ss' (Beijing time); empty for the keys pressed (their times are not kept) */
  at: z.string(),
  text: z.string(),
});
export type TestCallEvent = z.infer<typeof testCallEventSchema>;

export const TEST_CALL_STATE_LABEL = { calling: '呼叫中', ringing: '振铃中', answered: '已接通', ended: '已结束' } as const;

export const testCallStatusSchema = z.object({
  uuid: z.string(),
  number: z.string(),
  state: z.enum(['calling', 'ringing', 'answered', 'ended']),
  stateName: z.string(),
  digits: z.string(),
  hangupCause: z.string(),
  hangupCauseName: z.string(),
  billsec: z.number(),
  events: z.array(testCallEventSchema),
});
export type TestCallStatus = z.infer<typeof testCallStatusSchema>;
