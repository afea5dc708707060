import type { CalltaskOutcomeBody } from '@crm/contracts';
import type { Actor } from '../../lib/auth-context';
import type { CallRuntime } from '../calls/call-bus';
import * as service from './calltasks.service';
import { recordOutcome } from './calltasks-outcome';
import { publishTaskProgress } from './calltasks-progress';
import { runAgent } from './calltasks-runner';

// The task actions that change what its agents and creator see (issue 15): each tells them over
// the socket (msg_type 7) once committed; `work` dials the agent's first number at once.

export const moveTask = async (rt: CallRuntime, actor: Actor, id: number, move: service.TaskMove) => {
  await service.moveTask(rt.db, actor, id, move);
  await publishTaskProgress(rt, actor.tenantId, id);
};

/** work: the agent starts working the task; returns 1 when his first call was placed now. */
export const work = async (rt: CallRuntime, actor: Actor, id: number) => {
  await service.startWork(rt.db, actor, id);
  const r = await runAgent(rt, id, actor.tenantId, actor.staffId);
  await publishTaskProgress(rt, actor.tenantId, id);
  return { isDialled: r === 'dialled' ? 1 : 0 };
};

export const outcome = async (rt: CallRuntime, actor: Actor, body: CalltaskOutcomeBody) => {
  await recordOutcome(rt.db, actor, body);
  await publishTaskProgress(rt, actor.tenantId, body.cmStid);
};
