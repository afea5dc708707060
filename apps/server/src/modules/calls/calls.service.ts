import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import {
  CALL_LIMITS,
  CALL_MSG_TYPE,
  CALL_STATUS,
  CALL_TYPE,
  type CallEvent,
  type CallListBody,
  type CallProgress,
  type CallRecordRow,
  DATA_SCOPE,
  type DeviceClientFrame,
  type DialBody,
  type DialResponse,
  type DirectDialResponse,
  dialNumberRefusal,
  ERRORS,
  HANGUP_CAUSE,
  HANGUP_CAUSE_LABEL,
  HANGUP_SIDE,
  type HangupBody,
  type HangupCause,
  hangupRefusal,
  type ListData,
  REGISTER_STATUS,
  type SeatsStat,
  type SimIncomingBody,
  type SimIncomingResponse,
} from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { deliver, publish } from '../../lib/events/events';
import { normalisePhone } from '../../lib/phone';
import { deviceChannel, staffChannel } from '../../lib/pubsub';
import { formatDateTime, parseDateTime, startOfTodayShanghai, toDate } from '../../lib/time';
import type { HangupSideValue, LegEvent } from '../../telephony/provider';
import type { SipDialog, StoredLeg } from '../../telephony/sip/sip-provider';
import { isNumberBlacklisted } from '../blacklist/blacklist.service';
import { customerNumber } from '../contacts/contacts.service';
import {
  type CustomerPlace,
  canSee,
  isAnyMasked,
  isCallNumberMasked,
  phoneMatchOf,
  showPhone,
  type Viewer,
} from '../customers/customer-access';
import type { CustomerRecord } from '../customers/customers.repo';
import {
  findCustomerForIncoming,
  findCustomerRecord,
  findVisibleCustomerByPhone,
  requireVisibleCustomer,
  viewerOf,
} from '../customers/customers.service';
import {
  findDefaultSip,
  findSipById,
  findSipForLine,
  findStaffMember,
  lockSip,
  type SipRow,
  setCallState,
} from '../extensions/extensions.service';
import { scopeStaffIds } from '../staff/staff.service';
import { storeGeneratedFile } from '../uploads/uploads.service';
import type { CallRuntime, DeviceMessage, StaffMessage } from './call-bus';
import * as repo from './calls.repo';

const { CALL_STATE } = repo;
/** 1 extension (softphone / sim line), 2 bound device (merchantType 2). */
export const CHANNEL = { sip: 1, device: 2 } as const;
export type Channel = (typeof CHANNEL)[keyof typeof CHANNEL];

/** A call nobody closed (lost device, crashed browser) is ended by the sweep after this long. */
const FORGOTTEN_CALL_MS = 4 * 60 * 60 * 1000;

const yearMonthOf = (at: Date) => formatDateTime(at).slice(0, 7).replace('-', '');
const msSince = (d: Date) => now().getTime() - d.getTime();

/**
 * Whether a call's number reaches this viewer masked, decided now by the customer-access policy:
 * the rule of the customer the call belongs to (private or pool, in sight or not), else of an incoming caller.
 */
const isNumberMaskedFor = (
  v: Viewer,
  call: { callType: number; customerId: number | null },
  customer: CustomerPlace | undefined,
) => {
  // a customer deleted since is no longer anyone's to see
  if (call.customerId && !customer) return true;
  return isCallNumberMasked(v, { callType: call.callType, customer });
};

/** A progress frame as its staff may see it at the moment it is sent (the call socket asks per frame). */
export const progressFor = async (rt: CallRuntime, actor: Actor, progress: CallProgress): Promise<CallProgress> => {
  const v = await viewerOf(rt.db, actor);
  const customer = progress.cmCtid ? await findCustomerRecord(rt.db, actor.tenantId, progress.cmCtid) : undefined;
  const isMasked = isNumberMaskedFor(v, { callType: progress.callType, customerId: progress.cmCtid || null }, customer);
  // A customer out of the caller's sight is not named (an incoming call may match another staff's customer).
  const isNamed = customer !== undefined && canSee(v, customer);
  return {
    ...progress,
    ...(isMasked ? { phone: showPhone(true, progress.phone), encryptPhone: 1 } : {}),
    ...(isNamed ? {} : { cmCtid: 0, cmAtid: 0, name: '' }),
  };
};

// ---------- publishing (after the commit, DESIGN §5) ----------

const EVENT_MSG: Record<CallEvent, string> = { created: '呼叫中', ringing: '振铃中', answered: '通话中', ended: '通话结束' };
const STATUS_AFTER: Record<CallEvent, number> = {
  created: CALL_STATUS.dialling,
  ringing: CALL_STATUS.dialling,
  answered: CALL_STATUS.talking,
  ended: CALL_STATUS.ready,
};

const progressOf = (call: repo.CallRecord, event: CallEvent, customer: CustomerRecord | undefined): CallProgress => ({
  uuid: call.uuid,
  yearMonth: call.yearMonth,
  callType: call.callType,
  event,
  callStatus: STATUS_AFTER[event],
  cmCtid: call.customerId ?? 0,
  cmAtid: customer?.templateId ?? 0,
  name: customer?.name ?? '',
  phone: call.calledNumber,
  encryptPhone: 0,
  cmStid: call.taskId,
  dialTime: formatDateTime(call.ringAt ?? (event === 'created' ? null : call.startAt)),
  dialingTime: formatDateTime(call.answerAt),
  dialedTime: formatDateTime(call.endAt),
  dmMsg: call.dmMsg,
  billsec: call.billsec,
  hangupPeople: call.hangupSide,
  hangupCause: call.hangupCause,
  hangupCauseName: HANGUP_CAUSE_LABEL[call.hangupCause] ?? '',
  recordFile: call.recordFile,
  at: now().getTime(),
});

const publishProgress = async (rt: CallRuntime, call: repo.CallRecord, event: CallEvent) => {
  const customer = call.customerId ? await findCustomerRecord(rt.db, call.tenantId, call.customerId) : undefined;
  const message: StaffMessage = {
    kind: 'progress',
    msgType: call.callType === CALL_TYPE.inbound ? CALL_MSG_TYPE.incoming : CALL_MSG_TYPE.dialProgress,
    msg: EVENT_MSG[event],
    progress: progressOf(call, event, customer),
  };
  await rt.bus.publish(staffChannel(call.staffId), message);
};

const publishError = (rt: CallRuntime, staffId: number, code: number, msg: string, data: unknown = null) =>
  rt.bus.publish(staffChannel(staffId), {
    kind: 'frame',
    frame: { code, msg_type: CALL_MSG_TYPE.error, msg, data },
  } satisfies StaffMessage);

const sendDevice = (rt: CallRuntime, imei: string, frame: DeviceMessage & { kind: 'command' }) =>
  rt.bus.publish(deviceChannel(imei), frame);

// ---------- call progress (provider and device events) ----------

/** The staff who placed or took a call, as the uploads service sees its owner. */
const ownerActor = (call: repo.CallRecord): Actor => ({
  sessionId: 0,
  staffId: call.staffId,
  tenantId: call.tenantId,
  departmentId: call.departmentId,
  roleId: 0,
  dataScope: DATA_SCOPE.own,
  isSystemRole: false,
  menuIds: new Set(),
  actions: new Set(),
  name: '',
});

const markRinging = async (rt: CallRuntime, uuid: string, at: Date) => {
  const call = await repo.advanceCall(rt.db, uuid, CALL_STATE.ringing, { ringAt: at });
  if (call) await publishProgress(rt, call, 'ringing');
};

const markAnswered = async (rt: CallRuntime, uuid: string, at: Date) => {
  const call = await rt.db.transaction(async (tx) => {
    const row = await repo.advanceCall(tx, uuid, CALL_STATE.answered, { answerAt: at });
    if (row?.sipId) await setCallState(tx, row.tenantId, row.sipId, { callStatus: CALL_STATUS.talking });
    return row;
  });
  if (call) await publishProgress(rt, call, 'answered');
};

type Ending = { at: Date; side: HangupSideValue; cause: HangupCause; recording?: Buffer; dmMsg?: string };

/**
 * Ends a call once: the record (billsec, side, cause, recording), the extension back to idle,
 * the customer's phone-call follow record and contact counters, all in one transaction; then
 * the socket hears of it.
 */
export const finishCall = async (rt: CallRuntime, uuid: string, ending: Ending): Promise<void> => {
  const call = await repo.findCall(rt.db, uuid);
  if (!call || call.state === CALL_STATE.ended) return;
  const floor = (call.answerAt ?? call.startAt).getTime();
  const endAt = new Date(Math.max(ending.at.getTime(), floor));
  const billsec = call.answerAt ? Math.max(0, Math.round((endAt.getTime() - call.answerAt.getTime()) / 1000)) : 0;
  let recordFile = '';
  let recordFileId: number | null = null;
  if (ending.recording && billsec > 0) {
    const stamp = formatDateTime(call.startAt).replace(/[-: ]/g, '');
    const recording = ending.recording;
    const stored = await storeGeneratedFile(
      rt.db,
      rt.config.dataDir,
      ownerActor(call),
      { originalName: `录音_${stamp}.wav`, ext: 'wav', scene: 'recording' },
      (fullPath) => fs.promises.writeFile(fullPath, recording),
    );
    recordFile = stored.url;
    recordFileId = stored.id;
  }
  const result = await rt.db.transaction(async (tx) => {
    const row = await repo.advanceCall(tx, uuid, CALL_STATE.ended, {
      endAt,
      billsec,
      hangupSide: ending.side,
      hangupCause: ending.cause,
      dmMsg: ending.dmMsg ?? '',
      recordFile,
      recordFileId,
    });
    if (!row) return undefined;
    if (row.sipId) await setCallState(tx, row.tenantId, row.sipId, { callStatus: CALL_STATUS.none });
    // the follow-up history and the customer's counters react to the event (lib/events)
    let eventId: number | null = null;
    if (row.customerId) {
      const what = row.callType === CALL_TYPE.inbound ? '呼入' : '呼出';
      eventId = await publish(tx, row.tenantId, 'call.ended', {
        uuid,
        customerId: row.customerId,
        staffId: row.staffId,
        callType: row.callType,
        billsec,
        recordFile,
        remark:
          billsec > 0 ? `${what}通话 ${billsec} 秒` : `${what}未接通（${HANGUP_CAUSE_LABEL[ending.cause] ?? ending.cause}）`,
        at: endAt.toISOString(),
      });
    }
    return { row, eventId };
  });
  if (!result) return;
  if (result.eventId !== null) await deliver(rt.db, [result.eventId]);
  const ended = result.row;
  if (ending.cause === HANGUP_CAUSE.timeout) {
    await publishError(rt, ended.staffId, ERRORS.CALL_TIMEOUT.code, ERRORS.CALL_TIMEOUT.msg, { uuid });
  }
  await publishProgress(rt, ended, 'ended');
};

/** Provider events → the call record. Never throws: a failed event is logged by the caller. */
export const handleLegEvent = async (rt: CallRuntime, e: LegEvent): Promise<void> => {
  if (e.kind === 'ringing') await markRinging(rt, e.uuid, e.at);
  else if (e.kind === 'answered') await markAnswered(rt, e.uuid, e.at);
  else await finishCall(rt, e.uuid, { at: e.at, side: e.side, cause: e.cause, recording: e.recording });
};

/** Ends a call from the server side: through the line while it holds the leg, else on the record alone. */
export const endCall = async (rt: CallRuntime, call: repo.CallRecord, side: HangupSideValue, cause: HangupCause) => {
  if (call.channel === CHANNEL.sip && (await rt.provider.hangup(call.uuid, side, cause))) return;
  if (call.channel === CHANNEL.device && call.sipId) {
    const sip = await findSipById(rt.db, call.tenantId, call.sipId);
    if (sip?.sip.imei) await sendDevice(rt, sip.sip.imei, { kind: 'command', frame: { type: 'hangup', uuid: call.uuid } });
  }
  const effective = call.answerAt === null && cause === HANGUP_CAUSE.normal ? HANGUP_CAUSE.cancelled : cause;
  await finishCall(rt, call.uuid, { at: now(), side, cause: effective });
};

// ---------- dialing ----------

/** SPEC §5: 4 to 20 digits unless a task dials; returns the normalised number. */
const dialNumberOf = (raw: string, isTask: boolean): string => {
  // the rule the browser checks first (packages/contracts/src/rules.ts)
  if (dialNumberRefusal(raw, isTask)) throw new AppError('DIAL_NUMBER_INVALID');
  return normalisePhone(raw)?.phone ?? raw.replace(/\D/g, '');
};

/**
 * SPEC §9 dial lock: while the staff has a call in progress that is unanswered for less than
 * 30 s, or answered less than 60 s ago, another dial is refused. The same number again:
 * 请勿重复拨打; a call in talk: 通话中请勿重复拨打; a call still ringing: 有其他号码正在通话中...
 * Calls past those windows are taken as abandoned and ended by the system.
 */
const checkDialLock = async (rt: CallRuntime, staffId: number, number: string) => {
  const active = await repo.activeCallsOf(rt.db, staffId);
  for (const c of active) {
    const isHeld = c.answerAt
      ? msSince(c.answerAt) < CALL_LIMITS.lockAnsweredSeconds * 1000
      : msSince(c.startAt) < CALL_LIMITS.lockUnansweredSeconds * 1000;
    if (!isHeld) continue;
    if (c.calledNumber === number) throw new AppError('DIAL_REPEAT');
    throw new AppError(c.answerAt ? 'CALL_TALKING' : 'DIAL_LOCKED');
  }
  for (const c of active) await endCall(rt, c, HANGUP_SIDE.system, HANGUP_CAUSE.lockExpired);
};

type Placed = { call: repo.CallRecord; customer: CustomerRecord | undefined; isMasked: boolean; sip: SipRow };

const placeCall = async (rt: CallRuntime, actor: Actor, body: DialBody, channel: Channel): Promise<Placed> => {
  const { db } = rt;
  const member = await findStaffMember(db, actor.tenantId, actor.staffId);
  const isDeviceAccount = member?.merchantType === 2;
  if (isDeviceAccount !== (channel === CHANNEL.device)) throw new AppError('DIAL_WRONG_CHANNEL');
  // SPEC §6: accounts dial through their default extension.
  const sipRow = await findDefaultSip(db, actor.tenantId, actor.staffId);
  if (!sipRow) throw new AppError('SIP_NO_DEFAULT');
  const { sip } = sipRow;
  if (sip.actionState !== 0) throw new AppError('SIP_DISABLED');

  // Dialing by customer: the server looks the number up, so a masked number never reaches the browser.
  let customer: CustomerRecord | undefined;
  let raw = body.dstNumber ?? '';
  if (body.cmCtid) {
    customer = await requireVisibleCustomer(db, actor, body.cmCtid);
    if (body.cbTacid || body.ccId || !raw) {
      raw = (await customerNumber(db, actor, customer, { cbTacid: body.cbTacid, ccId: body.ccId })) ?? '';
    }
  }
  const number = dialNumberOf(raw, Boolean(body.cmStid));

  if (channel === CHANNEL.sip) {
    const isRegistered = sip.registerStatus === REGISTER_STATUS.registered || sip.registerStatus === REGISTER_STATUS.busy;
    if (!isRegistered) throw new AppError('SIP_OFFLINE');
  } else {
    if (!sip.imei) throw new AppError('SIP_NO_DEVICE');
    if (sip.deviceOnline !== 1) throw new AppError('DEVICE_OFFLINE');
  }
  customer ??= await findVisibleCustomerByPhone(db, actor, number);
  await checkDialLock(rt, actor.staffId, number);
  // SPEC §8: 100011 carries the customer so the web can offer to discard it; 100014 releases a task call.
  if (await isNumberBlacklisted(db, actor.tenantId, number)) {
    throw new AppError(body.cmStid ? 'TASK_BLACKLISTED' : 'BLACKLISTED', undefined, { cmCtid: customer?.id ?? 0 });
  }

  const at = now();
  const call = await db.transaction(async (tx) => {
    await lockSip(tx, sip.id);
    // a dial that raced this one through the lock check
    if ((await repo.activeCallsOf(tx, actor.staffId)).length > 0) throw new AppError('DIAL_LOCKED');
    const row: repo.CallInsert = {
      uuid: randomUUID(),
      yearMonth: yearMonthOf(at),
      tenantId: actor.tenantId,
      staffId: actor.staffId,
      departmentId: member?.departmentId ?? null,
      sipId: sip.id,
      sipUser: sip.user,
      channel,
      callType: CALL_TYPE.outbound,
      caller: channel === CHANNEL.device && sip.phone ? sip.phone : sip.user,
      calledNumber: number,
      customerId: customer?.id ?? null,
      controlId: body.cbTacid ?? 0,
      taskId: body.cmStid ?? 0,
      state: CALL_STATE.created,
      startAt: at,
    };
    await repo.insertCall(tx, row);
    await setCallState(tx, actor.tenantId, sip.id, {
      callStatus: CALL_STATUS.dialling,
      callType: CALL_TYPE.outbound,
      lastCallAt: at,
    });
    return (await repo.findCall(tx, row.uuid)) as repo.CallRecord;
  });

  const v = await viewerOf(db, actor);
  await publishProgress(rt, call, 'created');
  if (channel === CHANNEL.sip) rt.provider.dial({ uuid: call.uuid, from: sip.user, to: number });
  else await sendDevice(rt, sip.imei, { kind: 'command', frame: { type: 'dial', uuid: call.uuid, number } });
  return { call, customer, isMasked: isNumberMaskedFor(v, call, customer), sip: sipRow };
};

/** POST /api/frontend/call/dial: an extension account dials (SPEC §3 Dial response). */
export const dial = async (rt: CallRuntime, actor: Actor, body: DialBody): Promise<DialResponse> => {
  const { call, customer, isMasked } = await placeCall(rt, actor, body, CHANNEL.sip);
  return {
    uuid: call.uuid,
    phone: showPhone(isMasked, call.calledNumber),
    encryptPhone: isMasked ? 1 : 0,
    cmCtid: customer?.id ?? 0,
    cmAtid: customer?.templateId ?? 0,
    name: customer?.name ?? '',
    callType: call.callType,
    yearMonth: call.yearMonth,
    createTime: formatDateTime(call.startAt),
  };
};

/** POST /api/callend/phone/dial: a device account dials through its phone (SPEC §3 Direct-dial response). */
export const deviceDial = async (rt: CallRuntime, actor: Actor, body: DialBody): Promise<DirectDialResponse> => {
  const { call, customer, isMasked } = await placeCall(rt, actor, body, CHANNEL.device);
  return {
    id: call.uuid,
    uuid: call.uuid,
    cmCtid: customer?.id ?? 0,
    cbTacid: call.controlId,
    name: customer?.name ?? '',
    dstNumber: showPhone(isMasked, call.calledNumber),
    yearMonth: call.yearMonth,
    dialTime: '',
    dialingTime: '',
    dialedTime: '',
    dmMsg: '',
  };
};

const requireOwnCall = async (rt: CallRuntime, actor: Actor, uuid: string) => {
  const call = await repo.findTenantCall(rt.db, actor.tenantId, uuid);
  if (!call || call.staffId !== actor.staffId) throw new AppError('CALL_NOT_FOUND');
  return call;
};

/** hangup (both paths): not within 2 s of the dial ('{n}s 后进行挂断', SPEC §5); an ended call stays ended. */
export const hangup = async (rt: CallRuntime, actor: Actor, body: HangupBody): Promise<void> => {
  const call = await requireOwnCall(rt, actor, body.uuid);
  if (call.state === CALL_STATE.ended) return;
  // the countdown the browser shows first (packages/contracts/src/rules.ts)
  const early = hangupRefusal(call.startAt.getTime(), now().getTime());
  if (early) throw new AppError('HANGUP_TOO_EARLY', early);
  if (call.channel === CHANNEL.device) {
    // The call runs on the phone: only the phone can end it (SPEC §5).
    const sip = call.sipId ? await findSipById(rt.db, call.tenantId, call.sipId) : undefined;
    if (!sip?.sip.imei || sip.sip.deviceOnline !== 1) throw new AppError('HANGUP_ON_PHONE');
    await sendDevice(rt, sip.sip.imei, { kind: 'command', frame: { type: 'hangup', uuid: call.uuid } });
    return;
  }
  await endCall(rt, call, HANGUP_SIDE.agent, HANGUP_CAUSE.normal);
};

/** answer: the agent takes an incoming call that is ringing. */
export const answer = async (rt: CallRuntime, actor: Actor, body: HangupBody): Promise<void> => {
  const call = await requireOwnCall(rt, actor, body.uuid);
  const isRinging = call.callType === CALL_TYPE.inbound && call.state < CALL_STATE.answered;
  if (!isRinging || !rt.provider.isActive(call.uuid)) throw new AppError('CALL_NOT_RINGING');
  await rt.provider.answer(call.uuid);
};

/** Every call in progress of a staff is hung up by the system (second login: 请勿多端登录). */
export const hangupActiveCallsOf = async (rt: CallRuntime, staffId: number, cause: HangupCause) => {
  for (const call of await repo.activeCallsOf(rt.db, staffId)) await endCall(rt, call, HANGUP_SIDE.system, cause);
};

/**
 * The staff's call socket was lost (page reloaded or closed, network): nobody could end his calls
 * in progress any more, so the server ends them as his hang-up, on every line (sim, sip, device),
 * as the sip line's page-leave does; the socket's 'ended' frame lets the next page say so.
 */
export const endCallsOfLostSocket = async (rt: CallRuntime, staffId: number) => {
  for (const call of await repo.activeCallsOf(rt.db, staffId)) await endCall(rt, call, HANGUP_SIDE.agent, HANGUP_CAUSE.normal);
};

/** Opens the record of a call ringing an extension (sim or sip line), matched to a customer of its staff. */
const openInboundCall = async (
  rt: CallRuntime,
  sip: { id: number; tenantId: number; user: string },
  staffId: number,
  phone: string,
) => {
  const customer = await findCustomerForIncoming(rt.db, sip.tenantId, staffId, phone);
  const member = await findStaffMember(rt.db, sip.tenantId, staffId);
  const at = now();
  const uuid = randomUUID();
  await rt.db.transaction(async (tx) => {
    await repo.insertCall(tx, {
      uuid,
      yearMonth: yearMonthOf(at),
      tenantId: sip.tenantId,
      staffId,
      departmentId: member?.departmentId ?? null,
      sipId: sip.id,
      sipUser: sip.user,
      channel: CHANNEL.sip,
      callType: CALL_TYPE.inbound,
      caller: phone,
      calledNumber: phone,
      customerId: customer?.id ?? null,
      startAt: at,
    });
    await setCallState(tx, sip.tenantId, sip.id, {
      callStatus: CALL_STATUS.dialling,
      callType: CALL_TYPE.inbound,
      lastCallAt: at,
    });
  });
  return { uuid, at, customer };
};

/** simincoming (sim line): a number calls an extension; the agent's socket hears it ring (msg_type 5). */
export const simulateIncoming = async (rt: CallRuntime, actor: Actor, body: SimIncomingBody): Promise<SimIncomingResponse> => {
  const incoming = rt.provider.incoming;
  if (rt.provider.name !== 'sim' || !incoming) throw new AppError('SIM_ONLY');
  const row = await findSipById(rt.db, actor.tenantId, body.cmSipid);
  if (!row) throw new AppError('SIP_NOT_FOUND');
  const { sip } = row;
  if (!sip.staffId) throw new AppError('SIP_NOT_BOUND');
  const n = normalisePhone(body.callerNumber);
  if (!n) throw new AppError('DIAL_NUMBER_INVALID');
  const { uuid, at, customer } = await openInboundCall(rt, sip, sip.staffId, n.phone);
  await incoming({ uuid, from: n.phone, to: sip.user, ringSeconds: body.ringSeconds ?? 30 });
  return { uuid, yearMonth: yearMonthOf(at), cmCtid: customer?.id ?? 0, name: customer?.name ?? '' };
};

// ---------- device reports ----------

/** A device time: unix seconds or 'YYYY-MM-DD HH:mm:ss'; a clock far off the server's is not trusted. */
const deviceTime = (v: number | string | undefined): Date | undefined => {
  if (v === undefined || v === '' || v === 0) return undefined;
  const d = typeof v === 'number' ? new Date(v * 1000) : (parseDateTime(v) ?? toDate(v));
  if (Number.isNaN(d.getTime())) return now();
  return Math.abs(msSince(d)) > 5 * 60 * 1000 ? now() : d;
};

/** The device channel: dialTime → ringing (2), dialingTime → talking (3), dialedTime → ended, dmMsg → failed (SPEC §4). */
export const handleDeviceReport = async (
  rt: CallRuntime,
  sipId: number,
  report: Extract<DeviceClientFrame, { type: 'report' }>,
): Promise<void> => {
  const call = await repo.findCall(rt.db, report.uuid);
  if (!call || call.sipId !== sipId || call.channel !== CHANNEL.device) return;
  if (report.dmMsg) {
    await finishCall(rt, call.uuid, {
      at: now(),
      side: HANGUP_SIDE.system,
      cause: HANGUP_CAUSE.deviceError,
      dmMsg: report.dmMsg.slice(0, 200),
    });
    return;
  }
  const dialAt = deviceTime(report.dialTime);
  const answerAt = deviceTime(report.dialingTime);
  const endAt = deviceTime(report.dialedTime);
  if (dialAt) await markRinging(rt, call.uuid, dialAt);
  if (answerAt) await markAnswered(rt, call.uuid, answerAt);
  if (endAt) {
    const side = report.hangupPeople === HANGUP_SIDE.agent ? HANGUP_SIDE.agent : HANGUP_SIDE.customer;
    const fresh = await repo.findCall(rt.db, call.uuid);
    const cause = fresh?.answerAt ? HANGUP_CAUSE.normal : HANGUP_CAUSE.noAnswer;
    await finishCall(rt, call.uuid, { at: endAt, side, cause });
  }
};

// ---------- sweep ----------

/** Ends calls past the 60 s set-up timeout (呼叫超时!, SPEC §9) and calls nobody closed. */
export const sweepCalls = async (rt: CallRuntime): Promise<number> => {
  const t = now().getTime();
  const unanswered = await repo.activeCallsStartedBefore(rt.db, new Date(t - CALL_LIMITS.setupTimeoutSeconds * 1000), true);
  const forgotten = await repo.activeCallsStartedBefore(rt.db, new Date(t - FORGOTTEN_CALL_MS), false);
  let n = 0;
  for (const call of unanswered) {
    await endCall(rt, call, HANGUP_SIDE.system, HANGUP_CAUSE.timeout);
    n++;
  }
  for (const call of forgotten) {
    if (call.answerAt === null) continue;
    await endCall(rt, call, HANGUP_SIDE.system, HANGUP_CAUSE.lockExpired);
    n++;
  }
  return n;
};

// ---------- call records ----------

const rangeStart = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 00:00:00` : s) ?? undefined) : undefined);
const rangeEnd = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 23:59:59` : s) ?? undefined) : undefined);

const toRow = (r: repo.CallListRow, v: Viewer): CallRecordRow => {
  const c = r.call;
  const customer =
    r.customerOwnerId !== null || r.customerPoolId !== null
      ? { ownerId: r.customerOwnerId, poolId: r.customerPoolId }
      : undefined;
  const shouldMask = isNumberMaskedFor(v, c, customer);
  const isNamed = customer !== undefined && canSee(v, customer);
  const show = (n: string) => showPhone(shouldMask, n);
  return {
    uuid: c.uuid,
    yearMonth: c.yearMonth,
    callType: c.callType,
    cmSid: c.staffId,
    cmSidName: r.staffName ?? '',
    cmDid: c.departmentId ?? 0,
    cmDidName: r.departmentName ?? '',
    cmSipid: c.sipId ?? 0,
    cmSipuser: c.sipUser,
    cmgoidCaller: c.callType === CALL_TYPE.inbound ? show(c.caller) : c.caller,
    dstNumber: show(c.calledNumber),
    encryptPhone: shouldMask ? 1 : 0,
    cmCtid: isNamed ? (c.customerId ?? 0) : 0,
    customerName: isNamed ? (r.customerName ?? '') : '',
    cmStid: c.taskId,
    startTime: formatDateTime(c.startAt),
    ringTime: formatDateTime(c.ringAt),
    answerTime: formatDateTime(c.answerAt),
    endTime: formatDateTime(c.endAt),
    billsec: c.billsec,
    hangupPeople: c.hangupSide,
    hangupCause: c.hangupCause,
    hangupCauseName: HANGUP_CAUSE_LABEL[c.hangupCause] ?? '',
    recordFile: c.recordFile,
    isActive: c.state < CALL_STATE.ended ? 1 : 0,
  };
};

/** call/list (/call/record): the calls of the staff in the caller's data scope, numbers masked for masked viewers. */
export const listCalls = async (rt: CallRuntime, actor: Actor, q: CallListBody): Promise<ListData<CallRecordRow>> => {
  const v = await viewerOf(rt.db, actor);
  // Some numbers may be masked for this viewer: number filters then match whole numbers only (issue 11).
  const isNumberExact = isAnyMasked(v);
  const numberOf = (text: string | undefined) => {
    if (!text?.trim()) return undefined;
    const match = phoneMatchOf(text, isNumberExact);
    return match.kind === 'none' ? null : match.kind === 'exact' ? match.phone : match.digits;
  };
  const caller = numberOf(q.cmgoidCaller);
  const number = numberOf(q.dstNumber);
  if (caller === null || number === null) return { count: 0, list: [] };
  const f: repo.CallFilter = {
    tenantId: actor.tenantId,
    scope: await scopeStaffIds(rt.db, actor),
    departmentId: q.cmDid || undefined,
    staffId: q.cmSid || undefined,
    sipUser: q.cmSipuser?.trim() || undefined,
    caller,
    number,
    isNumberExact,
    minBillsec: q.startBillsec,
    maxBillsec: q.endBillsec,
    callType: q.callType || undefined,
    hangupSide: q.hangupPeople || undefined,
    from: rangeStart(q.startTime),
    to: rangeEnd(q.endTime),
    taskId: q.cmStid || undefined,
    isConnected: q.isConnected === 1 ? true : q.isConnected === 2 ? false : undefined,
  };
  const [rows, count] = await Promise.all([repo.listCalls(rt.db, f, q.limit, (q.page - 1) * q.limit), repo.countCalls(rt.db, f)]);
  return { count, list: rows.map((r) => toRow(r, v)) };
};

/** seats/stat (/seats/Index): the caller's calls today, per hour, and his latest calls. */
export const seatsStat = async (rt: CallRuntime, actor: Actor): Promise<SeatsStat> => {
  const from = startOfTodayShanghai(now());
  const hours = await repo.hourlyStats(rt.db, actor.tenantId, actor.staffId, from);
  const sum = (k: 'calls' | 'connected' | 'billsec' | 'inbound') => hours.reduce((a, h) => a + h[k], 0);
  const calls = sum('calls');
  const connected = sum('connected');
  const totalBillsec = sum('billsec');
  const v = await viewerOf(rt.db, actor);
  const latest = await repo.listCalls(rt.db, { tenantId: actor.tenantId, scope: [actor.staffId] }, 10, 0);
  const sip = await findDefaultSip(rt.db, actor.tenantId, actor.staffId);
  return {
    today: {
      calls,
      connected,
      connectRate: calls ? Math.round((connected / calls) * 1000) / 10 : 0,
      totalBillsec,
      avgBillsec: connected ? Math.round(totalBillsec / connected) : 0,
      inbound: sum('inbound'),
    },
    perHour: Array.from({ length: 24 }, (_, hour) => {
      const h = hours.find((x) => x.hour === hour);
      return { hour, calls: h?.calls ?? 0, connected: h?.connected ?? 0 };
    }),
    latest: latest.map((r) => toRow(r, v)),
    sipUser: sip?.sip.user ?? '',
    registerStatus: sip?.sip.registerStatus ?? 0,
  };
};

// ---------- the sip line (Kamailio asks, issue 7) ----------

/**
 * An INVITE from the trunk to an extension: a ringing incoming call for its staff, matched to a
 * customer. Undefined (Kamailio answers 480) when the extension is unknown, unbound or not registered;
 * 'busy' (486) while its staff is on a call.
 */
export const sipInbound = async (
  rt: CallRuntime,
  user: string,
  callerNumber: string,
  open: (leg: { uuid: string; agent: string; from: string }) => void,
): Promise<{ uuid: string } | 'busy' | undefined> => {
  const row = await findSipForLine(rt.db, user);
  const sip = row?.sip;
  if (!sip?.staffId || sip.actionState !== 0 || row?.merchantType === 2) return undefined;
  const isRegistered = sip.registerStatus === REGISTER_STATUS.registered || sip.registerStatus === REGISTER_STATUS.busy;
  if (!isRegistered) return undefined;
  if ((await repo.activeCallsOf(rt.db, sip.staffId)).length > 0) return 'busy';
  const phone = normalisePhone(callerNumber)?.phone ?? callerNumber.replace(/\D/g, '');
  const { uuid } = await openInboundCall(rt, sip, sip.staffId, phone);
  open({ uuid, agent: sip.user, from: phone });
  return { uuid };
};

/** A sip-line call still in progress, as the line needs it (routing and ending it on any app instance). */
export const sipLegOf = async (rt: CallRuntime, uuid: string): Promise<StoredLeg | undefined> => {
  const call = await repo.findCall(rt.db, uuid);
  if (!call || call.state === CALL_STATE.ended || call.channel !== CHANNEL.sip) return undefined;
  const isInbound = call.callType === CALL_TYPE.inbound;
  return {
    uuid: call.uuid,
    agent: call.sipUser,
    number: isInbound ? call.caller : call.calledNumber,
    isInbound,
    answeredAt: call.answerAt,
    dialog: parseSipDialog(call.sipDialog),
  };
};

const parseSipDialog = (raw: string): SipDialog | null => {
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Partial<SipDialog>;
    return {
      callId: String(d.callId ?? ''),
      cseq: String(d.cseq ?? ''),
      fromTag: String(d.fromTag ?? ''),
      toTag: String(d.toTag ?? ''),
    };
  } catch {
    return null;
  }
};

/** The line learnt how Kamailio names a call (ringing, answered): kept on the record for every instance. */
export const saveSipDialog = (rt: CallRuntime, uuid: string, dialog: SipDialog) =>
  repo.setSipDialog(rt.db, uuid, JSON.stringify(dialog));

/** Kamailio's digest auth: the extension's password by SIP user (undefined: unknown or disabled). */
export const sipPasswordOf = async (rt: CallRuntime, user: string): Promise<string | undefined> => {
  const row = await findSipForLine(rt.db, user);
  if (row?.sip.actionState !== 0 || row.merchantType === 2) return undefined;
  return row.sip.pwd;
};
