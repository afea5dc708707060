import { z } from 'zod';
import { GRADES } from './aibot';
import { calltaskCreateBody, calltaskEditBody, calltaskRowSchema } from './calltasks';
import { zId, zText } from './common';

/**
 * AI outbound (AI外呼, application 3, issue 16): a call task with mode 2 whose calls a voice bot
 * works with a published 话术 flow, up to `maxLines` at once; the task's agents (cmSidInfo, may be
 * empty) take the calls the flow hands over (转人工). Every call gets a grade (A–E), a score and a
 * transcript; customers graded in `assignGrades` are created or updated in the CRM, assigned by
 * `assignRule`, with a follow record of type 4 (AI跟进) that opens the AI call detail.
 * AI reception (AI接待, application 4): an inbound number given to a flow within its hours.
 */
export const CALLTASK_MODE_AI = 2;
export const AICALL_LIMITS = { maxLines: 30, pageSize: 20, callsPageSize: 20 } as const;

/** Who gets the A/B customers: the task's creator, the task's agents in turn, or nobody (the company's 公海 rules apply). */
export const ASSIGN_RULES = ['creator', 'agents', 'none'] as const;
export type AssignRule = (typeof ASSIGN_RULES)[number];
export const ASSIGN_RULE_LABEL: Record<AssignRule, string> = {
  creator: '分配给任务创建人',
  agents: '轮流分配给任务坐席',
  none: '不分配（仅记录）',
};

const aiFields = {
  /** the 话术 flow; the task calls with its last published version at each call's start */
  flowId: zId(),
  maxLines: z
    .number({ message: '请输入并发线路数' })
    .int('并发线路数须为整数')
    .min(1, `并发线路数为1-${AICALL_LIMITS.maxLines}`)
    .max(AICALL_LIMITS.maxLines, `并发线路数为1-${AICALL_LIMITS.maxLines}`)
    .default(5),
  assignGrades: z
    .array(z.enum(['A', 'B', 'C', 'D']))
    .max(4)
    .refine((g) => new Set(g).size === g.length, '意向等级不能重复')
    .default(['A', 'B']),
  assignRule: z.enum(ASSIGN_RULES).default('creator'),
  /** the agents who take 转人工 (may be empty when the flow never hands over) */
  cmSidInfo: z.array(zId()).max(200, '最多选择200个坐席').default([]),
};

export const aicallCreateBody = z
  .object({
    ...calltaskCreateBody.shape,
    ...aiFields,
    /** AI tasks: a reached number without a customer becomes a customer when its grade is assigned (default on) */
    customerInfoState: z.union([z.literal(0), z.literal(1)]).default(1),
  })
  .refine(
    (b) => [b.customerWhere, b.cmCtids, b.numbers].filter((x) => x !== undefined).length === 1,
    '请选择客户来源（列表筛选、所选客户或导入号码其一）',
  );
export type AicallCreateBody = z.infer<typeof aicallCreateBody>;
export const aicallEditBody = z.object({ ...calltaskEditBody.shape, ...aiFields });
export type AicallEditBody = z.infer<typeof aicallEditBody>;

/**
 * Grades counted over a task's (or a filter's) AI calls; `failed`: calls that failed for a system
 * reason (end 'error', 系统异常: no grade), counted apart from the split (issue 22).
 */
export const gradeCounts = z.object({
  A: z.number(),
  B: z.number(),
  C: z.number(),
  D: z.number(),
  E: z.number(),
  failed: z.number(),
});
export type GradeCounts = z.infer<typeof gradeCounts>;

/** An AI task in the list: the seat-task row with its flow, lines and results. */
export const aicallRowSchema = calltaskRowSchema.extend({
  flowId: z.number(),
  flowName: z.string(),
  maxLines: z.number(),
  assignGrades: z.array(z.string()),
  assignRule: z.string(),
  /** bot calls in progress now */
  linesInUse: z.number(),
  grades: gradeCounts,
});
export type AicallRow = z.infer<typeof aicallRowSchema>;

/** The task report: connect rate, average talk, grade split, and per-day figures for the charts. */
export const aicallReportSchema = z.object({
  cmStid: z.number(),
  called: z.number(),
  connected: z.number(),
  /** connected / called in %, one decimal */
  connectRate: z.number(),
  /** average seconds of the connected calls, one decimal */
  avgDuration: z.number(),
  avgRounds: z.number(),
  transferred: z.number(),
  grades: gradeCounts,
  days: z.array(z.object({ day: z.string(), called: z.number(), connected: z.number(), a: z.number(), b: z.number() })),
});
export type AicallReport = z.infer<typeof aicallReportSchema>;

/**
 * How an AI call ended; 'message': AI接待's 转人工 found no agent and the caller left a message (留言);
 * 'error': the call failed for a system reason (the bot could not speak or hear, the line failed):
 * no grade (AI_CALL_NO_GRADE), no score, nothing in the CRM, counted apart (issue 22).
 */
export const AI_CALL_END = [
  'not_connected',
  'hangup',
  'end',
  'transfer',
  'customer_hangup',
  'max_rounds',
  'error',
  'message',
] as const;
export type AiCallEnd = (typeof AI_CALL_END)[number];
/** The end of an AI call that failed for a system reason. */
export const AI_CALL_FAILED: AiCallEnd = 'error';
/** The grade of a failed AI call (none). */
export const AI_CALL_NO_GRADE = '';
export const AI_CALL_END_LABEL: Record<AiCallEnd, string> = {
  not_connected: '未接通',
  hangup: '机器人挂机',
  end: '流程结束',
  transfer: '转人工',
  customer_hangup: '客户挂机',
  max_rounds: '超过最大轮次',
  error: '系统异常',
  message: '留言',
};

/**
 * A message left on an AI接待 number (msg_type 23): pushed to the number's agents when the call is
 * stored. The caller's number is always masked here (the detail it opens applies the viewer's policy).
 */
export const AI_MESSAGE_MSG_TYPE = 23;
export type AiMessageNotice = { aiCallId: number; number: string; phone: string; text: string };

/** AI calls: of a task (cmStid), or of AI reception (source 2); filters by grade, number, time. */
export const aicallCallsBody = z.object({
  page: zId().default(1),
  limit: z.number().int().min(1).max(100).default(AICALL_LIMITS.callsPageSize),
  cmStid: zId().optional(),
  /** 1 AI外呼, 2 AI接待 */
  source: z.union([z.literal(1), z.literal(2)]).default(1),
  grade: z.enum(GRADES).optional(),
  phone: zText().trim().max(20).optional(),
  start: z.string().max(19).optional(),
  end: z.string().max(19).optional(),
  /** how the calls ended (e.g. 'message': AI接待's 留言) */
  callEnd: z.enum(AI_CALL_END).optional(),
});
export type AicallCallsBody = z.infer<typeof aicallCallsBody>;

/** A row of the AI call lists (the number masked per the viewer through the customer-access policy). */
export const aicallCallRowSchema = z.object({
  id: z.number(),
  cmStid: z.number(),
  taskName: z.string(),
  name: z.string(),
  phone: z.string(),
  encryptPhone: z.number(),
  cmCtid: z.number(),
  call_starttime: z.string(),
  duration_time: z.number(),
  grade: z.string(),
  score: z.number(),
  dialogue_num: z.number(),
  rounds: z.number(),
  end: z.string(),
  endName: z.string(),
  flowName: z.string(),
  flowVersion: z.number(),
});
export type AicallCallRow = z.infer<typeof aicallCallRowSchema>;

/**
 * SPEC §3 AI call info (the AI call detail dialog): name, phone, call_starttime, duration_time,
 * score, dialogue_num, and the call list of turns {isAi, callFont, speech_path}: speech_path plays
 * that turn's clip (the bot's prompt, or the customer's utterance cut from the call by voice
 * activity), `recording` the whole call.
 */
export const aicallInfoSchema = aicallCallRowSchema.extend({
  recording: z.string(),
  counters: z.record(z.string(), z.unknown()),
  transferTo: z.string(),
  call: z.array(
    z.object({
      isAi: z.number(),
      callFont: z.string(),
      speech_path: z.string(),
      /** ms from the answer */
      at: z.number(),
      /** the flow node's key (n3 …) */
      node: z.string(),
      /** the node's name in the call's flow version (开场白 …); the key when the node is gone */
      node_name: z.string(),
      /** how the engine read a customer turn (命中分支 肯定 / 知识库 / 未识别 …), '' for the bot */
      match: z.string(),
    }),
  ),
});
export type AicallInfo = z.infer<typeof aicallInfoSchema>;

/**
 * 转人工 (issue 16): what the bot and the customer said so far, on the screen of the agent the call
 * is handed to (aicall/transcript, and pushed on his call socket as msg_type 9 while his phone
 * rings). `isLive` 1 while the bot call runs (the turns grow), 0 once it is stored.
 */
/** `uuid`: the call's uuid, as the agent's call frames name it */
export const aicallTranscriptQuery = z.object({ uuid: z.string().min(1).max(64) });
export const aicallTranscriptTurnSchema = z.object({
  isAi: z.number(),
  text: z.string(),
  /** the flow node's name (开场, 介绍 …) */
  node: z.string(),
  /** how the engine read a customer turn (肯定 / 知识库问题 / 未识别 …), '' for the bot */
  match: z.string(),
  /** ms from the answer */
  at: z.number(),
});
export const aicallTranscriptSchema = z.object({
  callUuid: z.string(),
  flowName: z.string(),
  /** the grade so far (A–D) and its score */
  grade: z.string(),
  score: z.number(),
  isLive: z.number(),
  turns: z.array(aicallTranscriptTurnSchema),
});
export type AicallTranscript = z.infer<typeof aicallTranscriptSchema>;
export type AicallTranscriptTurn = z.infer<typeof aicallTranscriptTurnSchema>;

// ---------- AI reception (AI接待) ----------

/** A number (the called number of inbound calls) given to a flow within hours (Beijing time). */
/** Whether the bot can speak on this server (issue 23): AI外呼 and AI接待 warn and refuse (116037) when not. */
export const aicallSpeechSchema = z.object({
  isAvailable: z.boolean(),
  /** espeak-wasm, espeak or http */
  provider: z.string(),
});
export type AicallSpeech = z.infer<typeof aicallSpeechSchema>;

export const aireceptionSettingSchema = z.object({
  id: z.number(),
  number: z.string(),
  flowId: z.number(),
  flowName: z.string(),
  from: z.string(),
  to: z.string(),
  /** agents who take 转人工 */
  cmSidInfo: z.array(z.number()),
  isEnabled: z.number(),
});
export type AireceptionSetting = z.infer<typeof aireceptionSettingSchema>;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
export const aireceptionSaveBody = z.object({
  id: zId().optional(),
  number: zText()
    .trim()
    .regex(/^\d{3,20}$/, '请输入正确的接待号码'),
  flowId: zId(),
  from: z.string().regex(HHMM, '时间格式为HH:mm'),
  to: z.string().regex(HHMM, '时间格式为HH:mm'),
  cmSidInfo: z.array(zId()).max(200).default([]),
  isEnabled: z.union([z.literal(0), z.literal(1)]).default(1),
});
export type AireceptionSaveBody = z.infer<typeof aireceptionSaveBody>;

/** 模拟来电 (sim line only): a caller rings a reception number, so AI接待 can be tried without a phone. */
export const aireceptionSimCallBody = z.object({
  id: zId(),
  callerNumber: zText()
    .trim()
    .regex(/^\d{4,20}$/, '请正确输入来电号码'),
});
export type AireceptionSimCallBody = z.infer<typeof aireceptionSimCallBody>;
