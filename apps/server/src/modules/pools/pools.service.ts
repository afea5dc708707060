import type {
  DiscardReason,
  DiscardReasonBody,
  DiscardReasonEditBody,
  Pool,
  PoolBody,
  PoolEditBody,
  PoolOption,
  PoolRules,
} from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { customerDeals } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { type DictionaryEntry, dictionaryFields, dictionaryRules } from '../../lib/tenant-dictionary';
import { formatDateTime } from '../../lib/time';
import { countPooledIn, pooledCounts } from '../customers/customers-for-pools';
import { departmentNames } from '../departments/departments.service';
import { requireTags } from '../labels/labels.service';
import { requireStages } from '../stages/stages.service';
import { visiblePoolIds } from './pool-visibility';
import * as repo from './pools.repo';

// ---------- discard reasons (/set/discard) ----------

const reasonRules = dictionaryRules(repo.reasonTable, { nameTaken: 'DISCARD_REASON_NAME_TAKEN', notFound: '丢弃理由不存在' });

const toReason = (r: DictionaryEntry): DiscardReason => ({ cmCdid: r.id, ...dictionaryFields(r) });

/** discardlist: every reason of the company in order (the settings page). */
export const listReasons = async (db: Db, actor: Actor, actionState?: number): Promise<DiscardReason[]> =>
  (await repo.listReasons(db, actor.tenantId, actionState)).map(toReason);

export const createReason = (db: Db, actor: Actor, body: DiscardReasonBody): Promise<number> =>
  reasonRules.create(db, actor.tenantId, body);

export const editReason = (db: Db, actor: Actor, body: DiscardReasonEditBody): Promise<void> =>
  reasonRules.edit(db, actor.tenantId, body.cmCdid, { name: body.name, sortNum: body.sortNum, actionState: body.actionState });

/** Pooled customers keep the reason text they were discarded with, so a reason can always be deleted. */
export const deleteReason = async (db: Db, actor: Actor, id: number): Promise<void> => {
  await reasonRules.requireEntry(db, actor.tenantId, id);
  await repo.deleteReason(db, actor.tenantId, id);
};

/** An enabled reason of the company, or DISCARD_REASON_REQUIRED. */
export const requireEnabledReason = async (db: DbOrTx, tenantId: number, id: number) => {
  const row = await repo.findReason(db, tenantId, id);
  if (row?.actionState !== 0) throw new AppError('DISCARD_REASON_REQUIRED');
  return row;
};

/** A reason of the company, enabled or not (a seat task names the reason its failed numbers are discarded with). */
export const findReason = (db: DbOrTx, tenantId: number, id: number) => repo.findReason(db, tenantId, id);

// ---------- pools (/set/highseas) ----------

const normaliseRules = (rules: PoolRules): PoolRules => ({
  recycle: {
    ...rules.recycle,
    cmNids: [...new Set(rules.recycle.cmNids)],
    cmClids: [...new Set(rules.recycle.cmClids)],
  },
  claim: { ...rules.claim },
});

/** highseaslist: the company's pools with departments, rules and customer counts. */
export const listPools = async (db: Db, actor: Actor, actionState?: number): Promise<Pool[]> => {
  const [rows, counts] = await Promise.all([repo.listPools(db, actor.tenantId, actionState), pooledCounts(db, actor.tenantId)]);
  const names = await departmentNames(
    db,
    actor.tenantId,
    rows.flatMap((pool) => pool.useDepartmentIds),
  );
  return rows.map((pool) => ({
    cmHsid: pool.id,
    name: pool.name,
    dmType: pool.dmType,
    useCmDids: pool.useDepartmentIds,
    useCmDidNames: pool.useDepartmentIds.map((id) => names.get(id) ?? '已删除部门'),
    useRules: pool.rules,
    sortNum: pool.sortNum,
    actionState: pool.actionState,
    customerNum: counts.get(pool.id) ?? 0,
    createTime: formatDateTime(pool.createdAt),
  }));
};

const checkDepartments = async (db: Db, tenantId: number, ids: number[]) => {
  const found = await departmentNames(db, tenantId, ids);
  if (found.size !== new Set(ids).size) throw new AppError('VALIDATION', '所选部门不存在');
};

/** The stages and tags a recycle rule names are the company's own. */
const checkRuleRefs = async (db: Db, tenantId: number, rules: PoolRules) => {
  await requireStages(db, tenantId, rules.recycle.cmNids);
  await requireTags(db, tenantId, rules.recycle.cmClids);
};

export const createPool = async (db: Db, actor: Actor, body: PoolBody): Promise<number> => {
  if (await repo.poolNameTaken(db, actor.tenantId, body.name)) throw new AppError('POOL_NAME_TAKEN');
  await checkDepartments(db, actor.tenantId, body.useCmDids);
  await checkRuleRefs(db, actor.tenantId, body.useRules);
  return repo.insertPool(db, {
    tenantId: actor.tenantId,
    name: body.name,
    dmType: body.dmType,
    useDepartmentIds: [...new Set(body.useCmDids)],
    rules: normaliseRules(body.useRules),
    sortNum: body.sortNum,
  });
};

export const editPool = async (db: Db, actor: Actor, body: PoolEditBody): Promise<void> => {
  if (!(await repo.findPool(db, actor.tenantId, body.cmHsid))) throw new AppError('NOT_FOUND', '公海不存在');
  if (await repo.poolNameTaken(db, actor.tenantId, body.name, body.cmHsid)) throw new AppError('POOL_NAME_TAKEN');
  await checkDepartments(db, actor.tenantId, body.useCmDids);
  await checkRuleRefs(db, actor.tenantId, body.useRules);
  await repo.updatePool(db, actor.tenantId, body.cmHsid, {
    name: body.name,
    dmType: body.dmType,
    useDepartmentIds: [...new Set(body.useCmDids)],
    rules: normaliseRules(body.useRules),
    sortNum: body.sortNum,
    actionState: body.actionState,
  });
};

/** A pool that still holds customers cannot be deleted (disable it instead). */
export const deletePool = async (db: Db, actor: Actor, id: number): Promise<void> => {
  if (!(await repo.findPool(db, actor.tenantId, id))) throw new AppError('NOT_FOUND', '公海不存在');
  if ((await countPooledIn(db, actor.tenantId, id)) > 0) throw new AppError('POOL_IN_USE');
  await repo.deletePool(db, actor.tenantId, id);
};

/** highseasvisiblelist: the enabled pools the caller may use (discard dialog, pool filter). */
export const visiblePools = async (db: Db, actor: Actor): Promise<PoolOption[]> => {
  const ids = await visiblePoolIds(db, actor);
  const [rows, counts] = await Promise.all([repo.listPools(db, actor.tenantId, 0), pooledCounts(db, actor.tenantId)]);
  return rows
    .filter((pool) => ids === null || ids.includes(pool.id))
    .map((pool) => ({ cmHsid: pool.id, name: pool.name, customerNum: counts.get(pool.id) ?? 0 }));
};

/** An enabled pool the caller may use, or POOL_NOT_AVAILABLE (请选择目标公海！). */
export const requireUsablePool = async (db: DbOrTx, actor: Actor, id: number) => {
  const pool = await repo.findPool(db, actor.tenantId, id);
  const ids = await visiblePoolIds(db, actor);
  if (pool?.actionState !== 0 || (ids !== null && !ids.includes(id))) throw new AppError('POOL_NOT_AVAILABLE');
  return pool;
};

// ---------- deal facts: the hook for the Orders issue ----------

/**
 * HOOK (Orders issue): call when an order of the customer is approved; recycling's
 * "N days without a deal" then counts from `at`.
 */
export const recordCustomerDeal = async (tx: DbOrTx, tenantId: number, customerId: number, at: Date) => {
  await tx
    .insert(customerDeals)
    .values({ customerId, tenantId, lastDealAt: at })
    .onConflictDoUpdate({
      target: customerDeals.customerId,
      set: { lastDealAt: sql`greatest(${customerDeals.lastDealAt}, ${at})` },
    });
};

/** HOOK (Orders issue): the number of the customer's orders awaiting approval; while above 0 it is never recycled. */
export const setPendingOrders = async (tx: DbOrTx, tenantId: number, customerId: number, pending: number) => {
  await tx
    .insert(customerDeals)
    .values({ customerId, tenantId, pendingOrders: pending })
    .onConflictDoUpdate({ target: customerDeals.customerId, set: { pendingOrders: pending } });
};

/** Demo company: a pool for everyone, one for 销售二部 only, and the usual discard reasons. */
export const seedDemoPools = async (db: Db, tenantId: number, departmentIds: { dept2: number }) => {
  const rules: PoolRules = {
    recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
    claim: { dailyMax: 20, cooldownDays: 3 },
  };
  await repo.insertPool(db, { tenantId, name: '公共公海', dmType: 1, useDepartmentIds: [], rules, sortNum: 1 });
  await repo.insertPool(db, {
    tenantId,
    name: '二部公海',
    dmType: 1,
    useDepartmentIds: [departmentIds.dept2],
    rules,
    sortNum: 2,
  });
  const reasons = ['客户无意向', '号码无效', '多次联系不上', '已在其他渠道成交', '黑名单'];
  for (const [i, name] of reasons.entries()) await repo.insertReason(db, { tenantId, name, sortNum: i + 1 });
};
