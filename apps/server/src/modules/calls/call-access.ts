import type { DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { type CustomerPlace, canSee, isCallNumberMasked, type Viewer, viewerOf } from '../customers/customer-access';
import type { findCustomerRecord } from '../customers/customers.service';
import { findCallByRecordingFile } from './calls.repo';

/** A customer as the customers service hands him to the calls module (findCustomerRecord). */
export type CustomerRecord = NonNullable<Awaited<ReturnType<typeof findCustomerRecord>>>;

/**
 * Who may hear a recording (issue 11): the staff whose calls the caller may list (data scope),
 * or anyone who may see the call's customer now (its follow history shows the call).
 * Undefined when the file is no call's recording. `downloadName` carries no number.
 */
export const recordingAccess = async (db: DbOrTx, actor: Actor, fileId: number) => {
  const found = await findCallByRecordingFile(db, actor.tenantId, fileId);
  if (!found) return undefined;
  const { call } = found;
  const downloadName = `录音_${formatDateTime(call.startAt).replace(/[-: ]/g, '')}.wav`;
  const viewer = await viewerOf(db, actor);
  const isStaffInScope = viewer.scope === null || (call.staffId !== null && viewer.scope.includes(call.staffId));
  const hasCustomer = found.customerOwnerId !== null || found.customerPoolId !== null;
  const isCustomerVisible = hasCustomer && canSee(viewer, { ownerId: found.customerOwnerId, poolId: found.customerPoolId });
  return { isAllowed: isStaffInScope || isCustomerVisible, downloadName };
};

/**
 * Whether a call's number reaches this viewer masked, decided now by the customer-access policy
 * (isNumberMasked): the rule of the customer the call belongs to (private or pool, in sight or not,
 * gone), else of a task's number or an incoming caller; a number the agent typed himself is his.
 */
export const isNumberMaskedFor = (
  v: Viewer,
  call: { callType: number; taskId?: number | null; customerId: number | null },
  customer: CustomerPlace | undefined,
) => isCallNumberMasked(v, { callType: call.callType, taskId: call.taskId, customerId: call.customerId, customer });
