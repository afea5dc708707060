import { CALLTASK_MSG_TYPE } from '@crm/contracts';
import { staffChannel } from '../../lib/pubsub';
import type { CallRuntime, StaffMessage } from '../calls/call-bus';
import * as repo from './calltasks.repo';
import { progressOf } from './calltasks-lists';

/**
 * A task's progress (SPEC §4 msg_type 7) to its agents and its creator, after each change that
 * committed. The frame carries counters only (no number, no customer), the same for every viewer.
 */
export const publishTaskProgress = async (rt: Pick<CallRuntime, 'db' | 'bus'>, tenantId: number, taskId: number) => {
  const data = await progressOf(rt.db, tenantId, taskId);
  if (!data) return;
  const message: StaffMessage = { kind: 'frame', frame: { code: 0, msg_type: CALLTASK_MSG_TYPE, msg: '任务进度', data } };
  for (const staffId of await repo.taskAudience(rt.db, taskId)) await rt.bus.publish(staffChannel(staffId), message);
};
