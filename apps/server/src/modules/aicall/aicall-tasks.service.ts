import {
  type AicallCreateBody,
  type AicallEditBody,
  type AicallRow,
  CALLTASK_MODE,
  type CalltaskListBody,
  type ListData,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { flowExists, flowNames, publishedFlow } from '../aibot/aibot.service';
import { taskLines } from '../calls/calls-for-tasks';
import * as seat from '../calltasks/calltasks.service';
import { requireVisibleTaskOf, rowsOf } from '../calltasks/calltasks-lists';
import { listTaskIds, setKindSettings, taskRowsByIds } from '../calltasks/task-core';
import * as repo from './aicall-tasks.repo';

// AI tasks (AI外呼, issue 16) are call tasks with mode 2: created, edited, moved and listed through
// the seat-task services (one set of rules: windows, redial, blacklist, the last-attempt pool),
// plus their 话术 flow (published), line limit and the grades that go into the CRM with their
// assignment rule. The calls are the bot's (aicall-runner.ts); the agents take 转人工 only.

/** An AI task the caller may see (created in his scope, or one he takes 转人工 for). */
export const requireAiTask = (db: DbOrTx, actor: Actor, id: number) =>
  requireVisibleTaskOf(db, actor, id, CALLTASK_MODE.ai, 'AICALL_NOT_FOUND');

/** An AI task the caller manages (its creator is in his data scope). */
export const requireManagedAiTask = (db: DbOrTx, actor: Actor, id: number) =>
  seat.requireManagedTaskOf(db, actor, id, CALLTASK_MODE.ai, 'AICALL_NOT_FOUND');

/** The bot legs of the tasks not ended (ringing or in a call): each is one line in use. */
export const linesByTask = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  new Map([...(await taskLines(db, tenantId, ids, { role: 'bot' }))].map(([id, l]) => [id, l.lines]));

export const linesOf = async (db: DbOrTx, tenantId: number, taskId: number) =>
  (await linesByTask(db, tenantId, [taskId])).get(taskId) ?? 0;

/** The flow must be the company's and published (its calls take the last published version). */
const requirePublished = async (db: DbOrTx, tenantId: number, flowId: number) => {
  if (!(await flowExists(db, tenantId, flowId))) throw new AppError('AIBOT_FLOW_NOT_FOUND');
  if (!(await publishedFlow(db, tenantId, flowId))) throw new AppError('AICALL_FLOW_UNPUBLISHED');
};

const aiSettingsOf = (b: Pick<AicallCreateBody, 'flowId' | 'maxLines' | 'assignGrades' | 'assignRule'>) => ({
  mode: CALLTASK_MODE.ai,
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
    await setKindSettings(tx, actor.tenantId, id, aiSettingsOf(body));
    return id;
  });
};

export const editAiTask = async (db: Db, actor: Actor, body: AicallEditBody) => {
  const { flowId, maxLines, assignGrades, assignRule, ...rest } = body;
  await requireManagedAiTask(db, actor, body.cmStid);
  await requirePublished(db, actor.tenantId, flowId);
  return db.transaction(async (tx) => {
    await seat.editTask(tx as unknown as Db, actor, rest);
    await setKindSettings(tx, actor.tenantId, body.cmStid, aiSettingsOf(body));
    return body.cmStid;
  });
};

/** The seat-task rows of AI tasks with their flow, lines in use and grades (counted from the AI calls). */
export const aiRowsOf = async (db: DbOrTx, tenantId: number, ids: number[]): Promise<AicallRow[]> => {
  if (ids.length === 0) return [];
  const [rows, found, grades, lines] = await Promise.all([
    rowsOf(db, tenantId, ids),
    taskRowsByIds(db, tenantId, ids),
    repo.gradesOf(db, tenantId, ids),
    linesByTask(db, tenantId, ids),
  ]);
  const byId = new Map(found.map((t) => [Number(t.id), t]));
  const names = await flowNames(
    db,
    tenantId,
    found.map((t) => Number(t.flow_id)),
  );
  return rows.map((r) => {
    const t = byId.get(r.cmStid);
    return {
      ...r,
      flowId: Number(t?.flow_id ?? 0),
      flowName: names.get(Number(t?.flow_id ?? 0)) ?? '',
      maxLines: Number(t?.max_lines ?? 0),
      assignGrades: (t?.assign_grades as string[] | undefined) ?? [],
      assignRule: String(t?.assign_rule ?? ''),
      linesInUse: lines.get(r.cmStid) ?? 0,
      grades: grades.get(r.cmStid) ?? repo.emptyGrades(),
    };
  });
};

export const listAiTasks = async (db: Db, actor: Actor, f: CalltaskListBody): Promise<ListData<AicallRow>> => {
  const { ids, count } = await listTaskIds(db, actor, f, CALLTASK_MODE.ai);
  return { list: await aiRowsOf(db, actor.tenantId, ids), count };
};

export const aiTaskDetail = async (db: Db, actor: Actor, id: number) => {
  await requireAiTask(db, actor, id);
  const [row] = await aiRowsOf(db, actor.tenantId, [id]);
  return row;
};
