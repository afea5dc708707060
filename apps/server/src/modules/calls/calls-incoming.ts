import { randomUUID } from 'node:crypto';
import { CALL_STATUS, CALL_TYPE, type SimIncomingBody, type SimIncomingResponse } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { normalisePhone } from '../../lib/phone';
import { yearMonthOf } from '../../lib/time';
import { findCustomerForIncoming } from '../customers/customers.service';
import { findSipById, findStaffMember, setCallState } from '../extensions/extensions.service';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';

const { CHANNEL } = repo;

/** Opens the record of a call ringing an extension (sim or sip line), matched to a customer of its staff. */
export const openInboundCall = async (
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
      // the call is this instance's: ended when it restarts or dies (call-instances.ts)
      ownerInstance: rt.instanceId,
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
