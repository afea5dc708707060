import type { CallRuntime } from '../calls/call-bus';
import { originateCustomerLeg } from '../calls/call-control';
import * as runner from './calltasks-runner.repo';
import type { NumberRow, TaskRow } from './task-core';

/** The legs the server places for the claimed numbers of tasks with no agent dialling (group and AI tasks). */

/** How long a task's customer leg rings before it gives up. */
const RING_SECONDS = 30;

/**
 * Places the leg of a claimed number (a customer leg of a group task, a bot leg of an AI task)
 * through call control's dial policy; the number keeps the call and its customer (the number's, or
 * the company's customer of the number the dial found). Rejects with the dial policy's refusal.
 */
export const placeNumberLeg = async (rt: CallRuntime, task: TaskRow, n: NumberRow, role: 'customer' | 'bot') => {
  const leg = await originateCustomerLeg(rt, {
    tenantId: task.tenantId,
    number: n.phone,
    taskId: task.id,
    linkCustomerId: n.customerId,
    role,
    ringSeconds: RING_SECONDS,
  });
  const customerId = n.customerId ?? (leg.customerId || null);
  await runner.updateNumber(rt.db, task.tenantId, n.id, { lastCallUuid: leg.callUuid, customerId });
  return { legId: leg.legId, callUuid: leg.callUuid, customerId };
};
