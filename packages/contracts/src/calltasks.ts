import { z } from 'zod';
import { zId, zText, zUint } from './common';
import { customerListBody } from './customers';

/**
 * Seat tasks (坐席任务, issue 15, SPEC §3 Call task): a manager's list of numbers that his agents
 * work with power dialing (ratio 1: the next number is dialled as soon as an agent is free and
 * his wrap-up time is over), inside the task's calling days and time ranges (Beijing time).
 */
export const CALLTASK_LIMITS = {
  name: 30,
  /** a selection or an imported number list */
  numbers: 20_000,
  /** customers a saved list filter may bring in */
  filterRows: 20_000,
  agents: 200,
  timeRanges: 4,
  redialMinutesMax: 1440,
  attemptsMax: 5,
  wrapUpSecondsMax: 600,
  pageSize: 20,
} as const;

/** The socket message type of a task's progress (SPEC §4: 7). */
export const CALLTASK_MSG_TYPE = 7;

/** A task's lifecycle: 0 未开始, 1 进行中, 2 已暂停, 3 已停止, 4 已完成. */
export const CALLTASK_STATUS = { draft: 0, running: 1, paused: 2, stopped: 3, completed: 4 } as const;
export const CALLTASK_STATUS_LABEL: Record<number, string> = { 0: '未开始', 1: '进行中', 2: '已暂停', 3: '已停止', 4: '已完成' };

/** A task's kind (mode): 0 seat (power dialing per agent), 1 group call (人工群呼), 2 AI task (AI外呼). */
export const CALLTASK_MODE = { seat: 0, group: 1, ai: 2 } as const;
export const TASK_BLACK_FILTER = 1; // blackState 1: blacklisted numbers are skipped at import
export const TASK_MAKES_CUSTOMERS = 1; // customerInfoState 1: a reached number without a customer becomes one

/** A number of a task: 0 待拨打, 1 拨打中, 2 已完成, 3 未接通, 4 已跳过 (黑名单), 5 空号/停机. */
export const TASK_NUMBER_STATE = { pending: 0, dialling: 1, done: 2, failed: 3, skipped: 4, invalid: 5 } as const;
export const TASK_NUMBER_STATE_LABEL: Record<number, string> = {
  0: '待拨打',
  1: '拨打中',
  2: '已完成',
  3: '未接通',
  4: '已跳过',
  5: '空号/停机',
};

/** The agent's outcome of a task call: 1 已接通, 2 拒绝 (禁拨), 3 空号/停机, 4 稍后再拨. */
export const TASK_OUTCOME = { connected: 1, refused: 2, invalid: 3, later: 4 } as const;
export const TASK_OUTCOME_LABEL: Record<number, string> = { 0: '', 1: '已接通', 2: '拒绝', 3: '空号/停机', 4: '稍后再拨' };

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** One calling time range, HH:mm–HH:mm (start before end, within one day). */
export const timeRange = z
  .object({
    start: z.string({ message: '请选择开始时间' }).regex(HHMM, '时间格式为HH:mm'),
    end: z.string({ message: '请选择结束时间' }).regex(HHMM, '时间格式为HH:mm'),
  })
  .refine((r) => minuteOf(r.start) < minuteOf(r.end), '结束时间须晚于开始时间');
export type TimeRange = z.infer<typeof timeRange>;

/** Whether ranges overlap (touching ends, 09:00–12:00 and 12:00–13:00, do not). */
export const rangesOverlap = (ranges: TimeRange[]): boolean => {
  const sorted = [...ranges].sort((a, b) => minuteOf(a.start) - minuteOf(b.start));
  return sorted.some((r, i) => i > 0 && minuteOf(r.start) < minuteOf(sorted[i - 1].end));
};

/**
 * Whether every range lies inside the company's calling hours (外呼设置, from inclusive, to
 * exclusive, `to` may be 24:00, a window may run past midnight): 09:00–21:00 lies inside
 * 08:00–21:00, 09:00–21:01 does not.
 */
export const rangesInsideHours = (ranges: TimeRange[], hours: { from: string; to: string }): boolean => {
  const from = minuteOf(hours.from);
  const to = minuteOf(hours.to);
  return ranges.every((r) => {
    const [start, end] = [minuteOf(r.start), minuteOf(r.end)];
    if (from < to) return start >= from && end <= to;
    return start >= from || end <= to;
  });
};

/** Whether `at` lies in the task's window: a day of `weeks` (1 Monday … 7 Sunday) and a range, Beijing time. */
export const isInTaskWindow = (weeks: number[], ranges: TimeRange[], at: Date): boolean => {
  const beijing = new Date(at.getTime() + 8 * 3_600_000);
  const weekday = beijing.getUTCDay() === 0 ? 7 : beijing.getUTCDay();
  if (!weeks.includes(weekday)) return false;
  const minute = beijing.getUTCHours() * 60 + beijing.getUTCMinutes();
  return ranges.some((r) => minute >= minuteOf(r.start) && minute < minuteOf(r.end));
};

/** customerWhere: a saved filter of the 我的客户 (mine) or 分配客户 (allot) list. */
export const customerWhereSchema = z.object({
  kind: z.enum(['mine', 'allot'], { message: '请选择客户列表' }),
  filter: customerListBody.omit({ page: true, limit: true, orderParams: true, orderSort: true }),
});
export type CustomerWhere = z.infer<typeof customerWhereSchema>;

const phoneText = zText().trim().max(30, '号码最多30个字符');

const taskFields = z.object({
  name: zText().trim().min(1, '请输入任务名称').max(CALLTASK_LIMITS.name, `任务名称最多${CALLTASK_LIMITS.name}个字符`),
  /** the customers: a saved list filter, a selection, or an imported list of numbers (exactly one) */
  customerWhere: customerWhereSchema.optional(),
  cmCtids: z
    .array(zId())
    .min(1, '请选择客户')
    .max(CALLTASK_LIMITS.numbers, `最多选择${CALLTASK_LIMITS.numbers}个客户`)
    .optional(),
  numbers: z
    .array(phoneText)
    .min(1, '请导入号码')
    .max(CALLTASK_LIMITS.numbers, `最多导入${CALLTASK_LIMITS.numbers}个号码`)
    .optional(),
  /** 1: a number without a customer becomes a customer of the agent who reaches it */
  customerInfoState: z.union([z.literal(0), z.literal(1)]).default(0),
  /** the agents (cmSidInfo) */
  cmSidInfo: z.array(zId()).min(1, '请选择坐席').max(CALLTASK_LIMITS.agents, `最多选择${CALLTASK_LIMITS.agents}个坐席`),
  /** calling days, 1 Monday … 7 Sunday */
  cmWeeks: z
    .array(z.number().int().min(1, '外呼日期不正确').max(7, '外呼日期不正确'))
    .min(1, '请选择外呼日期')
    .max(7, '外呼日期不正确')
    .refine((w) => new Set(w).size === w.length, '外呼日期不能重复'),
  cmTimes: z
    .array(timeRange)
    .min(1, '请添加外呼时段')
    .max(CALLTASK_LIMITS.timeRanges, `最多${CALLTASK_LIMITS.timeRanges}个外呼时段`)
    .refine((r) => !rangesOverlap(r), '外呼时段不能重叠'),
  /** 1: blacklisted numbers are left out at import */
  blackState: z.union([z.literal(0), z.literal(1)]).default(1),
  /** unanswered or busy: again after this many minutes */
  redialMinutes: z
    .number({ message: '请输入重拨间隔' })
    .int('重拨间隔须为整数')
    .min(1, '重拨间隔为1-1440分钟')
    .max(CALLTASK_LIMITS.redialMinutesMax, '重拨间隔为1-1440分钟')
    .default(30),
  /** attempts per number, the first call included */
  maxAttempts: z
    .number({ message: '请输入最多拨打次数' })
    .int('最多拨打次数须为整数')
    .min(1, '最多拨打次数为1-5次')
    .max(CALLTASK_LIMITS.attemptsMax, '最多拨打次数为1-5次')
    .default(1),
  /** seconds after a call before the agent's next call */
  wrapUpSeconds: z
    .number({ message: '请输入整理时间' })
    .int('整理时间须为整数')
    .min(0, '整理时间为0-600秒')
    .max(CALLTASK_LIMITS.wrapUpSecondsMax, '整理时间为0-600秒')
    .default(10),
  /** not connected after the last attempt: the customer goes to this pool (0 = stays) with the reason */
  failPoolId: zUint().default(0),
  failReasonId: zUint().default(0),
});

const oneSource = (b: { customerWhere?: unknown; cmCtids?: unknown; numbers?: unknown }) =>
  [b.customerWhere, b.cmCtids, b.numbers].filter((x) => x !== undefined).length === 1;

export const calltaskCreateBody = taskFields.refine(oneSource, '请选择客户来源（列表筛选、所选客户或导入号码其一）');
export type CalltaskCreateBody = z.infer<typeof calltaskCreateBody>;

/** edit: the settings of a task not started or paused; its numbers stay. */
export const calltaskEditBody = taskFields
  .omit({ customerWhere: true, cmCtids: true, numbers: true, customerInfoState: true, blackState: true })
  .extend({ cmStid: zId() });
export type CalltaskEditBody = z.infer<typeof calltaskEditBody>;

export const calltaskIdBody = z.object({ cmStid: zId() });
/** 导入号码 from an uploaded .xlsx (every cell of the first sheet) or .txt: its entries in file order, unchecked (the form checks them as typed lines). */
export const calltaskNumberFileBody = z.object({ fileId: zId() });
export const calltaskNumberFileSchema = z.object({ lines: z.array(z.string()) });
export type CalltaskIdBody = z.infer<typeof calltaskIdBody>;
export const calltaskDelBody = calltaskIdBody.extend({
  confirm: z.literal(1, { message: '请确认删除' }),
});

export const calltaskListBody = z.object({
  page: zId().default(1),
  limit: z.number().int().min(1).max(100).default(CALLTASK_LIMITS.pageSize),
  name: zText().trim().max(CALLTASK_LIMITS.name).optional(),
  status: z.number().int().min(0).max(4).optional(),
  /** 1: only tasks the caller works as an agent */
  isMine: z.union([z.literal(0), z.literal(1)]).default(0),
});
export type CalltaskListBody = z.infer<typeof calltaskListBody>;

export const calltaskNumbersBody = calltaskIdBody.extend({
  page: zId().default(1),
  limit: z.number().int().min(1).max(100).default(CALLTASK_LIMITS.pageSize),
  state: z.number().int().min(0).max(5).optional(),
});
export type CalltaskNumbersBody = z.infer<typeof calltaskNumbersBody>;

export const calltaskOutcomeBody = calltaskIdBody.extend({
  uuid: z.string().trim().min(1, '请选择通话').max(64),
  outcome: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { message: '请选择通话结果' }),
});
export type CalltaskOutcomeBody = z.infer<typeof calltaskOutcomeBody>;

/** The counters of a task or an agent: every figure counted from the task's call records. */
export const calltaskCounters = z.object({
  totalNum: z.number(),
  zcallNum: z.number(),
  zcallWnum: z.number(),
  zcallBnum: z.number(),
  zcallCnum: z.number(),
  zcallBillsec: z.number(),
});
export type CalltaskCounters = z.infer<typeof calltaskCounters>;

/**
 * Why a running task does not dial now and when it will (issue 23), computed on the server from the
 * task's days and time ranges, the company's calling hours and the business clock: reason window
 * (outside the task's 外呼时段), hours (outside the company's), numbers (every number left waits for
 * its redial interval or call cap), never (the task's ranges and the company's hours do not meet);
 * text as shown (不在外呼时段，下次拨号 周一 09:00); nextDialAt Beijing time ('' for never).
 */
export const TASK_WAIT_REASONS = ['window', 'hours', 'numbers', 'never'] as const;
export const taskWaitSchema = z.object({
  reason: z.enum(TASK_WAIT_REASONS),
  text: z.string(),
  nextDialAt: z.string(),
});
export type TaskWait = z.infer<typeof taskWaitSchema>;

/** SPEC §3 Call task row. */
export const calltaskRowSchema = calltaskCounters.extend({
  cmStid: z.number(),
  name: z.string(),
  blackState: z.number(),
  cmWeeks: z.array(z.number()),
  cmTimes: z.array(z.object({ start: z.string(), end: z.string() })),
  customerInfoState: z.number(),
  customerWhere: z.string(),
  cmSidInfo: z.array(z.object({ cmSid: z.number(), name: z.string() })),
  isComplete: z.number(),
  status: z.number(),
  statusName: z.string(),
  redialMinutes: z.number(),
  maxAttempts: z.number(),
  wrapUpSeconds: z.number(),
  failPoolId: z.number(),
  failReasonId: z.number(),
  /** numbers still to dial (pending or redial due later) */
  leftNum: z.number(),
  /** a running task that does not dial now: why, and when it will (null: it dials, or it does not run) */
  wait: taskWaitSchema.nullable(),
  createCmSid: z.number(),
  createName: z.string(),
  createTime: z.string(),
});
export type CalltaskRow = z.infer<typeof calltaskRowSchema>;

/** Per-agent figures of a task (detail). */
export const calltaskAgentStatSchema = calltaskCounters.omit({ totalNum: true, zcallBnum: true }).extend({
  cmSid: z.number(),
  name: z.string(),
  /** 1 while the agent works the task */
  isWorking: z.number(),
  lastCallEndTime: z.string(),
});
export type CalltaskAgentStat = z.infer<typeof calltaskAgentStatSchema>;

export const calltaskDetailSchema = calltaskRowSchema.extend({ agents: z.array(calltaskAgentStatSchema) });
export type CalltaskDetail = z.infer<typeof calltaskDetailSchema>;

/** A number of a task (masked per the viewer through the customer-access policy). */
export const calltaskNumberRowSchema = z.object({
  id: z.number(),
  phone: z.string(),
  encryptPhone: z.number(),
  cmCtid: z.number(),
  name: z.string(),
  state: z.number(),
  stateName: z.string(),
  attempts: z.number(),
  nextTime: z.string(),
  lastCode: z.string(),
  outcome: z.number(),
  outcomeName: z.string(),
  cmSid: z.number(),
});
export type CalltaskNumberRow = z.infer<typeof calltaskNumberRowSchema>;

/** msg_type 7 frame data: the task's counters after a change. */
export const calltaskProgressSchema = calltaskCounters.extend({
  cmStid: z.number(),
  status: z.number(),
  isComplete: z.number(),
  leftNum: z.number(),
});
export type CalltaskProgress = z.infer<typeof calltaskProgressSchema>;

/** GET calltask/hours: the company's calling hours (外呼设置) a task's time ranges must lie in. */
export const calltaskHoursSchema = z.object({ from: z.string(), to: z.string() });
export type CalltaskHours = z.infer<typeof calltaskHoursSchema>;
