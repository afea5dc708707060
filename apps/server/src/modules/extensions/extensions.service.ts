import { randomBytes } from 'node:crypto';
import {
  CALL_STATUS,
  type ListData,
  REGISTER_STATUS,
  SIP_DM_TYPE,
  type SipAdminInfo,
  type SipBindPhoneBody,
  type SipBindStaffBody,
  type SipCreateBody,
  type SipEditBody,
  type SipInfo,
  type SipListQuery,
  type SipMyListQuery,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { normalisePhone } from '../../lib/phone';
import { formatDateTime } from '../../lib/time';
import { findLiveStaffMember } from '../staff/staff-calls';
import { oneWithStaff, type SipRow, withStaff } from './extension-staff';
import * as repo from './extensions.repo';

export type { SipRow } from './extension-staff';

const newDeviceSecret = () => randomBytes(16).toString('hex');

/** SPEC §3 Sip info of a row; `telephony` names the server's line. */
export const toSipInfo = (row: SipRow, telephony: string): SipInfo => {
  const s = row.sip;
  return {
    cmSipid: s.id,
    cmDeid: s.imei ? s.id : 0,
    imei: s.imei,
    deviceOnline: s.deviceOnline,
    user: s.user,
    pwd: s.pwd,
    url: s.url,
    inUrl: s.inUrl,
    server: s.server,
    dmType: s.dmType,
    phoneState: s.phoneState,
    registerState: s.registerStatus === REGISTER_STATUS.registered ? 1 : 0,
    registerStatus: s.registerStatus,
    callStatus: s.callStatus,
    callType: s.callType,
    lastCallTime: formatDateTime(s.lastCallAt),
    cmSid: s.staffId ?? 0,
    cmSidName: row.staffName ?? '',
    phone: s.phone,
    actionState: s.actionState,
    isDefault: s.isDefault ? 1 : 0,
    createTime: formatDateTime(s.createdAt),
    telephony,
  };
};

const requireSip = async (db: DbOrTx, actor: Actor, id: number) => {
  const row = await repo.findSip(db, actor.tenantId, id);
  if (!row) throw new AppError('SIP_NOT_FOUND');
  return row;
};

const checkUnique = async (db: Db, actor: Actor, body: { user: string; imei: string }, exceptId: number) => {
  if (await repo.userTaken(db, actor.tenantId, body.user, exceptId)) throw new AppError('SIP_USER_TAKEN');
  if (body.imei && (await repo.imeiTaken(db, body.imei, exceptId))) throw new AppError('IMEI_TAKEN');
};

/** siplist (/call/sip): every extension of the company, with the device secrets. */
export const listSips = async (db: Db, actor: Actor, q: SipListQuery, telephony: string): Promise<ListData<SipAdminInfo>> => {
  const f: repo.SipFilter = { tenantId: actor.tenantId, user: q.user?.trim(), actionState: q.actionState, staffId: q.cmSid };
  const [found, n] = await Promise.all([repo.listSips(db, f, q.limit, (q.page - 1) * q.limit), repo.countSips(db, f)]);
  const rows = await withStaff(db, actor.tenantId, found);
  return { count: n, list: rows.map((r) => ({ ...toSipInfo(r, telephony), deviceSecret: r.sip.deviceSecret })) };
};

/** sipmylist (/call/mysip): the caller's own extensions, default first. */
export const listMySips = async (db: Db, actor: Actor, q: SipMyListQuery, telephony: string): Promise<ListData<SipInfo>> => {
  const f: repo.SipFilter = { tenantId: actor.tenantId, staffId: actor.staffId };
  const [found, n] = await Promise.all([repo.listSips(db, f, q.limit, (q.page - 1) * q.limit), repo.countSips(db, f)]);
  const rows = await withStaff(db, actor.tenantId, found);
  return { count: n, list: rows.map((r) => toSipInfo(r, telephony)) };
};

export const createSip = async (db: Db, actor: Actor, body: SipCreateBody): Promise<number> => {
  await checkUnique(db, actor, body, 0);
  return repo.insertSip(db, {
    tenantId: actor.tenantId,
    user: body.user,
    pwd: body.pwd,
    server: body.server,
    url: body.url,
    inUrl: body.inUrl,
    dmType: body.dmType,
    imei: body.imei,
    deviceSecret: body.imei ? newDeviceSecret() : '',
    actionState: body.actionState,
    createdAt: now(),
  });
};

export const editSip = async (db: Db, actor: Actor, body: SipEditBody): Promise<void> => {
  const { sip } = await requireSip(db, actor, body.cmSipid);
  await checkUnique(db, actor, body, sip.id);
  const isNewDevice = body.imei !== sip.imei;
  await repo.updateSip(db, actor.tenantId, sip.id, {
    user: body.user,
    ...(body.pwd ? { pwd: body.pwd } : {}),
    server: body.server,
    url: body.url,
    inUrl: body.inUrl,
    dmType: body.dmType,
    imei: body.imei,
    ...(isNewDevice ? { deviceSecret: body.imei ? newDeviceSecret() : '', deviceOnline: 0 } : {}),
    actionState: body.actionState,
  });
};

/** Issues a new device secret: the device must log in again with it. */
export const renewDeviceSecret = async (db: Db, actor: Actor, id: number): Promise<string> => {
  const { sip } = await requireSip(db, actor, id);
  if (!sip.imei) throw new AppError('SIP_NO_DEVICE');
  const secret = newDeviceSecret();
  await repo.updateSip(db, actor.tenantId, sip.id, { deviceSecret: secret });
  return secret;
};

export const deleteSip = async (db: Db, actor: Actor, id: number): Promise<void> => {
  const { sip } = await requireSip(db, actor, id);
  if (sip.callStatus >= CALL_STATUS.dialling) throw new AppError('SIP_IN_CALL');
  await db.transaction(async (tx) => {
    await repo.updateSip(tx, actor.tenantId, sip.id, { deletedAt: now(), isDefault: false, staffId: null });
    if (sip.isDefault && sip.staffId) await promoteDefault(tx, actor.tenantId, sip.staffId);
  });
};

/** A staff left without a default extension gets his oldest one as default. */
const promoteDefault = async (tx: DbOrTx, tenantId: number, staffId: number) => {
  const next = await repo.firstSipOf(tx, tenantId, staffId);
  if (next) await repo.updateSip(tx, tenantId, next, { isDefault: true });
};

/** sipbindstaff: binds the extension to a staff of the company (cmSid 0 unbinds). */
export const bindStaff = async (db: Db, actor: Actor, body: SipBindStaffBody): Promise<void> => {
  const { sip } = await requireSip(db, actor, body.cmSipid);
  if (sip.callStatus >= CALL_STATUS.dialling) throw new AppError('SIP_IN_CALL');
  const target = body.cmSid ? await findLiveStaffMember(db, actor.tenantId, body.cmSid) : undefined;
  if (body.cmSid && !target) throw new AppError('NOT_FOUND');
  if ((sip.staffId ?? 0) === body.cmSid) return;
  await db.transaction(async (tx) => {
    await repo.updateSip(tx, actor.tenantId, sip.id, {
      staffId: target?.id ?? null,
      isDefault: false,
      phoneState: 0,
      registerStatus: 0,
      callStatus: 0,
    });
    if (sip.isDefault && sip.staffId) await promoteDefault(tx, actor.tenantId, sip.staffId);
    if (target && !(await repo.findDefaultSip(tx, actor.tenantId, target.id))) {
      await repo.updateSip(tx, actor.tenantId, sip.id, { isDefault: true });
    }
  });
};

/** sipdefaultmy: one of the caller's extensions becomes his default. */
export const setMyDefault = async (db: Db, actor: Actor, id: number): Promise<void> => {
  const { sip } = await requireSip(db, actor, id);
  if (sip.staffId !== actor.staffId) throw new AppError('SIP_NOT_MINE');
  if (sip.isDefault) return;
  await db.transaction(async (tx) => {
    const previous = await repo.findDefaultSip(tx, actor.tenantId, actor.staffId);
    if (previous && previous.sip.callStatus >= CALL_STATUS.dialling) throw new AppError('SIP_IN_CALL');
    await repo.clearDefault(tx, actor.tenantId, actor.staffId);
    await repo.updateSip(tx, actor.tenantId, sip.id, { isDefault: true });
  });
};

/** The staff's default extension (any state), or undefined. */
export const findDefaultSip = async (db: DbOrTx, tenantId: number, staffId: number) =>
  oneWithStaff(db, await repo.findDefaultSip(db, tenantId, staffId));

/** sipdefault: the caller's default extension (SPEC §3 Sip info), or null. */
export const myDefaultSip = async (
  db: Db,
  actor: Actor,
  telephony: string,
  line?: { wsUrl: string; domain: string },
): Promise<SipInfo | null> => {
  const row = await findDefaultSip(db, actor.tenantId, actor.staffId);
  if (!row) return null;
  const info = toSipInfo(row, telephony);
  // the sip line: the softphone registers to this server's Kamailio (SIP_WS_URL / SIP_DOMAIN)
  if (telephony === 'sip' && line?.wsUrl) return { ...info, url: line.wsUrl, server: line.domain || info.server };
  return info;
};

/** The sip line (Kamailio) authenticates an extension: its live record by SIP user, any company. */
export const findSipForLine = async (db: DbOrTx, user: string) => oneWithStaff(db, await repo.findSipByUser(db, user));

const requireMyDefault = async (db: Db, actor: Actor) => {
  const row = await repo.findDefaultSip(db, actor.tenantId, actor.staffId);
  if (!row) throw new AppError('SIP_NO_DEFAULT');
  return row;
};

/** sipdefaultphoneState: online / busy / offline, saved before the softphone (un)registers (SPEC §4). */
export const setMyPhoneState = async (db: Db, actor: Actor, phoneState: number): Promise<void> => {
  const { sip } = await requireMyDefault(db, actor);
  await repo.updateSip(db, actor.tenantId, sip.id, { phoneState });
};

/** sipdefaultregisterStatus: the softphone reports 3 registering → 1 registered / 4 failed, 0 unregistered. */
export const setMyRegisterStatus = async (db: Db, actor: Actor, registerStatus: number): Promise<void> => {
  const { sip } = await requireMyDefault(db, actor);
  await repo.updateSip(db, actor.tenantId, sip.id, {
    registerStatus,
    // an unregistered extension is offline
    ...(registerStatus === REGISTER_STATUS.unregistered ? { phoneState: 0 } : {}),
  });
};

/** Logging out takes the staff member's default extension offline (the browser may not say so in time). */
export const unregisterOnLogout = async (db: Db, tenantId: number, staffId: number): Promise<void> => {
  const row = await repo.findDefaultSip(db, tenantId, staffId);
  if (row) await repo.updateSip(db, tenantId, row.sip.id, { registerStatus: REGISTER_STATUS.unregistered, phoneState: 0 });
};

/** sipbindhone: the extension's phone number (admins of /call/sip, or the extension's own staff). */
export const bindPhone = async (db: Db, actor: Actor, body: SipBindPhoneBody, isAdmin: boolean): Promise<void> => {
  const { sip } = await requireSip(db, actor, body.cmSipid);
  if (!isAdmin && sip.staffId !== actor.staffId) throw new AppError('SIP_NOT_MINE');
  let phone = '';
  if (body.phone) {
    const n = normalisePhone(body.phone);
    if (!n) throw new AppError('DIAL_NUMBER_INVALID');
    phone = n.phone;
  }
  await repo.updateSip(db, actor.tenantId, sip.id, { phone });
};

/** The call state of an extension (calls module): dialling/talking/idle, last call type and time. */
export const setCallState = (
  db: DbOrTx,
  tenantId: number,
  id: number,
  patch: { callStatus: number; callType?: number; lastCallAt?: Date },
) => repo.updateSip(db, tenantId, id, patch);

/** The device channel (calls module): who is this device? */
export const findSipByImei = async (db: DbOrTx, imei: string) => oneWithStaff(db, await repo.findSipByImei(db, imei));
export const findSipById = async (db: DbOrTx, tenantId: number, id: number) =>
  oneWithStaff(db, await repo.findSip(db, tenantId, id));
export const setDeviceOnline = (db: DbOrTx, tenantId: number, id: number, isOnline: boolean) =>
  repo.setDeviceOnline(db, tenantId, id, isOnline);
export const findStaffMember = (db: DbOrTx, tenantId: number, staffId: number) => findLiveStaffMember(db, tenantId, staffId);
/** Serialises dials on one extension (inside the dial transaction). */
export const lockSip = (tx: DbOrTx, id: number) => repo.lockSip(tx, id);

/** The demo device's imei and secret (README: `npm run device:sim`). */
export const DEMO_DEVICE = { imei: '860000000000004', secret: 'demo-device-secret-8004' } as const;

/**
 * Demo extensions (issue 6): admin 8000, lisi 8001, wangwu 8002, zhangsan 8003 as their
 * default extensions; zhaoliu (merchantType 2) 8004 bound to a simulated phone.
 */
export const seedDemoExtensions = async (db: Db, tenantId: number, staffIds: Record<string, number>) => {
  const at = now();
  const sip = (user: string, staffId: number | undefined, extra: Partial<repo.SipInsert> = {}): repo.SipInsert => ({
    tenantId,
    user,
    pwd: `sip${user}`,
    server: 'sip.demo.local',
    url: 'wss://sip.demo.local:7443',
    inUrl: '',
    staffId: staffId ?? null,
    isDefault: staffId !== undefined,
    createdAt: at,
    ...extra,
  });
  const rows = [
    sip('8000', staffIds.admin),
    sip('8001', staffIds.lisi),
    sip('8002', staffIds.wangwu),
    sip('8003', staffIds.zhangsan),
    sip('8004', staffIds.zhaoliu, {
      dmType: SIP_DM_TYPE.device,
      imei: DEMO_DEVICE.imei,
      deviceSecret: DEMO_DEVICE.secret,
      phone: '13800000004',
    }),
    sip('8005', undefined),
  ];
  for (const row of rows) await repo.insertSip(db, row);
};
