import { z } from 'zod';
import { actionStateSchema, qCode, qNum, zId, zUint } from './common';

/** SPEC §3 Sip info phoneState: 0 offline, 1 online, 2 busy (the header dropdown). */
export const PHONE_STATE = { offline: 0, online: 1, busy: 2 } as const;
export const PHONE_STATE_LABEL: Record<number, string> = { 0: '离线', 1: '在线', 2: '忙线' };

/** SPEC §3/§4 registerStatus: 0 → 3 registering → 1 registered or 4 failed; unregister → 0. */
export const REGISTER_STATUS = { unregistered: 0, registered: 1, busy: 2, registering: 3, failed: 4 } as const;
export const REGISTER_STATUS_LABEL: Record<number, string> = { 0: '未注册', 1: '已注册', 2: '忙线', 3: '注册中', 4: '注册失败' };

/** SPEC §4 call status: 0 idle → 1 dialler open → 2 dialling/ringing → 3 talking → back to 1. */
export const CALL_STATUS = { none: 0, ready: 1, dialling: 2, talking: 3 } as const;
export const CALL_STATUS_LABEL: Record<number, string> = { 0: '未通话', 1: '未通话', 2: '振铃中', 3: '通话中' };

/** SPEC §9 dial type (dmType of an extension): sip / axb / 回呼 / 本机 (a bound phone device). */
export const SIP_DM_TYPE = { sip: 1, axb: 2, callback: 3, device: 4 } as const;
/** 外呼方式 as users read it (the codes sip / axb are the lines' own names, never shown). */
export const SIP_DM_TYPE_LABEL: Record<number, string> = { 1: '网络电话', 2: '隐私小号', 3: '回呼', 4: '本机' };

export const SIP_LIMITS = { user: 20, pwd: 50, url: 200, imei: 20, pageSize: 20 } as const;

/**
 * An extension (SIP account), SPEC §3 Sip info plus what the admin pages show.
 * `pwd` is sent only to the extension's own staff (softphone registration) and to admins of /call/sip.
 */
export const sipInfoSchema = z.object({
  cmSipid: z.number(),
  /** bound device id (0 when none); the device is identified by its imei */
  cmDeid: z.number(),
  imei: z.string(),
  /** 1 while the bound device is connected to the device channel (merchantType 2 accounts) */
  deviceOnline: z.number(),
  user: z.string(),
  pwd: z.string(),
  /** SIP over WebSocket url the softphone registers to (wss://…) */
  url: z.string(),
  /** inbound url (calls to the extension) */
  inUrl: z.string(),
  /** SIP domain / registrar */
  server: z.string(),
  dmType: z.number(),
  phoneState: z.number(),
  /** same as registerStatus === 1 (kept for SPEC §3) */
  registerState: z.number(),
  registerStatus: z.number(),
  callStatus: z.number(),
  /** type of the last call (1 outbound, 4 inbound), 0 none */
  callType: z.number(),
  /** 'YYYY-MM-DD HH:mm:ss' or '' */
  lastCallTime: z.string(),
  /** bound staff (0 none) */
  cmSid: z.number(),
  cmSidName: z.string(),
  /** phone number bound with sipbindhone (回呼 / device number) */
  phone: z.string(),
  actionState: z.number(),
  /** 1 when this is the bound staff's default extension */
  isDefault: z.number(),
  createTime: z.string(),
  /** the server's telephony line: 'sim' (the softphone reports registration itself, no SIP server) or 'sip' */
  telephony: z.string(),
});
export type SipInfo = z.infer<typeof sipInfoSchema>;

/** What admins of /call/sip also see: the device secret the bound device logs in with. */
export const sipAdminInfoSchema = sipInfoSchema.extend({ deviceSecret: z.string() });
export type SipAdminInfo = z.infer<typeof sipAdminInfoSchema>;

const user = z
  .string()
  .trim()
  .min(1, '请输入分机号')
  .max(SIP_LIMITS.user, `分机号最多${SIP_LIMITS.user}个字符`)
  .regex(/^[A-Za-z0-9_.-]+$/, '分机号只能包含字母、数字、下划线、点和横线');

/** POST /api/frontend/call/sipcreate (admin, /call/sip). */
export const sipCreateBody = z.object({
  user,
  pwd: z.string().min(1, '请输入分机密码').max(SIP_LIMITS.pwd),
  server: z.string().trim().max(SIP_LIMITS.url).default(''),
  url: z.string().trim().max(SIP_LIMITS.url).default(''),
  inUrl: z.string().trim().max(SIP_LIMITS.url).default(''),
  dmType: z.number().int().min(1).max(4).default(SIP_DM_TYPE.sip),
  /** bound device imei ('' none) */
  imei: z.string().trim().max(SIP_LIMITS.imei).regex(/^\d*$/, 'IMEI 只能是数字').default(''),
  actionState: actionStateSchema.default(0),
});
export type SipCreateBody = z.infer<typeof sipCreateBody>;

/** POST /api/frontend/call/sipedit; a blank pwd keeps the stored one. */
export const sipEditBody = sipCreateBody.extend({
  cmSipid: zId(),
  pwd: z.string().max(SIP_LIMITS.pwd).default(''),
});
export type SipEditBody = z.infer<typeof sipEditBody>;

/** POST /api/frontend/call/sipdel */
export const sipDelBody = z.object({ cmSipid: zId() });

/** POST /api/frontend/call/sipdevicesecret: issue a new device secret (the old one stops working). */
export const sipDeviceSecretBody = z.object({ cmSipid: zId() });

/** GET /api/frontend/call/siplist */
export const sipListQuery = z.object({
  user: z.string().max(SIP_LIMITS.user).optional(),
  actionState: qCode,
  cmSid: qNum,
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1)),
  limit: z.preprocess(
    (v) => (v === '' || v === undefined ? SIP_LIMITS.pageSize : Number(v)),
    z.number().int().min(1).max(200).default(SIP_LIMITS.pageSize),
  ),
});
export type SipListQuery = z.infer<typeof sipListQuery>;

/** GET /api/frontend/call/sipmylist: the caller's own extensions. */
export const sipMyListQuery = sipListQuery.pick({ page: true, limit: true });
export type SipMyListQuery = z.infer<typeof sipMyListQuery>;

/** POST /api/frontend/call/sipbindstaff; cmSid 0 unbinds. */
export const sipBindStaffBody = z.object({ cmSipid: zId(), cmSid: zUint() });
export type SipBindStaffBody = z.infer<typeof sipBindStaffBody>;

/** POST /api/frontend/call/sipdefaultmy */
export const sipDefaultMyBody = z.object({ cmSipid: zId() });

/** POST /api/frontend/call/sipdefaultphoneState (saved before the softphone (un)registers, SPEC §4). */
export const sipPhoneStateBody = z.object({ phoneState: z.union([z.literal(0), z.literal(1), z.literal(2)]) });
export type SipPhoneStateBody = z.infer<typeof sipPhoneStateBody>;

/** POST /api/frontend/call/sipdefaultregisterStatus: the softphone reports its registration state. */
export const sipRegisterStatusBody = z.object({
  registerStatus: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
});
export type SipRegisterStatusBody = z.infer<typeof sipRegisterStatusBody>;

/** POST /api/frontend/call/sipbindhone: the phone number of the extension (回呼 number / the device's SIM); '' clears. */
export const sipBindPhoneBody = z.object({
  cmSipid: zId(),
  phone: z.string().trim().max(20, '电话号码最多20个字符'),
});
export type SipBindPhoneBody = z.infer<typeof sipBindPhoneBody>;

/** GET /api/frontend/call/sipdefault: the caller's default extension, or null (暂无默认分机). */
export type SipDefault = SipInfo | null;
