import { z } from 'zod';
import { int2, zId, zText, zUint } from './common';

/** SPEC §3 callType: 1 outbound, 4 incoming. */
export const CALL_TYPE = { outbound: 1, inbound: 4 } as const;
export const CALL_TYPE_LABEL: Record<number, string> = { 1: '呼出', 4: '呼入' };

/** Who ended the call (the call list's hangupPeople filter). */
export const HANGUP_SIDE = { agent: 1, customer: 2, system: 3 } as const;
export const HANGUP_SIDE_LABEL: Record<number, string> = { 0: '-', 1: '坐席挂断', 2: '客户挂断', 3: '系统挂断' };

/**
 * Hang-up causes of a call record. The sim provider's outcome table (README, telephony/sim)
 * produces: answered calls end with `normal`; the others with their own cause.
 */
export const HANGUP_CAUSE = {
  normal: 'normal',
  noAnswer: 'no_answer',
  busy: 'busy',
  emptyNumber: 'empty_number',
  poweredOff: 'powered_off',
  unreachable: 'unreachable',
  rejected: 'rejected',
  timeout: 'timeout',
  cancelled: 'cancelled',
  multiLogin: 'multi_login',
  lockExpired: 'lock_expired',
  deviceError: 'device_error',
  /** the app instance that held the leg restarted (call control, issue 12) */
  instanceRestart: 'instance_restart',
  /** the AI bot ended the call (its flow's end, 挂机, max rounds, after a message) (issue 22) */
  botHangup: 'bot_hangup',
  /** the call failed for a system reason (the bot could not speak or hear, a line error) (issue 22) */
  systemError: 'system_error',
  /** the company's credit ran out during the call (billing, issue 27) */
  creditExhausted: 'credit_exhausted',
} as const;
export type HangupCause = (typeof HANGUP_CAUSE)[keyof typeof HANGUP_CAUSE];
export const HANGUP_CAUSE_LABEL: Record<string, string> = {
  normal: '正常挂断',
  no_answer: '无人接听',
  busy: '用户忙',
  empty_number: '空号',
  powered_off: '关机',
  unreachable: '无法接通',
  rejected: '用户拒接',
  timeout: '呼叫超时',
  cancelled: '未接通挂断',
  multi_login: '多端登录挂断',
  lock_expired: '超时释放',
  device_error: '设备异常',
  instance_restart: '服务重启挂断',
  bot_hangup: 'AI挂机',
  system_error: '系统异常',
  credit_exhausted: '余额不足挂断',
};

/** SPEC §5/§9 dialing constants (server and web). */
export const CALL_LIMITS = {
  dialMinLength: 4,
  dialMaxLength: 20,
  /** hang-up is refused within this many seconds of the dial ('{n}s 后进行挂断') */
  hangupMinSeconds: 2,
  /** call set-up timeout: unanswered after this → 呼叫超时! and the call is ended */
  setupTimeoutSeconds: 60,
  /** dial lock: an unanswered active call blocks other dials for this long */
  lockUnansweredSeconds: 30,
  /** dial lock: an answered active call blocks other dials for this long after the answer */
  lockAnsweredSeconds: 60,
  heartbeatMs: 30_000,
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 64_000,
  /** SPEC §4/§9: after a connection error the softphone re-initialises, debounced this long */
  reinitDebounceMs: 5_000,
  pageSize: 20,
} as const;

/** SPEC §3 Dial request. Dial by customer (cmCtid + cbTacid, the server looks the number up) or by dstNumber. */
export const dialBody = z.object({
  /** call task id (tasks are a later issue); with it the 4–20 length rule is skipped */
  cmStid: zUint().optional(),
  cmCtid: zUint().optional(),
  /** phone control of the customer's template holding the number */
  cbTacid: zUint().optional(),
  /** a number added on the customer's phone tab (Contact.ccId), instead of cbTacid */
  ccId: zUint().optional(),
  /** typed number; ignored when cmCtid with cbTacid/ccId names the number */
  // zText: dialBody also reads the call socket's frames, which the HTTP input guard does not see
  dstNumber: zText().trim().max(40).optional(),
});
export type DialBody = z.infer<typeof dialBody>;

/** POST /api/callend/phone/dial (device accounts): the same with sourceType fixed 2. */
export const deviceDialBody = dialBody.extend({ sourceType: z.literal(2).default(2) });
export type DeviceDialBody = z.infer<typeof deviceDialBody>;

/** POST /api/frontend/call/hangup, /api/callend/phone/hangup, /api/frontend/call/answer */
export const hangupBody = z.object({
  uuid: z.string().min(1).max(64),
  yearMonth: z
    .string()
    .regex(/^\d{6}$/)
    .optional(),
});
export type HangupBody = z.infer<typeof hangupBody>;

/** SPEC §3 Dial response (POST /api/frontend/call/dial). */
export const dialResponseSchema = z.object({
  uuid: z.string(),
  /** the dialled number, masked ('138****5678') when the caller may not see it */
  phone: z.string(),
  encryptPhone: z.number(),
  cmCtid: z.number(),
  cmAtid: z.number(),
  /** the customer's name ('' when the number matches no customer) */
  name: z.string(),
  callType: z.number(),
  /** 'YYYYMM' of the call; send it back with hangup */
  yearMonth: z.string(),
  createTime: z.string(),
});
export type DialResponse = z.infer<typeof dialResponseSchema>;

/** SPEC §3 Direct-dial response (POST /api/callend/phone/dial). */
export const directDialResponseSchema = z.object({
  /** the call uuid */
  id: z.string(),
  uuid: z.string(),
  cmCtid: z.number(),
  cbTacid: z.number(),
  name: z.string(),
  /** masked when the caller may not see it */
  dstNumber: z.string(),
  yearMonth: z.string(),
  /** 'YYYY-MM-DD HH:mm:ss' or '' */
  dialTime: z.string(),
  dialingTime: z.string(),
  dialedTime: z.string(),
  dmMsg: z.string(),
});
export type DirectDialResponse = z.infer<typeof directDialResponseSchema>;

/** POST /api/frontend/call/simincoming (admin, /call/sip, sim telephony only): a call to an extension. */
export const simIncomingBody = z.object({
  cmSipid: zId(),
  /** the caller's number, matched to a customer of the company */
  callerNumber: z.string().trim().min(4, '请正确输入电话号码').max(20, '请正确输入电话号码'),
  /** the caller hangs up after this many seconds of ringing when nobody answers (default 30) */
  ringSeconds: z.number().int().min(1).max(120).optional(),
});
export type SimIncomingBody = z.infer<typeof simIncomingBody>;
export const simIncomingResponseSchema = z.object({
  uuid: z.string(),
  yearMonth: z.string(),
  cmCtid: z.number(),
  name: z.string(),
});
export type SimIncomingResponse = z.infer<typeof simIncomingResponseSchema>;

// ---------- call records ----------

/** POST /api/frontend/call/list: the call records (/call/record), under the role's data scope. */
export const callListBody = z.object({
  /** one call by its id (消费明细 links a call charge here: /call/record?uuid=…) */
  uuid: z.string().trim().max(64, '通话ID最多64个字符').optional(),
  cmDid: zUint().optional(),
  cmSid: zUint().optional(),
  /** extension number */
  cmSipuser: z.string().max(20).optional(),
  /** caller number (extension for outbound calls, the customer's number for inbound) */
  cmgoidCaller: z.string().max(20).optional(),
  /** called number: full or part of it */
  dstNumber: z.string().max(20).optional(),
  startBillsec: zUint().optional(),
  endBillsec: zUint().optional(),
  callType: int2().optional(),
  hangupPeople: int2().optional(),
  /** 'YYYY-MM-DD HH:mm:ss' (or 'YYYY-MM-DD') range on the call's start */
  startTime: z.string().max(19).optional(),
  endTime: z.string().max(19).optional(),
  cmStid: zUint().optional(),
  /** 1: answered only (billsec > 0), 2: unanswered only */
  isConnected: int2().optional(),
  page: zId().default(1),
  limit: z.number().int().min(1).max(200).default(CALL_LIMITS.pageSize),
});
export type CallListBody = z.infer<typeof callListBody>;

export const callRecordRowSchema = z.object({
  uuid: z.string(),
  yearMonth: z.string(),
  callType: z.number(),
  cmSid: z.number(),
  cmSidName: z.string(),
  cmDid: z.number(),
  cmDidName: z.string(),
  cmSipid: z.number(),
  cmSipuser: z.string(),
  /** caller number: the extension (outbound) or the customer's number (inbound, masked like dstNumber) */
  cmgoidCaller: z.string(),
  /** the customer's number, masked when the viewer may not see it */
  dstNumber: z.string(),
  encryptPhone: z.number(),
  cmCtid: z.number(),
  customerName: z.string(),
  cmStid: z.number(),
  /** 'YYYY-MM-DD HH:mm:ss' or '' */
  startTime: z.string(),
  ringTime: z.string(),
  answerTime: z.string(),
  endTime: z.string(),
  billsec: z.number(),
  /** 0 in progress, else HANGUP_SIDE */
  hangupPeople: z.number(),
  hangupCause: z.string(),
  hangupCauseName: z.string(),
  /** link to the WAV recording ('' when none) */
  recordFile: z.string(),
  /** 1 while the call is in progress */
  isActive: z.number(),
});
export type CallRecordRow = z.infer<typeof callRecordRowSchema>;

// ---------- seats workbench (/seats/Index) ----------

export const seatsStatSchema = z.object({
  today: z.object({
    calls: z.number(),
    connected: z.number(),
    /** connected / calls, 0..100 with one decimal */
    connectRate: z.number(),
    totalBillsec: z.number(),
    avgBillsec: z.number(),
    inbound: z.number(),
  }),
  /** 24 entries, hour 0..23 (Asia/Shanghai) */
  perHour: z.array(z.object({ hour: z.number(), calls: z.number(), connected: z.number() })),
  /** the caller's latest 10 calls */
  latest: z.array(callRecordRowSchema),
  /** the caller's default extension number ('' none) and its register status */
  sipUser: z.string(),
  registerStatus: z.number(),
});
export type SeatsStat = z.infer<typeof seatsStatSchema>;

// ---------- call socket /ws/call (SPEC §4, DESIGN §5) ----------

/** msg_type of server frames. */
export const CALL_MSG_TYPE = {
  /** asks the client to log in (first frame) */
  askLogin: 0,
  /** login accepted (data: { cmSid }) */
  loginOk: 1,
  /** heartbeat answer; SPEC §4: ignored by the client */
  pong: 2,
  /** an error message to show (code non-zero); 请勿多端登录, 呼叫超时!, 100002 … */
  error: 3,
  /** progress of a call the agent placed (extension or device) */
  dialProgress: 4,
  /** an incoming call (callType 4) and its progress */
  incoming: 5,
  /** outbound task progress (tasks: a later issue) */
  taskOut: 7,
  /** inbound task progress (tasks: a later issue) */
  taskIn: 8,
  /** 转人工: the AI call's transcript for the agent it rings (data: AicallTranscript) */
  aiTranscript: 9,
} as const;

/** Every server frame. */
export type CallFrame<T = unknown> = { code: number; msg_type: number; msg: string; data: T };

/** Client → server frames. */
export type CallClientFrame =
  | { type: 'login'; token: string }
  | { type: 'heartbeat' }
  /** dial over the socket: answered by a msg_type 4 frame (event 'created') or a msg_type 3 error */
  | ({ type: 'dial' } & DialBody);

/** Events of a call, in order: created → ringing → answered → ended (answered may be skipped). */
export type CallEvent = 'created' | 'ringing' | 'answered' | 'ended';

/** data of msg_type 4 and 5 frames. Times 'YYYY-MM-DD HH:mm:ss' or ''. */
export type CallProgress = {
  uuid: string;
  yearMonth: string;
  callType: number;
  event: CallEvent;
  /** SPEC §4 call status after this event: 2 dialling/ringing, 3 talking, 1 ended (back to the dialler) */
  callStatus: number;
  cmCtid: number;
  cmAtid: number;
  name: string;
  /** the customer's number, masked when the agent may not see it */
  phone: string;
  encryptPhone: number;
  cmStid: number;
  /** SPEC §4 direct-dial fields, filled for every call: dialTime = dialled, dialingTime = answered, dialedTime = ended */
  dialTime: string;
  dialingTime: string;
  dialedTime: string;
  /** device/carrier error text (ended without answer because of a device error), else '' */
  dmMsg: string;
  billsec: number;
  hangupPeople: number;
  hangupCause: string;
  hangupCauseName: string;
  recordFile: string;
  /** server time of the event, unix ms (for the in-call timer) */
  at: number;
  /**
   * 1 on a group dialer's put-through to an agent in work mode (issue 23): the customer has answered
   * and waits, so the agent's phone answers at once (a short tone, the customer card), no ringing
   */
  autoAnswer?: number;
};

/** data of msg_type 7/8 frames (call tasks: defined now, sent once tasks exist). */
export type TaskProgress = {
  cmStid: number;
  totalNum: number;
  zcallNum: number;
  zcallWnum: number;
  zcallBnum: number;
  zcallCnum: number;
  zcallBillsec: number;
  isComplete: number;
};

/** WebSocket close code sent to the first socket after a second login (请勿多端登录): do not reconnect. */
export const CALL_SOCKET_CLOSE_REPLACED = 4001;
/** WebSocket close code after a refused login (100002): go to the login page, do not reconnect. */
export const CALL_SOCKET_CLOSE_UNAUTHORISED = 4002;

// ---------- device channel /ws/device (merchantType 2 accounts) ----------

/**
 * The device channel: a phone app connects to /ws/device?imei=… with the header
 * `X-Device-Secret: <the secret of its extension, shown on /call/sip>`. Frames are JSON.
 */
export type DeviceServerFrame =
  | { type: 'hello'; imei: string; sipUser: string }
  | { type: 'dial'; uuid: string; number: string }
  | { type: 'hangup'; uuid: string }
  | { type: 'pong' }
  | { type: 'error'; msg: string };

/** Device reports: dialTime (dialling started), dialingTime (answered), dialedTime (ended) or dmMsg (failed). */
export type DeviceClientFrame =
  | { type: 'heartbeat' }
  | {
      type: 'report';
      uuid: string;
      /** unix seconds or 'YYYY-MM-DD HH:mm:ss' */
      dialTime?: number | string;
      dialingTime?: number | string;
      dialedTime?: number | string;
      dmMsg?: string;
      /** who hung up when dialedTime is reported: 1 the agent (on the phone), 2 the customer */
      hangupPeople?: number;
    };

/** GET /api/frontend/call/missedcount (SPEC §2 call button badge): missed incoming calls not yet seen. */
export const missedCallCount = z.object({ count: z.number().int().min(0) });
export type MissedCallCount = z.infer<typeof missedCallCount>;
