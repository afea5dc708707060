import { randomUUID } from 'node:crypto';
import {
  CALL_LIMITS,
  CALL_STATUS,
  CALL_TYPE,
  type DialBody,
  type DialResponse,
  type DirectDialResponse,
  dialNumberRefusal,
  HANGUP_CAUSE,
  HANGUP_SIDE,
  REGISTER_STATUS,
} from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { msSince, now } from '../../lib/clock';
import { normalisePhone } from '../../lib/phone';
import { formatDateTime, yearMonthOf } from '../../lib/time';
import { isNumberBlacklisted } from '../blacklist/blacklist.service';
import { customerNumber } from '../contacts/contacts.service';
import { showPhone } from '../customers/customer-access';
import type { CustomerRecord } from '../customers/customers.repo';
import { findVisibleCustomerByPhone, requireVisibleCustomer, viewerOf } from '../customers/customers.service';
import { findDefaultSip, findStaffMember, lockSip, type SipRow, setCallState } from '../extensions/extensions.service';
import { isNumberMaskedFor } from './call-access';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';
import { endCall } from './calls-lifecycle';
import { publishProgress, sendDevice } from './calls-publish';

// The one dial policy for a call an agent places: the number by customer id (never through the
// browser), the line's state, the dial lock, the blacklist; then the record and the line's dial.

const { CALL_STATE, CHANNEL } = repo;
type Channel = (typeof CHANNEL)[keyof typeof CHANNEL];

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
