import {
  type CustomerDetail,
  type CustomerListBody,
  type CustomerPickQuery,
  type CustomerPickRow,
  type CustomerRow,
  customerListBody,
  type ListData,
} from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, startOfTodayShanghai } from '../../lib/time';
import { companyModules } from '../company/company-modules';
import { detailFlagsOf, requireVisibleCustomer, viewerOf } from './customer-access';
import { poolRules } from './customer-pool-rules';
import { loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';
import { buildListWhere, type ListKind, orderOf } from './customers-filters';
import * as listRepo from './customers-list.repo';
import { toRows } from './customers-presenter';

/** Counting stops here: beyond it the pager says "N+" and the query stays fast at a million rows. */
export const COUNT_CAP = 100_000;
/** Time the exact count may take before the planner's estimate is used instead. */
export const COUNT_BUDGET_MS = 60;

/** minelist / allotlist / today's appointments / never contacted / seaslist (`extra`: the pool service's own filters). */
export const listCustomers = async (
  db: Db,
  actor: Actor,
  kind: ListKind,
  f: CustomerListBody,
  extra?: SQL,
): Promise<ListData<CustomerRow> & { isCountCapped: boolean; isCountEstimated: boolean }> => {
  const v = await viewerOf(db, actor);
  const base = await buildListWhere(db, v, kind, f);
  const where = extra ? sql`${base} and ${extra}` : base;
  const [rows, counted, tpl] = await Promise.all([
    listRepo.listPage(db, where, orderOf(f), f.limit, (f.page - 1) * f.limit),
    listRepo.countWithin(db, where, COUNT_CAP, COUNT_BUDGET_MS),
    loadTemplate(db, actor.tenantId),
  ]);
  const list = await toRows(db, v, tpl, rows);
  if (kind !== 'seas') {
    // 预计回收时间 of the page's private customers, one query for the page.
    const due = await poolRules().exRecoveryTimes(
      db,
      actor.tenantId,
      list.map((r) => r.cmCtid),
    );
    for (const r of list) {
      const d = due.get(r.cmCtid);
      r.exRecoveryTime = d?.time ?? '';
      r.isRecycleSoon = d?.isSoon ?? false;
    }
  }
  return {
    list,
    count: counted.count,
    isCountCapped: counted.count >= COUNT_CAP,
    isCountEstimated: counted.isEstimated,
  };
};

/**
 * The customer picker of the order and receipt pages (SPEC §7 customer list {page, limit 100, keyword}):
 * private customers in the caller's data scope (the 分配管理 list's rule, numbers masked as there), by
 * name, or by number when the keyword is one (a masked number only whole, the lists' phone rule). Only
 * for a role that may create an order, a receipt plan or a receipt.
 */
export const pickCustomers = async (db: Db, actor: Actor, q: CustomerPickQuery): Promise<ListData<CustomerPickRow>> => {
  const flags = detailFlagsOf(actor);
  if (flags.cOrder !== 1 && flags.cMoney !== 1 && flags.cReceipt !== 1) throw new AppError('DETAIL_FORBIDDEN');
  const isNumber = /^[\d\s+()（）-]+$/.test(q.keyword) && q.keyword.replace(/\D/g, '').length >= 3;
  const filter = !q.keyword ? {} : isNumber ? { contactPhone: q.keyword } : { name: q.keyword };
  const { list, count } = await listCustomers(
    db,
    actor,
    'allot',
    customerListBody.parse({ page: q.page, limit: q.limit, ...filter, orderParams: undefined }),
  );
  return {
    count,
    list: list.map((r) => ({
      cmCtid: r.cmCtid,
      name: r.name,
      contactName: r.contactName,
      contactPhone: r.contactPhone,
      encryptPhone: r.encryptPhone,
      ownerName: r.ownerName,
      cmNidName: r.cmNidName,
    })),
  };
};

/** One customer with its values (detail drawer, edit modal). */
export const customerInfo = async (db: Db, actor: Actor, id: number): Promise<CustomerDetail> => {
  await requireVisibleCustomer(db, actor, id);
  const v = await viewerOf(db, actor);
  const where = sql`c.tenant_id = ${actor.tenantId} and c.id = ${id} and c.deleted_at is null`;
  const [rows, tpl] = await Promise.all([listRepo.listPage(db, where, sql`c.id`, 1, 0), loadTemplate(db, actor.tenantId)]);
  const [row] = await toRows(db, v, tpl, rows);
  if (!row) throw new AppError('CUSTOMER_NOT_FOUND');
  // issue 23: the former owner is not offered 领取 during his cooldown
  const blockedUntil = row.ownerId === null ? await poolRules().claimBlockedUntil(db, actor, id, now()) : null;
  return {
    ...row,
    detailFlags: detailFlagsOf(actor),
    modules: await companyModules(db, actor.tenantId),
    claimBlockedUntil: blockedUntil ? formatDateTime(blockedUntil).slice(0, 16) : '',
  };
};

/** Workbench figures of the caller's own customers (issue 3), dates in Asia/Shanghai. */
export const customerStats = async (db: Db, actor: Actor) => {
  const today = startOfTodayShanghai();
  const tomorrow = new Date(today.getTime() + 86_400_000);
  // Monday of this week (Shanghai), and 30 days back for the chart.
  const dow = (new Date(today.getTime() + 8 * 3_600_000).getUTCDay() + 6) % 7;
  const weekStart = new Date(today.getTime() - dow * 86_400_000);
  const since = new Date(today.getTime() - 29 * 86_400_000);
  const { createdPerDay, ...figures } = await repo.ownerFigures(db, actor.tenantId, actor.staffId, {
    today,
    tomorrow,
    weekStart,
    since,
  });
  const byDay = new Map(createdPerDay.map((r) => [r.day, r.n]));
  const days: { date: string; count: number }[] = [];
  for (let i = 0; i < 30; i++) {
    const date = formatDateTime(new Date(since.getTime() + i * 86_400_000)).slice(0, 10);
    days.push({ date, count: byDay.get(date) ?? 0 });
  }
  return { ...figures, createdPerDay: days };
};
