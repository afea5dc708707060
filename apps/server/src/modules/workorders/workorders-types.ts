import { WORK_ORDER_LIMITS, type WorkType, type WorkTypeSaveBody } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { activeStaffIds } from '../staff/staff-lookup';
import * as repo from './workorders.repo';

/** 工单设置 (menu 139): the company's work-order types, each with ordered stages, a default handler and an SLA. */
export const WORK_SETTINGS_MENU = '/set/workorder';

export const presentStage = (s: repo.WorkStageRecord) => ({ id: s.id, name: s.name, sort: s.sort, rollback: s.rollback });

export const listTypes = async (db: Db, actor: Actor): Promise<WorkType[]> => {
  const types = await repo.listTypes(db, actor.tenantId);
  const stages = await repo.stagesOfTypes(
    db,
    actor.tenantId,
    types.map((t) => t.id),
  );
  return types.map((t) => ({
    id: t.id,
    name: t.name,
    default_handler_id: t.default_handler_id,
    default_handler_name: t.default_handler_name ?? '',
    sla_hours: t.sla_hours,
    stages: stages.filter((s) => s.typeId === t.id).map(presentStage),
    used: t.used,
    created_at: formatDateTime(t.created_at),
  }));
};

export const requireActiveStaff = async (db: Db, tenantId: number, staffId: number) => {
  if ((await activeStaffIds(db, tenantId, [staffId])).length !== 1) throw new AppError('WORK_HANDLER_INVALID');
};

const isUniqueViolation = (e: unknown) =>
  typeof e === 'object' && e !== null && ((e as { code?: string }).code === '23505' || /23505|unique/i.test(String(e)));

/**
 * typesave: a new type (at most 50) or an edit. Stages come in order; a stage with an id keeps it
 * (old work orders and events keep naming it), a stage left out is removed (soft) unless open work
 * orders stand in it, and no open work order may end up standing in the last stage (it would be
 * done without reaching it). The type row is the lock of its stages.
 */
export const saveType = async (db: Db, actor: Actor, body: WorkTypeSaveBody): Promise<number> => {
  const names = body.stages.map((s) => s.name);
  if (new Set(names).size !== names.length) throw new AppError('WORK_STAGE_NAME_DUP');
  await requireActiveStaff(db, actor.tenantId, body.default_handler_id);
  try {
    return await db.transaction(async (tx) => {
      const at = now();
      let typeId: number;
      if (body.id) {
        if (!(await repo.lockType(tx, actor.tenantId, body.id))) throw new AppError('WORK_TYPE_NOT_FOUND');
        typeId = body.id;
      } else if ((await repo.countTypes(tx, actor.tenantId)) >= WORK_ORDER_LIMITS.typesMax) {
        throw new AppError('WORK_TYPES_FULL');
      }
      if (await repo.typeNameTaken(tx, actor.tenantId, body.name, body.id ?? 0)) throw new AppError('WORK_TYPE_NAME_TAKEN');
      const set = { name: body.name, defaultHandlerId: body.default_handler_id, slaHours: body.sla_hours };
      if (body.id) {
        typeId = body.id;
        await repo.updateType(tx, actor.tenantId, typeId, set);
      } else {
        typeId = await repo.insertType(tx, { tenantId: actor.tenantId, ...set, createdAt: at });
      }
      const existing = body.id ? await repo.stagesOfTypes(tx, actor.tenantId, [typeId]) : [];
      const existingIds = new Set(existing.map((s) => s.id));
      const keptIds = body.stages.flatMap((s) => (s.id ? [s.id] : []));
      if (keptIds.some((id) => !existingIds.has(id)) || new Set(keptIds).size !== keptIds.length) {
        throw new AppError('VALIDATION', '阶段不存在，请刷新后重试');
      }
      const removed = existing.filter((s) => !keptIds.includes(s.id)).map((s) => s.id);
      if ((await repo.countOpen(tx, actor.tenantId, { stageIds: removed })) > 0) throw new AppError('WORK_STAGE_IN_USE');
      await repo.removeStages(tx, actor.tenantId, removed, at);
      let lastId = 0;
      for (const [i, s] of body.stages.entries()) {
        const row = { name: s.name, sort: i + 1, rollback: s.rollback };
        if (s.id) await repo.updateStage(tx, actor.tenantId, s.id, row);
        else s.id = await repo.insertStage(tx, { tenantId: actor.tenantId, typeId, ...row });
        lastId = s.id;
      }
      if ((await repo.countOpen(tx, actor.tenantId, { stageIds: [lastId] })) > 0) {
        throw new AppError('WORK_STAGE_IN_USE', '还有处理中的工单位于最后一个阶段，请先推进或调整阶段顺序');
      }
      return typeId;
    });
  } catch (e) {
    if (!(e instanceof AppError) && isUniqueViolation(e)) throw new AppError('WORK_TYPE_NAME_TAKEN');
    throw e;
  }
};

/** typedel: a type with open work orders stays; done ones keep naming it (soft delete). */
export const deleteType = async (db: Db, actor: Actor, id: number) =>
  db.transaction(async (tx) => {
    if (!(await repo.lockType(tx, actor.tenantId, id))) throw new AppError('WORK_TYPE_NOT_FOUND');
    if ((await repo.countOpen(tx, actor.tenantId, { typeId: id })) > 0) throw new AppError('WORK_TYPE_IN_USE');
    await repo.updateType(tx, actor.tenantId, id, { deletedAt: now() });
  });
