import { CALL_MSG_TYPE, CALL_STATUS, CALL_TYPE, type CallEvent, type CallProgress, HANGUP_CAUSE_LABEL } from '@crm/contracts';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { deviceChannel, staffChannel } from '../../lib/pubsub';
import { formatDateTime } from '../../lib/time';
import { canSee, showPhone } from '../customers/customer-access';
import { findCustomerRecord, viewerOf } from '../customers/customers.service';
import { type CustomerRecord, isNumberMaskedFor } from './call-access';
import type { CallRuntime, DeviceMessage, StaffMessage } from './call-bus';
import type * as repo from './calls.repo';
import { ORIGIN_SERVER } from './calls.repo';

// What the calls module publishes after the commit (DESIGN §5): progress and error frames on the
// staff's channel, commands on a device's channel; and a progress frame as it reaches one viewer.

/** A progress frame as its staff may see it at the moment it is sent (the call socket asks per frame). */
export const progressFor = async (rt: CallRuntime, actor: Actor, progress: CallProgress): Promise<CallProgress> => {
  const v = await viewerOf(rt.db, actor);
  const customer = progress.cmCtid ? await findCustomerRecord(rt.db, actor.tenantId, progress.cmCtid) : undefined;
  const isMasked = isNumberMaskedFor(
    v,
    { callType: progress.callType, taskId: progress.cmStid, customerId: progress.cmCtid || null },
    customer,
  );
  // A customer out of the caller's sight is not named (an incoming call may match another staff's customer).
  const isNamed = customer !== undefined && canSee(v, customer);
  return {
    ...progress,
    ...(isMasked ? { phone: showPhone(true, progress.phone), encryptPhone: 1 } : {}),
    ...(isNamed ? {} : { cmCtid: 0, cmAtid: 0, name: '' }),
  };
};

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

/**
 * A progress frame to the call's agent (none yet: nobody hears it), or to `toStaffId`: the agent a
 * server call rings before it is his. A server call reaches its agent as an incoming call does
 * (msg_type 5): it rings his browser, which pops the customer; `autoAnswer` (a group dialer's
 * put-through to an agent in work mode, issue 23): his phone answers it at once, with a short tone.
 */
export const publishProgress = async (
  rt: CallRuntime,
  call: repo.CallRecord,
  event: CallEvent,
  toStaffId?: number,
  options: { autoAnswer?: boolean } = {},
) => {
  const staffId = toStaffId ?? call.staffId;
  if (staffId === null) return;
  const customer = call.customerId ? await findCustomerRecord(rt.db, call.tenantId, call.customerId) : undefined;
  const isIncoming = call.callType === CALL_TYPE.inbound || call.origin === ORIGIN_SERVER;
  const message: StaffMessage = {
    kind: 'progress',
    msgType: isIncoming ? CALL_MSG_TYPE.incoming : CALL_MSG_TYPE.dialProgress,
    msg: EVENT_MSG[event],
    progress: { ...progressOf(call, event, customer), ...(options.autoAnswer ? { autoAnswer: 1 } : {}) },
  };
  await rt.bus.publish(staffChannel(staffId), message);
};

export const publishError = (rt: CallRuntime, staffId: number, code: number, msg: string, data: unknown = null) =>
  rt.bus.publish(staffChannel(staffId), {
    kind: 'frame',
    frame: { code, msg_type: CALL_MSG_TYPE.error, msg, data },
  } satisfies StaffMessage);

export const sendDevice = (rt: CallRuntime, imei: string, frame: DeviceMessage & { kind: 'command' }) =>
  rt.bus.publish(deviceChannel(imei), frame);
