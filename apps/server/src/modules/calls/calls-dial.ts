import { randomUUID } from 'node:crypto';
import {
  CALL_STATUS,
  CALL_TYPE,
  type DialBody,
  type DialResponse,
  type DirectDialResponse,
  HANGUP_CAUSE,
  HANGUP_SIDE,
  REGISTER_STATUS,
} from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, yearMonthOf } from '../../lib/time';
import { type RefusalContext, withRefusalLog } from '../compliance/dial-refusals';
import { showPhone } from '../customers/customer-access';
import { findCustomerRecord, viewerOf } from '../customers/customers.service';
import { findDefaultSip, findStaffMember, lockSip, type SipRow, setCallState } from '../extensions/extensions.service';
import { type CustomerRecord, isNumberMaskedFor } from './call-access';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';
import { endCall } from './calls-lifecycle';
import { publishProgress, sendDevice } from './calls-publish';
import { rememberCreditLimit, reserveDialCredit } from './dial-credit';
import { agentDialNumber, checkAgentDial, checkCapsInTx } from './dial-policy';

// An agent's dial (browser or bound phone): the dial policy (dial-policy.ts), the line's state,
// then the record and the line's dial. A refusal of the dial policy is logged (外呼拦截记录).

const { CALL_STATE, CHANNEL } = repo;
type Channel = (typeof CHANNEL)[keyof typeof CHANNEL];

type Placed = { call: repo.CallRecord; customer: CustomerRecord | undefined; isMasked: boolean; sip: SipRow };

type PlaceOptions = {
  isBlacklistDiscarded?: boolean;
  /**
   * a task's dial: the customer its number belongs to (issue 22). The call is his whether or not the
   * agent may see him, so every surface masks the number by his rule (a colleague's: always).
   */
  taskCustomerId?: number | null;
};

const placeCall = (rt: CallRuntime, actor: Actor, body: DialBody, channel: Channel, opts: PlaceOptions = {}): Promise<Placed> => {
  const ctx: RefusalContext = {
    tenantId: actor.tenantId,
    origin: 0,
    staffId: actor.staffId,
    taskId: body.cmStid ?? 0,
    customerId: body.cmCtid,
    number: body.dstNumber,
  };
  return withRefusalLog(rt.db, ctx, () => placeChecked(rt, actor, body, channel, ctx, opts));
};

const placeChecked = async (
  rt: CallRuntime,
  actor: Actor,
  body: DialBody,
  channel: Channel,
  ctx: RefusalContext,
  opts: PlaceOptions,
): Promise<Placed> => {
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
  const dialled = await agentDialNumber(db, actor, body);
  const { number } = dialled;
  ctx.number = number;
  const named =
    dialled.customer ?? (opts.taskCustomerId ? await findCustomerRecord(db, actor.tenantId, opts.taskCustomerId) : undefined);

  if (channel === CHANNEL.sip) {
    const isRegistered = sip.registerStatus === REGISTER_STATUS.registered || sip.registerStatus === REGISTER_STATUS.busy;
    if (!isRegistered) throw new AppError('SIP_OFFLINE');
  } else {
    if (!sip.imei) throw new AppError('SIP_NO_DEVICE');
    if (sip.deviceOnline !== 1) throw new AppError('DEVICE_OFFLINE');
  }
  const at = now();
  const customer = await checkAgentDial(
    rt,
    actor,
    {
      number,
      customer: named,
      isTask: Boolean(body.cmStid),
      isBlacklistDiscarded: opts.isBlacklistDiscarded,
      endAbandoned: (c) => endCall(rt, c, HANGUP_SIDE.system, HANGUP_CAUSE.lockExpired),
    },
    at,
  );
  ctx.customerId = customer?.id;

  const placed = await db.transaction(async (tx) => {
    await lockSip(tx, sip.id);
    // a dial that raced this one through the lock check
    if ((await repo.activeCallsOf(tx, actor.staffId)).length > 0) throw new AppError('DIAL_LOCKED');
    await checkCapsInTx(tx, actor.tenantId, number, at);
    const uuid = randomUUID();
    // the company's credit (billing): held for this call, or 余额不足 (no rate plan: free)
    const credit = await reserveDialCredit(tx, {
      tenantId: actor.tenantId,
      callUuid: uuid,
      kind: body.cmStid ? 'task' : 'manual',
      at,
    });
    const row: repo.CallInsert = {
      uuid,
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
      // the call is this instance's: ended when it restarts or dies (call-instances.ts)
      ownerInstance: rt.instanceId,
    };
    await repo.insertCall(tx, row);
    await setCallState(tx, actor.tenantId, sip.id, {
      callStatus: CALL_STATUS.dialling,
      callType: CALL_TYPE.outbound,
      lastCallAt: at,
    });
    return { row: (await repo.findCall(tx, row.uuid)) as repo.CallRecord, credit };
  });
  const call = placed.row;
  rememberCreditLimit(call.uuid, placed.credit);

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

/**
 * A seat task's dial for its agent (issue 15, calltasks-runner.ts): through his own channel (his
 * extension, or his bound phone for a device account), every rule of an agent's dial.
 */
export const taskDial = async (
  rt: CallRuntime,
  actor: Actor,
  body: DialBody & { cmStid: number },
  opts: PlaceOptions & { taskCustomerId: number | null },
): Promise<repo.CallRecord> => {
  const member = await findStaffMember(rt.db, actor.tenantId, actor.staffId);
  const channel = member?.merchantType === 2 ? CHANNEL.device : CHANNEL.sip;
  return (await placeCall(rt, actor, body, channel, opts)).call;
};
