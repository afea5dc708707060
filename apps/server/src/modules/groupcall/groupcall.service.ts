import {
  CALLTASK_MODE,
  type CalltaskListBody,
  type GroupcallCreateBody,
  type GroupcallEditBody,
  type GroupcallRow,
  type ListData,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import * as seat from '../calltasks/calltasks.service';
import { requireVisibleTaskOf, rowsOf } from '../calltasks/calltasks-lists';
import { listTaskIds, setKindSettings, taskRowsByIds } from '../calltasks/task-core';
import { countersOf } from './groupcall-agents';

// Group-call tasks (人工群呼, issue 15) are call tasks with mode 1: created, edited, moved and
// worked through the seat-task services (one set of rules), plus their line limit and abandon
// target; their list shows only them, with the live figures.

/** A group task the caller may see (its creator in his scope, or one he works). */
export const requireGroupTask = (db: DbOrTx, actor: Actor, id: number) =>
  requireVisibleTaskOf(db, actor, id, CALLTASK_MODE.group, 'GROUPCALL_NOT_FOUND');

/** A group task the caller manages. */
const requireManagedGroupTask = (db: DbOrTx, actor: Actor, id: number) =>
  seat.requireManagedTaskOf(db, actor, id, CALLTASK_MODE.group, 'GROUPCALL_NOT_FOUND');

export const createGroupTask = async (db: Db, actor: Actor, body: GroupcallCreateBody) => {
  const { maxLines, abandonTarget, ...rest } = body;
  return db.transaction(async (tx) => {
    // the seat task's rules and rows, in this transaction (a savepoint), then its group settings
    const id = await seat.createTask(tx as unknown as Db, actor, rest);
    await setKindSettings(tx, actor.tenantId, id, { mode: CALLTASK_MODE.group, maxLines, abandonTarget });
    return id;
  });
};

export const editGroupTask = async (db: Db, actor: Actor, body: GroupcallEditBody) => {
  const { maxLines, abandonTarget, ...rest } = body;
  await requireManagedGroupTask(db, actor, body.cmStid);
  return db.transaction(async (tx) => {
    await seat.editTask(tx as unknown as Db, actor, rest);
    await setKindSettings(tx, actor.tenantId, body.cmStid, { maxLines, abandonTarget });
    return body.cmStid;
  });
};

export const requireManaged = requireManagedGroupTask;

export const listGroupTasks = async (db: Db, actor: Actor, f: CalltaskListBody): Promise<ListData<GroupcallRow>> => {
  const { ids, count } = await listTaskIds(db, actor, f, CALLTASK_MODE.group);
  if (ids.length === 0) return { list: [], count };
  const [rows, found, counted] = await Promise.all([
    rowsOf(db, actor.tenantId, ids),
    taskRowsByIds(db, actor.tenantId, ids),
    countersOf(db, actor.tenantId, ids),
  ]);
  const byId = new Map(found.map((t) => [Number(t.id), t]));
  const countedById = new Map(counted.map((c) => [Number(c.task_id), c]));
  return {
    list: rows.map((r) => {
      const c = countedById.get(r.cmStid);
      const t = byId.get(r.cmStid) as Record<string, unknown> | undefined;
      return {
        ...r,
        maxLines: Number(t?.max_lines ?? 0),
        abandonTarget: Number(t?.abandon_target ?? 0),
        answered: Number(c?.answered ?? 0),
        abandoned: Number(c?.abandoned ?? 0),
        connected: Number(c?.connected ?? 0),
      };
    }),
    count,
  };
};

/**
 * work: the agent works the group task; his default extension rings for the customers it reaches
 * (an agent whose line cannot ring is passed over at that moment, and the customer waits for another).
 */
export const startWork = async (db: Db, actor: Actor, id: number) => {
  await requireGroupTask(db, actor, id);
  await seat.startWork(db, actor, id);
};

export const stopWork = async (db: Db, actor: Actor, id: number) => {
  await requireGroupTask(db, actor, id);
  await seat.stopWork(db, actor, id);
};
