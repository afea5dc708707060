import { CALL_TYPE } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import * as legs from './call-legs.repo';
import * as repo from './calls.repo';
import type { DialCreditKind } from './dial-credit';

// What billing reads of calls (issue 27): the ended call record it rates, through this file, never
// calls' tables. Billing is above calls; calls never asks billing anything but through dial-credit.ts.

export type CallForRating = {
  uuid: string;
  tenantId: number;
  kind: DialCreditKind;
  staffId: number | null;
  departmentId: number | null;
  taskId: number;
  customerId: number | null;
  callType: number;
  /** the line / caller number */
  caller: string;
  /** the customer's number (raw: billing masks it per the customer-access policy when shown) */
  callee: string;
  startAt: Date;
  answerAt: Date | null;
  endAt: Date;
  /** seconds from answer to hang-up (0 when never answered) */
  billsec: number;
};

/**
 * The kind a call is priced as: 呼入 (incoming), an agent's own dial (manual, or task when it
 * belongs to a seat task), a server call with a bot leg (ai) or without (group: the customer leg
 * the server placed, an agent bridged to it).
 */
const kindOf = async (db: DbOrTx, call: repo.CallRecord): Promise<DialCreditKind> => {
  if (call.callType === CALL_TYPE.inbound) return 'inbound';
  if (call.origin !== repo.ORIGIN_SERVER) return call.taskId > 0 ? 'task' : 'manual';
  const callLegs = await legs.legsOfCall(db, call.uuid);
  return callLegs.some((l) => l.role === 'bot') ? 'ai' : 'group';
};

/** An ended call of the company, as billing rates it; undefined while it is not ended (or not the company's). */
export const endedCallForRating = async (db: DbOrTx, tenantId: number, uuid: string): Promise<CallForRating | undefined> => {
  const call = await repo.findTenantCall(db, tenantId, uuid);
  if (!call || call.state !== repo.CALL_STATE.ended || !call.endAt) return undefined;
  return {
    uuid: call.uuid,
    tenantId: call.tenantId,
    kind: await kindOf(db, call),
    staffId: call.staffId,
    departmentId: call.departmentId,
    taskId: call.taskId,
    customerId: call.customerId,
    callType: call.callType,
    caller: call.caller,
    callee: call.calledNumber,
    startAt: call.startAt,
    answerAt: call.answerAt,
    endAt: call.endAt,
    billsec: call.billsec,
  };
};
