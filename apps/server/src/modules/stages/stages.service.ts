import type { Stage, StageBody, StageEditBody } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { dictionaryFields, dictionaryRules } from '../../lib/tenant-dictionary';
import { stageUsage } from './stage-usage';
import * as repo from './stages.repo';

const rules = dictionaryRules(repo.stageTable, { nameTaken: 'STAGE_NAME_TAKEN', notFound: '阶段不存在' });

/** Stages in order (the stage bar and the settings page). */
export const listStages = async (db: Db, actor: Actor, actionState?: number): Promise<Stage[]> => {
  const [rows, counts] = await Promise.all([
    repo.listStages(db, actor.tenantId, actionState),
    stageUsage.get().countsBy(db, actor.tenantId),
  ]);
  return rows.map((stage) => ({
    cmNid: stage.id,
    ...dictionaryFields(stage),
    customerNum: counts.get(stage.id) ?? 0,
  }));
};

export const createStage = (db: Db, actor: Actor, body: StageBody): Promise<number> => rules.create(db, actor.tenantId, body);

export const editStage = (db: Db, actor: Actor, body: StageEditBody): Promise<void> =>
  rules.edit(db, actor.tenantId, body.cmNid, { name: body.name, sortNum: body.sortNum, actionState: body.actionState });

/** A stage that live customers sit in cannot be deleted (disable it instead). */
export const deleteStage = async (db: Db, actor: Actor, id: number): Promise<void> => {
  await rules.requireEntry(db, actor.tenantId, id);
  if ((await stageUsage.get().countIn(db, actor.tenantId, id)) > 0) throw new AppError('STAGE_IN_USE');
  await db.transaction(async (tx) => {
    // Soft-deleted customers may still point at it: detach them, they keep their history.
    await stageUsage.get().detach?.(tx, actor.tenantId, id);
    await repo.deleteStage(tx, actor.tenantId, id);
  });
};

/** An enabled stage of the company, or an error (follow-ups and allocation use it). */
export const requireEnabledStage = async (db: DbOrTx, tenantId: number, id: number) => {
  const row = await repo.findStage(db, tenantId, id);
  if (row?.actionState !== 0) throw new AppError('NOT_FOUND', '所选阶段不存在或已禁用');
  return row;
};

/** Every id is a stage of the company (enabled or not): rules that name stages (pool recycling) use it. */
export const requireStages = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  for (const id of new Set(ids)) {
    if (!(await repo.findStage(db, tenantId, id))) throw new AppError('NOT_FOUND', '所选阶段不存在');
  }
};

/** The company's stage of that name, enabled or not (the 成交 stage an approved deal order moves its customer to). */
export const findStageByName = (db: DbOrTx, tenantId: number, name: string) => repo.findStageByName(db, tenantId, name);
