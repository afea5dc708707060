/**
 * Tasks as lead search (modules/leads, 加入任务) feeds them: numbers appended to a seat task, a
 * group call or an AI task the caller manages and that has not ended, after the numbers it
 * already holds (a number twice in a task is kept once; blacklisted numbers skipped when the task
 * filters them, as at import).
 */
import { CALLTASK_MODE, CALLTASK_STATUS, TASK_BLACK_FILTER, TASK_NUMBER_STATE } from '@crm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { callTaskNumbers } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { blacklistedNumbers } from '../blacklist/blacklist.service';
import { customersByPhone } from '../customers/customers-for-calltasks';
import { requireManagedTaskOf } from './calltasks.service';

const MODES = { seat: CALLTASK_MODE.seat, group: CALLTASK_MODE.group, ai: CALLTASK_MODE.ai } as const;

/** Appends normalized numbers; answers how many were added and how many the task already had or skips. */
export const appendTaskNumbers = async (db: Db, actor: Actor, kind: keyof typeof MODES, taskId: number, phones: string[]) => {
  const task = await requireManagedTaskOf(db, actor, taskId, MODES[kind]);
  if (task.status === CALLTASK_STATUS.completed || task.status === CALLTASK_STATUS.stopped)
    throw new AppError('CALLTASK_NOT_FOUND', '任务已结束，不能再添加号码');
  const unique = [...new Set(phones)];
  const owners = await customersByPhone(db, actor.tenantId, unique);
  const black = task.blackState === TASK_BLACK_FILTER ? await blacklistedNumbers(db, actor.tenantId, unique) : new Set<string>();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, hashtext(${`task-numbers:${taskId}`}))`);
    const [last] = await tx
      .select({ seq: sql<number>`coalesce(max(${callTaskNumbers.seq}), -1)::int` })
      .from(callTaskNumbers)
      .where(and(eq(callTaskNumbers.tenantId, actor.tenantId), eq(callTaskNumbers.taskId, taskId)));
    const from = Number(last?.seq ?? -1) + 1;
    const rows = unique.map((phone, i) => ({
      tenantId: actor.tenantId,
      taskId,
      customerId: owners.get(phone) ?? null,
      phone,
      seq: from + i,
      state: black.has(phone) ? TASK_NUMBER_STATE.skipped : TASK_NUMBER_STATE.pending,
      lastCode: black.has(phone) ? 'blacklist' : '',
    }));
    let added = 0;
    for (let i = 0; i < rows.length; i += 1000) {
      const inserted = await tx
        .insert(callTaskNumbers)
        .values(rows.slice(i, i + 1000))
        .onConflictDoNothing()
        .returning({ id: callTaskNumbers.id });
      added += inserted.length;
    }
    return { added, skipped: unique.length - added };
  });
};
