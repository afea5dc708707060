import {
  type AicallCreateBody,
  type AicallEditBody,
  type AicallRow,
  CALLTASK_MODE_AI,
  type CalltaskListBody,
  type ListData,
} from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { publishedFlow } from '../aibot/aibot.service';
import * as tasks from '../calltasks/calltasks.repo';
import * as seat from '../calltasks/calltasks.service';
import { requireVisibleTaskOf, rowsOf } from '../calltasks/calltasks-lists';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './aicall-tasks.repo';

// AI tasks (AI外呼, issue 16) are call tasks with mode 2: created, edited, moved and listed through
// the seat-task services (one set of rules: windows, redial, blacklist, the last-attempt pool),
// plus their 话术 flow (published), line limit and the grades that go into the CRM with their
// assignment rule. The calls are the bot's (aicall-runner.ts); the agents take 转人工 only.

/** An AI task the caller may see (created in his scope, or one he takes 转人工 for). */
export const requireAiTask = (db: DbOrTx, actor: Actor, id: number) =>
  requireVisibleTaskOf(db, actor, id, CALLTASK_MODE_AI, 'AICALL_NOT_FOUND');

/** An AI task the caller manages (its creator is in his data scope). */
export const requireManagedAiTask = (db: DbOrTx, actor: Actor, id: number) =>
  seat.requireManagedTaskOf(db, actor, id, CALLTASK_MODE_AI, 'AICALL_NOT_FOUND');

/** The flow must be the company's and published (its calls take the last published version). */
const requirePublished = async (db: DbOrTx, tenantId: number, flowId: number) => {
  if (!(await repo.flowExists(db, tenantId, flowId))) throw new AppError('AIBOT_FLOW_NOT_FOUND');
  if (!(await publishedFlow(db, tenantId, flowId))) throw new AppError('AICALL_FLOW_UNPUBLISHED');
};

const aiSettingsOf = (b: Pick<AicallCreateBody, 'flowId' | 'maxLines' | 'assignGrades' | 'assignRule'>) => ({
  mode: CALLTASK_MODE_AI,
  flowId: b.flowId,
  maxLines: b.maxLines,
  assignGrades: [...b.assignGrades],
  assignRule: b.assignRule,
});

export const createAiTask = async (db: Db, actor: Actor, body: AicallCreateBody) => {
  const { flowId, maxLines, assignGrades, assignRule, ...rest } = body;
  await requirePublished(db, actor.tenantId, flowId);
  return db.transaction(async (tx) => {
    // the seat task's rules and rows (numbers imported with the blacklist), then its AI settings
    const id = await seat.createTask(tx as unknown as Db, actor, rest);
    await tasks.updateTask(tx, actor.tenantId, id, aiSettingsOf(body));
    return id;
  });
};

export const editAiTask = async (db: Db, actor: Actor, body: AicallEditBody) => {
  const { flowId, maxLines, assignGrades, assignRule, ...rest } = body;
  await requireManagedAiTask(db, actor, body.cmStid);
  await requirePublished(db, actor.tenantId, flowId);
  return db.transaction(async (tx) => {
    await seat.editTask(tx as unknown as Db, actor, rest);
    await tasks.updateTask(tx, actor.tenantId, body.cmStid, aiSettingsOf(body));
    return body.cmStid;
  });
};

/** The seat-task rows of AI tasks with their flow, lines in use and grades (counted from the AI calls). */
export const aiRowsOf = async (db: DbOrTx, tenantId: number, ids: number[]): Promise<AicallRow[]> => {
  if (ids.length === 0) return [];
  const [rows, found, grades, lines] = await Promise.all([
    rowsOf(db, tenantId, ids),
    repo.aiTasksByIds(db, tenantId, ids),
    repo.gradesOf(db, tenantId, ids),
    repo.linesByTask(db, tenantId, ids),
  ]);
  const byId = new Map(found.map((t) => [Number(t.id), t]));
  return rows.map((r) => {
    const t = byId.get(r.cmStid);
    return {
      ...r,
      flowId: Number(t?.flow_id ?? 0),
      flowName: String(t?.flow_name ?? ''),
      maxLines: Number(t?.max_lines ?? 0),
      assignGrades: (t?.assign_grades as string[] | undefined) ?? [],
      assignRule: String(t?.assign_rule ?? ''),
      linesInUse: lines.get(r.cmStid) ?? 0,
      grades: grades.get(r.cmStid) ?? repo.emptyGrades(),
    };
  });
};

export const listAiTasks = async (db: Db, actor: Actor, f: CalltaskListBody): Promise<ListData<AicallRow>> => {
  const scope = await scopeStaffIds(db, actor);
  let where = sql`${tasks.taskScopeSql(actor.tenantId, scope, actor.staffId, f.isMine === 1)} and t.mode = ${CALLTASK_MODE_AI}`;
  if (f.name) where = sql`${where} and t.name like ${`%${f.name.replace(/[\\%_]/g, '\\$&')}%`}`;
  if (f.status !== undefined) where = sql`${where} and t.status = ${f.status}`;
  const [idRows, count] = await Promise.all([
    tasks.listTasks(db, where, f.limit, (f.page - 1) * f.limit),
    tasks.countTasks(db, where),
  ]);
  return {
    list: await aiRowsOf(
      db,
      actor.tenantId,
      idRows.map((r) => Number(r.id)),
    ),
    count,
  };
};

export const aiTaskDetail = async (db: Db, actor: Actor, id: number) => {
  await requireAiTask(db, actor, id);
  const [row] = await aiRowsOf(db, actor.tenantId, [id]);
  return row;
};
