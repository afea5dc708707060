/** Places call legs: a customer's (through the dial policy, the record and the leg in one transaction) and an agent's (his default extension, joined to a waiting customer). */
import { randomUUID } from 'node:crypto';
import { CALL_STATUS, CALL_TYPE, HANGUP_CAUSE, HANGUP_SIDE, REGISTER_STATUS } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import { now } from '../../lib/clock';
import { deliver, publish } from '../../lib/events/events';
import { yearMonthOf } from '../../lib/time';
import type { BridgeMode, LegRole } from '../../telephony/control';
import { withRefusalLog } from '../compliance/dial-refusals';
import { findDefaultSip, setCallState } from '../extensions/extensions.service';
import type { CallRuntime } from './call-bus';
import { legEnded } from './call-control-events';
import * as legs from './call-legs.repo';
import * as repo from './calls.repo';
import { rememberCreditLimit, reserveDialCredit } from './dial-credit';
import { checkCapsInTx, checkServerDial, type ServerDial, type ServerDialRequest } from './dial-policy';

const { CALL_STATE } = repo;

/** How long an agent's browser rings for a waiting customer before the leg gives up. */
export const AGENT_RING_SECONDS = 30;

export type OriginateCustomerRequest = ServerDialRequest & {
  /** the leg's role: a customer (default) or a bot's outbound leg */
  role?: Exclude<LegRole, 'agent'>;
  /** the leg gives up (no_answer) after ringing this long */
  ringSeconds: number;
};

/**
 * Places a leg to a customer: the dial policy (company, number by customer id, SPEC §5, blacklist,
 * calling hours, caller number), then the call record and the leg, then the line. The number is
 * never returned: callers see the call through call/list, masked as the customer-access policy says.
 */
export const originateCustomerLeg = async (rt: CallRuntime, req: OriginateCustomerRequest) => {
  const ringSeconds = Math.max(1, Math.min(120, Math.round(req.ringSeconds)));
  const at = now();
  const ctx = {
    tenantId: req.tenantId,
    origin: 1 as const,
    staffId: req.actor?.staffId || null,
    taskId: req.taskId ?? 0,
    customerId: req.customerId,
    number: req.number,
  };
  const placed = await withRefusalLog(rt.db, ctx, async () => {
    const dial = await checkServerDial(rt.db, req, at);
    ctx.number = dial.number;
    ctx.customerId = dial.customer?.id;
    const ids = await insertCustomerLeg(rt, req, dial, at);
    return { dial, ...ids };
  });
  const { dial, legId, uuid, eventId } = placed;
  await deliver(rt.db, [eventId]);
  try {
    const target = { kind: 'number' as const, number: dial.number, callerId: dial.callerId };
    await rt.line.originate({ legId, target, ringSeconds, role: req.role ?? 'customer' });
  } catch {
    await legEnded(rt, legId, { at: now(), side: HANGUP_SIDE.system, cause: HANGUP_CAUSE.unreachable });
  }
  return { callUuid: uuid, legId, yearMonth: yearMonthOf(at), customerId: dial.customer?.id ?? 0 };
};

/** The call record (origin 1, no agent yet) and the customer leg, in one transaction that passes the per-number caps. */
const insertCustomerLeg = async (rt: CallRuntime, req: OriginateCustomerRequest, dial: ServerDial, at: Date) => {
  const uuid = randomUUID();
  const legId = randomUUID();
  const placed = await rt.db.transaction(async (tx) => {
    await checkCapsInTx(tx, req.tenantId, dial.number, at);
    // the company's credit (billing): a bot's leg is an AI call, any other server leg a group call
    const credit = await reserveDialCredit(tx, {
      tenantId: req.tenantId,
      callUuid: uuid,
      kind: req.role === 'bot' ? 'ai' : 'group',
      at,
    });
    await repo.insertCall(tx, {
      uuid,
      yearMonth: yearMonthOf(at),
      tenantId: req.tenantId,
      staffId: null,
      callType: CALL_TYPE.outbound,
      caller: dial.callerId,
      calledNumber: dial.number,
      customerId: dial.customer?.id ?? null,
      controlId: req.cbTacid ?? 0,
      taskId: req.taskId ?? 0,
      state: CALL_STATE.created,
      startAt: at,
      origin: repo.ORIGIN_SERVER,
    });
    const role = req.role ?? 'customer';
    await legs.insertLeg(tx, {
      id: legId,
      callUuid: uuid,
      tenantId: req.tenantId,
      role,
      targetKind: 'number',
      target: dial.number,
      createdAt: at,
      ownerInstance: rt.instanceId,
    });
    const eventId = await publish(tx, req.tenantId, 'call.leg', {
      kind: 'created',
      legId,
      callUuid: uuid,
      role,
      at: at.toISOString(),
    });
    return { eventId, credit };
  });
  rememberCreditLimit(uuid, placed.credit);
  return { uuid, legId, eventId: placed.eventId };
};

/** Rings the agent's default extension for a waiting customer leg; joined to it once he answers. */
export const placeAgentLeg = async (
  rt: CallRuntime,
  customerLegId: string,
  staffId: number,
  mode: BridgeMode,
  autoAnswer = false,
): Promise<string> => {
  const customerLeg = await legs.findLeg(rt.db, customerLegId);
  if (!customerLeg || customerLeg.state === CALL_STATE.ended || !rt.line.isActive(customerLegId)) {
    throw new AppError('CALL_LEG_NOT_FOUND');
  }
  const sipRow = await findDefaultSip(rt.db, customerLeg.tenantId, staffId);
  if (!sipRow) throw new AppError('SIP_NO_DEFAULT');
  const { sip } = sipRow;
  if (sip.actionState !== 0) throw new AppError('SIP_DISABLED');
  const isRegistered = sip.registerStatus === REGISTER_STATUS.registered || sip.registerStatus === REGISTER_STATUS.busy;
  if (!isRegistered) throw new AppError('SIP_OFFLINE');
  if ((await repo.activeCallsOf(rt.db, staffId)).length > 0) throw new AppError('SIP_IN_CALL');
  const legId = randomUUID();
  const at = now();
  const eventId = await rt.db.transaction(async (tx) => {
    await legs.insertLeg(tx, {
      id: legId,
      callUuid: customerLeg.callUuid,
      tenantId: customerLeg.tenantId,
      role: 'agent',
      targetKind: 'extension',
      target: sip.user,
      staffId,
      createdAt: at,
      ownerInstance: rt.instanceId,
    });
    await setCallState(tx, customerLeg.tenantId, sip.id, {
      callStatus: CALL_STATUS.dialling,
      callType: CALL_TYPE.inbound,
      lastCallAt: at,
    });
    return publish(tx, customerLeg.tenantId, 'call.leg', {
      kind: 'created',
      legId,
      callUuid: customerLeg.callUuid,
      role: 'agent',
      at: at.toISOString(),
    });
  });
  await deliver(rt.db, [eventId]);
  // the browser sees the call uuid as the caller, never the customer's number
  const target = { kind: 'extension' as const, user: sip.user, callerId: customerLeg.callUuid, callUuid: customerLeg.callUuid };
  if (autoAnswer) {
    rt.control.autoAnswer ??= new Set();
    rt.control.autoAnswer.add(legId);
  }
  try {
    await rt.line.originate({ legId, target, ringSeconds: AGENT_RING_SECONDS, bridgeTo: { legId: customerLegId, mode } });
  } catch {
    await legEnded(rt, legId, { at: now(), side: HANGUP_SIDE.system, cause: HANGUP_CAUSE.unreachable });
  }
  return legId;
};
