import { z } from 'zod';
import { calltaskCreateBody, calltaskEditBody, calltaskRowSchema } from './calltasks';

// Group calling (人工群呼, application 5, issue 15): a call task with mode 1. The server dials
// several customers per free agent (the predictive dialer); an answered customer is joined to
// the free agent idle longest, or hears the abandon message when none is free within 2 s.

/** msg_type of the live board frames (the msg_type 8). */
export const GROUPCALL_MSG_TYPE = 8;
export const GROUPCALL_LIMITS = { maxLines: 100, abandonTargetMax: 100 } as const;
/** how long an answered customer waits for a free agent before the abandon message (ms) */
export const GROUPCALL_AGENT_WAIT_MS = 2_000;
export const GROUPCALL_ABANDON_TEXT = '您好，当前坐席繁忙，稍后将再次联系您，再见';

const groupFields = {
  /** the most customer legs the task holds at once */
  maxLines: z
    .number({ message: '请输入线路上限' })
    .int('线路上限须为整数')
    .min(1, `线路上限为1-${GROUPCALL_LIMITS.maxLines}`)
    .max(GROUPCALL_LIMITS.maxLines, `线路上限为1-${GROUPCALL_LIMITS.maxLines}`)
    .default(10),
  /** the abandon rate the dialer keeps under, in 1/1000 of answered calls (30 = 3%) */
  abandonTarget: z
    .number({ message: '请输入放弃率目标' })
    .int('放弃率目标须为整数')
    .min(1, '放弃率目标为0.1%-10%')
    .max(GROUPCALL_LIMITS.abandonTargetMax, '放弃率目标为0.1%-10%')
    .default(30),
};

export const groupcallCreateBody = z
  .object({ ...calltaskCreateBody.shape, ...groupFields })
  .refine(
    (b) => [b.customerWhere, b.cmCtids, b.numbers].filter((x) => x !== undefined).length === 1,
    '请选择客户来源（列表筛选、所选客户或导入号码其一）',
  );
export type GroupcallCreateBody = z.infer<typeof groupcallCreateBody>;

export const groupcallEditBody = z.object({ ...calltaskEditBody.shape, ...groupFields });
export type GroupcallEditBody = z.infer<typeof groupcallEditBody>;

/** The live board of a group task: every figure counted from its calls (call records and group_call_calls). */
export const groupcallBoardSchema = z.object({
  cmStid: z.number(),
  status: z.number(),
  agentsFree: z.number(),
  agentsTalking: z.number(),
  agentsWrapUp: z.number(),
  /** agents of the task working it now */
  agentsWorking: z.number(),
  linesInUse: z.number(),
  maxLines: z.number(),
  /** the dialer's current ratio (calls per free agent) */
  ratio: z.number(),
  /** calls placed (call records of the task) */
  called: z.number(),
  answered: z.number(),
  abandoned: z.number(),
  /** abandoned / answered in %, one decimal */
  abandonRate: z.number(),
  /** the task's target in % */
  abandonTarget: z.number(),
  connected: z.number(),
  /** average seconds from the customer's answer to the agent joining, one decimal */
  avgWaitSeconds: z.number(),
  /** recent samples for the chart: time (HH:mm:ss), ratio, abandon rate % */
  samples: z.array(z.object({ time: z.string(), ratio: z.number(), abandonRate: z.number() })),
  agents: z.array(
    z.object({
      cmSid: z.number(),
      name: z.string(),
      /** 0 not working, 1 free, 2 talking, 3 wrap-up */
      state: z.number(),
      stateName: z.string(),
    }),
  ),
});
export type GroupcallBoard = z.infer<typeof groupcallBoardSchema>;

/** A group task in the list: the seat-task row with the line limit, target and live figures. */
export const groupcallRowSchema = calltaskRowSchema.extend({
  maxLines: z.number(),
  abandonTarget: z.number(),
  answered: z.number(),
  abandoned: z.number(),
  connected: z.number(),
});
export type GroupcallRow = z.infer<typeof groupcallRowSchema>;
