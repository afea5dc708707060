import type { Stage, StageBody, StageEditBody } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import * as repo from './stages.repo';

/** Stages in order (the stage bar and the settings page). */
export const listStages = async (db: Db, actor: Actor, actionState?: number): Promise<Stage[]> => {
  const rows = await repo.listStages(db, actor.tenantId, actionState);
  return rows.map(({ stage, customerNum }) => ({
    cmNid: stage.id,
    name: stage.name,
    sortNum: stage.sortNum,
    actionState: stage.actionState,
    customerNum,
    createTime: formatDateTime(stage.createdAt),
  }));
};

export const createStage = async (db: Db, actor: Actor, body: StageBody): Promise<number> => {
  if (await repo.nameTaken(db, actor.tenantId, body.name)) throw new AppError('STAGE_NAME_TAKEN');
  return repo.insertStage(db, { tenantId: actor.tenantId, ...body });
};

export const editStage = async (db: Db, actor: Actor, body: StageEditBody): Promise<void> => {
  if (!(await repo.findStage(db, actor.tenantId, body.cmNid))) throw new AppError('NOT_FOUND', '阶段不存在');
  if (await repo.nameTaken(db, actor.tenantId, body.name, body.cmNid)) throw new AppError('STAGE_NAME_TAKEN');
  await repo.updateStage(db, actor.tenantId, body.cmNid, {
    name: body.name,
    sortNum: body.sortNum,
    actionState: body.actionState,
  });
};

/** A stage that live customers sit in cannot be deleted (disable it instead). */
export const deleteStage = async (db: Db, actor: Actor, id: number): Promise<void> => {
  if (!(await repo.findStage(db, actor.tenantId, id))) throw new AppError('NOT_FOUND', '阶段不存在');
  if ((await repo.countCustomers(db, actor.tenantId, id)) > 0) throw new AppError('STAGE_IN_USE');
  await db.transaction((tx) => repo.deleteStage(tx, actor.tenantId, id));
};

/** An enabled stage of the company, or an error (follow-ups and allocation use it). */
export const requireEnabledStage = async (db: DbOrTx, tenantId: number, id: number) => {
  const row = await repo.findStage(db, tenantId, id);
  if (!row || row.actionState !== 0) throw new AppError('NOT_FOUND', '所选阶段不存在或已禁用');
  return row;
};

/** Every id is a stage of the company (enabled or not): rules that name stages (pool recycling) use it. */
export const requireStages = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  for (const id of new Set(ids)) {
    if (!(await repo.findStage(db, tenantId, id))) throw new AppError('NOT_FOUND', '所选阶段不存在');
  }
};
