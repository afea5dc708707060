import {
  type CustomerStageBody,
  FOLLOW_SOURCE,
  FOLLOW_TYPE,
  type FollowCreateBody,
  type FollowListQuery,
  type FollowRecord,
  type ListData,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, onlyRefusal } from '../../lib/app-error';
import { type Actor, canDoAction } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { parseDateTime, startOfTodayShanghai } from '../../lib/time';
import {
  applyFollowUp,
  followControlValues,
  parseFollowControls,
  requireDetailFlag,
  requireVisibleCustomer,
  setCustomerStage,
  viewerOf,
} from '../customers/customers.service';
import { staffNames } from '../staff/staff-lookup';
import { requireEnabledStage } from '../stages/stages.service';
import { stageNames } from '../stages/stages-for-customers';
import * as repo from './follow-ups.repo';

const toUnix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);

/** followcreate (SPEC §4/§5): a written follow-up with stage, next appointment and follow controls. */
export const createFollow = async (db: Db, actor: Actor, body: FollowCreateBody): Promise<number> => {
  requireDetailFlag(actor, 'follow');
  const customer = await requireVisibleCustomer(db, actor, body.cmCtid);
  const at = now();
  const remark = body.remark.trim();
  const stage = body.cmNid ? await requireEnabledStage(db, actor.tenantId, body.cmNid) : undefined;
  let nextFollowAt: Date | undefined;
  if (body.nextFollowTime) {
    // SPEC §5: not before today, no seconds.
    nextFollowAt = new Date(Math.floor(body.nextFollowTime / 60) * 60_000);
    if (nextFollowAt < startOfTodayShanghai(at)) throw new AppError('FOLLOW_NEXT_TIME_PAST');
  }
  const controls = await parseFollowControls(db, actor, body.templateControls);
  const isStageChange = stage !== undefined && stage.id !== customer.stageId;
  // The form shows the follow controls pre-filled: only a changed value counts as content.
  const hasChangedValues = Object.entries(controls.parsed.vals).some(
    ([key, value]) => JSON.stringify(customer.vals[key] ?? []) !== JSON.stringify(value),
  );
  if (!remark && !nextFollowAt && !isStageChange && !hasChangedValues) {
    throw new AppError('FOLLOW_EMPTY');
  }
  const v = await viewerOf(db, actor);
  return db.transaction(async (tx) => {
    await applyFollowUp(tx, v, customer, { at, stageId: stage?.id, nextFollowAt, tpl: controls.tpl, parsed: controls.parsed });
    return repo.insertFollow(tx, {
      tenantId: actor.tenantId,
      customerId: customer.id,
      staffId: actor.staffId,
      followType: FOLLOW_TYPE.written,
      sourceType: FOLLOW_SOURCE.crm,
      stageId: stage?.id ?? customer.stageId,
      remark,
      nextFollowAt: nextFollowAt ?? null,
      vals: controls.parsed.vals,
      isDelete: 1,
      createdAt: at,
    });
  });
};

/** The stage bar: a stage change is saved on the customer and recorded in its history. */
export const changeStage = async (db: Db, actor: Actor, body: CustomerStageBody): Promise<void> => {
  requireDetailFlag(actor, 'follow');
  const customer = await requireVisibleCustomer(db, actor, body.cmCtid);
  const stage = await requireEnabledStage(db, actor.tenantId, body.cmNid);
  if (stage.id === customer.stageId) return;
  const before = customer.stageId
    ? await requireEnabledStage(db, actor.tenantId, customer.stageId).catch(onlyRefusal(undefined))
    : undefined;
  await db.transaction(async (tx) => {
    await setCustomerStage(tx, actor.tenantId, customer.id, stage.id);
    await repo.insertFollow(tx, {
      tenantId: actor.tenantId,
      customerId: customer.id,
      staffId: actor.staffId,
      followType: FOLLOW_TYPE.written,
      sourceType: FOLLOW_SOURCE.crm,
      stageId: stage.id,
      remark: before ? `客户阶段由「${before.name}」变更为「${stage.name}」` : `客户阶段设为「${stage.name}」`,
      createdAt: now(),
    });
  });
};

/** followdel: needs frontend/customer/followdel and a deletable record (SPEC §6). */
export const deleteFollow = async (db: Db, actor: Actor, id: number): Promise<void> => {
  if (!canDoAction(actor, 'frontend/customer/followdel')) throw new AppError('FORBIDDEN_ACTION');
  const record = await repo.findFollow(db, actor.tenantId, id);
  if (!record) throw new AppError('FOLLOW_NOT_FOUND');
  await requireVisibleCustomer(db, actor, record.customerId);
  if (record.isDelete !== 1) throw new AppError('FOLLOW_NOT_DELETABLE');
  await repo.softDeleteFollow(db, actor.tenantId, id, now());
};

/** Category tabs (SPEC §2): 0 written = every type that is not a pool move, call or AI call. */
const typesOf = (category: number | undefined): repo.FollowFilter['types'] => {
  switch (category) {
    case 0:
      return { notIn: [FOLLOW_TYPE.discard, FOLLOW_TYPE.claim, FOLLOW_TYPE.call, FOLLOW_TYPE.ai] };
    case 1:
      return { in: [FOLLOW_TYPE.discard, FOLLOW_TYPE.claim] };
    case undefined:
    case -1:
      return undefined;
    default:
      return { in: [category] };
  }
};

/** followlist: a customer's history, newest first, 10 per page (SPEC §9). */
export const listFollows = async (db: Db, actor: Actor, q: FollowListQuery): Promise<ListData<FollowRecord>> => {
  requireDetailFlag(actor, 'follow');
  const customer = await requireVisibleCustomer(db, actor, q.cmCtid);
  const to = q.endTime ? parseDateTime(q.endTime.slice(0, 10)) : null;
  const filter: repo.FollowFilter = {
    tenantId: actor.tenantId,
    customerId: customer.id,
    // SPEC §7: sourceType names the screen asking (1 = the customer drawer), not the records'
    // origin; the category tab (followType) alone decides which records are listed.
    types: typesOf(q.followType),
    from: (q.startTime && parseDateTime(q.startTime.slice(0, 10))) || undefined,
    // SPEC §9: a date range ends at 23:59:59 of its last day.
    to: to ? new Date(to.getTime() + 86_399_999) : undefined,
  };
  const [rows, count] = await Promise.all([
    repo.listFollows(db, filter, q.limit, (q.page - 1) * q.limit),
    repo.countFollows(db, filter),
  ]);
  const [controls, staffNamesById, stageNamesById] = await Promise.all([
    followControlValues(
      db,
      actor,
      customer,
      rows.map((r) => r.vals),
    ),
    staffNames(
      db,
      actor.tenantId,
      rows.flatMap((r) => (r.staffId === null ? [] : [r.staffId])),
    ),
    stageNames(
      db,
      actor.tenantId,
      rows.flatMap((r) => (r.stageId === null ? [] : [r.stageId])),
    ),
  ]);
  return {
    count,
    list: rows.map((r, i) => ({
      cmCtfid: r.id,
      cmCtid: r.customerId,
      cmNid: r.stageId,
      cmNidName: r.stageId === null ? '' : (stageNamesById.get(r.stageId) ?? ''),
      followType: r.followType,
      sourceType: r.sourceType,
      createTime: toUnix(r.createdAt),
      nextFollowTime: toUnix(r.nextFollowAt),
      remark: r.remark,
      cmSidName: r.staffId === null ? '系统' : (staffNamesById.get(r.staffId) ?? ''),
      billsec: r.billsec,
      recordFile: r.recordFile,
      record_id: r.recordId,
      isDelete: r.isDelete,
      templateControls: controls[i],
    })),
  };
};

/**
 * A call ended (issue 6): its phone-call follow record (followType 3, SPEC §4: billsec > 0
 * connected, else unanswered) with the recording and the call uuid; calls are evidence, not deletable.
 */
export const recordCallFollowUp = (
  tx: DbOrTx,
  call: {
    tenantId: number;
    customerId: number;
    staffId: number | null;
    stageId: number | null;
    billsec: number;
    recordFile: string;
    uuid: string;
    remark: string;
    at: Date;
  },
) =>
  repo.insertFollow(tx, {
    tenantId: call.tenantId,
    customerId: call.customerId,
    staffId: call.staffId,
    followType: FOLLOW_TYPE.call,
    sourceType: FOLLOW_SOURCE.call,
    stageId: call.stageId,
    remark: call.remark,
    billsec: call.billsec,
    recordFile: call.recordFile,
    recordId: call.uuid,
    isDelete: 0,
    createdAt: call.at,
  });

/**
 * An AI call graded into the CRM (issue 16): its AI follow record (followType 4, AI跟进) with the
 * grade, score, rounds and end as the text and the AI call's id in `recordId` (the follow opens the
 * AI call detail); evidence, not deletable; the customer's stage stays.
 */
export const recordAiFollowUp = (
  tx: DbOrTx,
  p: {
    tenantId: number;
    customerId: number;
    staffId: number | null;
    stageId: number | null;
    aiCallId: number;
    billsec: number;
    remark: string;
    at: Date;
  },
) =>
  repo.insertFollow(tx, {
    tenantId: p.tenantId,
    customerId: p.customerId,
    staffId: p.staffId,
    followType: FOLLOW_TYPE.ai,
    sourceType: FOLLOW_SOURCE.system,
    stageId: p.stageId,
    remark: p.remark,
    billsec: p.billsec,
    recordId: String(p.aiCallId),
    isDelete: 0,
    createdAt: p.at,
  });
