import {
  BILLING_LIMITS,
  type BillingCallCost,
  type BillingChargeRow,
  type BillingChart,
  type BillingFilterQuery,
  type BillingListQuery,
  type BillingOverview,
  type BillingRechargeRow,
  type BillingSummary,
  type BillingSummaryQuery,
  CHARGE_KIND_LABEL,
  CHARGE_KINDS,
  type ChargeKind,
  DATA_SCOPE,
  type ListData,
  RECHARGE_STATUS_LABEL,
} from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, parseDateTime, startOfTodayShanghai, toDate } from '../../lib/time';
import { isNumberMaskedFor } from '../calls/call-access';
import { showPhone, viewerOf } from '../customers/customer-access';
import { customerPlacesByIds } from '../customers/customers-for-aicall';
import { departmentNames } from '../departments/departments.service';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './billing.repo';
import { planInForce } from './billing.service';
import { taskNamesOf } from './billing-task-names';

// The 消费明细 page's reads (issue 27). Data scope: the company's super admin, or a role whose data
// scope is 全部, sees the company (balance, every charge, recharges); anyone else who holds the
// menu sees only his own charges (no balance, no recharges, no other staff).

export type BillingScope = 'company' | 'own';
export const scopeOf = (actor: Actor): BillingScope =>
  actor.isSystemRole || actor.dataScope === DATA_SCOPE.all ? 'company' : 'own';

const DAY_MS = 86_400_000;
const n = (v: unknown) => Number(v ?? 0);
/** A stored time as the Beijing day / datetime text in SQL (no time-zone database needed). */
const dayOf = (col: SQL) => sql`to_char((${col} at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD')`;

/** The query's Beijing days as [from, to) instants; empty dates: this month up to today. */
export const rangeOf = (q: Pick<BillingFilterQuery, 'start' | 'end'>) => {
  const today = formatDateTime(now()).slice(0, 10);
  const start = q.start || `${today.slice(0, 8)}01`;
  const end = q.end || today;
  const from = parseDateTime(start);
  const endDay = parseDateTime(end);
  if (!from || !endDay || from > endDay) throw new AppError('BILLING_RANGE_INVALID');
  const to = new Date(endDay.getTime() + DAY_MS);
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS);
  if (days > BILLING_LIMITS.rangeDaysMax) throw new AppError('BILLING_RANGE_INVALID');
  return { from, to, days, start };
};

/** The debits (消费) of the filters, as a WHERE over ledger `l` joined to the call's rating `u`. */
const chargeWhere = (actor: Actor, q: BillingFilterQuery, range: { from: Date; to: Date }) => {
  const conds: SQL[] = [
    sql`l.tenant_id = ${actor.tenantId}`,
    sql`l.type <> 'recharge'`,
    sql`l.created_at >= ${range.from}`,
    sql`l.created_at < ${range.to}`,
  ];
  if (scopeOf(actor) === 'own') conds.push(sql`l.staff_id = ${actor.staffId}`);
  else {
    if (q.staff_id) conds.push(sql`l.staff_id = ${q.staff_id}`);
    if (q.department_id) conds.push(sql`u.department_id = ${q.department_id}`);
  }
  if (q.kind) conds.push(sql`l.charge_kind = ${q.kind}`);
  if (q.number) {
    const like = `%${q.number}%`;
    conds.push(sql`(u.caller like ${like} or u.callee like ${like})`);
  }
  return sql.join(conds, sql` and `);
};
const FROM = sql`billing_ledger l left join billing_call_usage u
  on u.tenant_id = l.tenant_id and u.call_uuid = l.source_id and l.source_kind in ('call', 'rerate')`;

/** Spend (debits, positive) of the viewer's scope since `from`. */
const spendSince = async (db: DbOrTx, actor: Actor, from: Date, to: Date) => {
  const own = scopeOf(actor) === 'own' ? sql` and staff_id = ${actor.staffId}` : sql``;
  const [row] = await queryRows<{ s: unknown }>(
    db,
    sql`select coalesce(-sum(amount), 0) as s from billing_ledger
        where tenant_id = ${actor.tenantId} and type <> 'recharge' and created_at >= ${from} and created_at < ${to}${own}`,
  );
  return n(row.s);
};

/** The balance card (and the workbench's balance and days left). */
export const overview = async (db: Db, actor: Actor): Promise<BillingOverview> => {
  const scope = scopeOf(actor);
  const at = now();
  const today = startOfTodayShanghai(at);
  const monthStart = parseDateTime(`${formatDateTime(at).slice(0, 8)}01`) as Date;
  const end = new Date(at.getTime() + 1000);
  const [month, day, last30, plan, thresholds, bal] = await Promise.all([
    spendSince(db, actor, monthStart, end),
    spendSince(db, actor, today, end),
    spendSince(db, actor, new Date(today.getTime() - 29 * DAY_MS), end),
    planInForce(db, actor.tenantId, at),
    repo.thresholdsOf(db, actor.tenantId),
    repo.readBalance(db, actor.tenantId),
  ]);
  const daily = Math.floor(last30 / 30);
  const isCompany = scope === 'company';
  return {
    scope,
    balance: isCompany ? bal.balance : null,
    reserved: isCompany ? bal.reserved : null,
    month_spend: month,
    today_spend: day,
    daily_spend: daily,
    days_left: isCompany && daily > 0 ? Math.max(0, Math.floor((bal.balance - bal.reserved) / daily)) : null,
    plan: plan ? { id: plan.id, name: plan.name } : null,
    thresholds: isCompany ? thresholds : [],
    is_low: isCompany && thresholds.length > 0 && bal.balance < Math.max(...thresholds),
  };
};

/** Consumption by day split by kind (every day of the range, zero days included). */
export const chart = async (db: Db, actor: Actor, q: BillingFilterQuery): Promise<BillingChart> => {
  const range = rangeOf(q);
  const rows = await queryRows<{ day: string; kind: string; s: unknown }>(
    db,
    sql`select ${dayOf(sql`l.created_at`)} as day, l.charge_kind as kind, -sum(l.amount) as s
        from ${FROM} where ${chargeWhere(actor, q, range)} group by 1, 2`,
  );
  const days = Array.from({ length: range.days }, (_, i) =>
    formatDateTime(new Date(range.from.getTime() + i * DAY_MS)).slice(0, 10),
  );
  const index = new Map(days.map((d, i) => [d, i]));
  const byKind = new Map<ChargeKind, number[]>();
  for (const r of rows) {
    const kind = r.kind as ChargeKind;
    const i = index.get(r.day);
    if (i === undefined || !CHARGE_KINDS.includes(kind)) continue;
    const amounts = byKind.get(kind) ?? days.map(() => 0);
    amounts[i] += n(r.s);
    byKind.set(kind, amounts);
  }
  const series = CHARGE_KINDS.filter((k) => byKind.has(k)).map((kind) => ({
    kind,
    label: CHARGE_KIND_LABEL[kind],
    amounts: byKind.get(kind) as number[],
  }));
  const totals = days.map((_, i) => series.reduce((s, x) => s + x.amounts[i], 0));
  return { days, series, totals };
};

type ChargeSqlRow = {
  id: unknown;
  created_at: string | Date;
  charge_kind: string;
  amount: unknown;
  balance_after: unknown;
  staff_id: number | null;
  source_id: string;
  source_kind: string;
  remark: string;
  department_id: number | null;
  task_id: number | null;
  customer_id: number | null;
  call_type: number | null;
  caller: string | null;
  callee: string | null;
  start_at: string | Date | null;
  answer_at: string | Date | null;
  end_at: string | Date | null;
  duration: number | null;
  billed_seconds: number | null;
  first_block: number | null;
  increment: number | null;
  rate: unknown;
  connect_fee: unknown;
  cost: unknown;
  u_amount: unknown;
  l_type: string;
};
const asDate = (v: string | Date | null) => (v === null ? null : typeof v === 'string' ? toDate(v) : v);

/** A page of 消费明细 rows (newest first) in the viewer's scope; `afterId` reads in id order (export). */
export const readCharges = async (
  db: Db,
  actor: Actor,
  q: BillingFilterQuery,
  page: { limit: number; offset?: number; beforeId?: number },
): Promise<BillingChargeRow[]> => {
  const range = rangeOf(q);
  const before = page.beforeId ? sql` and l.id < ${page.beforeId}` : sql``;
  const rows = await queryRows<ChargeSqlRow>(
    db,
    sql`select l.id, l.created_at, l.charge_kind, l.amount, l.balance_after, l.staff_id, l.source_id, l.source_kind, l.remark,
          l.type as l_type, u.department_id, u.task_id, u.customer_id, u.call_type, u.caller, u.callee, u.start_at, u.answer_at,
          u.end_at, u.duration, u.billed_seconds, u.first_block, u.increment, u.rate, u.connect_fee, u.cost, u.amount as u_amount
        from ${FROM} where ${chargeWhere(actor, q, range)}${before}
        order by l.id desc limit ${page.limit} offset ${page.offset ?? 0}`,
  );
  return presentCharges(db, actor, rows);
};

const presentCharges = async (db: Db, actor: Actor, rows: ChargeSqlRow[]): Promise<BillingChargeRow[]> => {
  const tenantId = actor.tenantId;
  const staffIds = rows.map((r) => r.staff_id).filter((v): v is number => v !== null);
  const deptIds = rows.map((r) => r.department_id).filter((v): v is number => v !== null);
  const taskIds = rows.map((r) => n(r.task_id)).filter((v) => v > 0);
  const customerIds = rows.map((r) => n(r.customer_id)).filter((v) => v > 0);
  const [names, depts, tasks, places, viewer] = await Promise.all([
    staffNames(db, tenantId, staffIds),
    departmentNames(db, tenantId, [...new Set(deptIds)]),
    taskNamesOf(db, tenantId, [...new Set(taskIds)]),
    customerPlacesByIds(db, tenantId, customerIds),
    viewerOf(db, actor),
  ]);
  return rows.map((r) => {
    const isCall = r.call_type !== null;
    const customerId = n(r.customer_id);
    const callee = r.callee ?? '';
    const isMasked = isCall
      ? isNumberMaskedFor(
          viewer,
          { callType: n(r.call_type), taskId: n(r.task_id), customerId: customerId || null },
          places.get(customerId),
        )
      : false;
    const kind = (CHARGE_KINDS as readonly string[]).includes(r.charge_kind) ? (r.charge_kind as ChargeKind) : 'adjust';
    const amount = -n(r.amount);
    const callCost = isCall ? n(r.cost) : amount;
    return {
      id: n(r.id),
      at: formatDateTime(asDate(r.created_at)),
      kind,
      kind_label:
        r.l_type === 'adjust' && r.source_kind === 'rerate' ? `${CHARGE_KIND_LABEL[kind]}（重新计费）` : CHARGE_KIND_LABEL[kind],
      staff_id: r.staff_id,
      staff_name: r.staff_id === null ? '' : (names.get(r.staff_id) ?? ''),
      department_name: r.department_id === null ? '' : (depts.get(r.department_id) ?? ''),
      task_id: n(r.task_id),
      task_name: tasks.get(n(r.task_id)) ?? '',
      line: r.caller ?? '',
      callee: showPhone(isMasked, callee),
      customer_id: customerId,
      direction: n(r.call_type),
      start_at: formatDateTime(asDate(r.start_at)),
      answer_at: formatDateTime(asDate(r.answer_at)),
      end_at: formatDateTime(asDate(r.end_at)),
      duration: n(r.duration),
      billed_seconds: n(r.billed_seconds),
      first_block: n(r.first_block),
      increment: n(r.increment),
      rate: n(r.rate),
      connect_fee: n(r.connect_fee),
      cost: r.source_kind === 'call' ? callCost : amount,
      amount,
      shortfall: r.source_kind === 'call' && isCall ? Math.max(0, n(r.cost) - amount) : 0,
      balance_after: n(r.balance_after),
      call_uuid: isCall ? r.source_id : '',
      remark: r.remark,
    };
  });
};

export const countCharges = async (db: Db, actor: Actor, q: BillingFilterQuery) => {
  const range = rangeOf(q);
  const [row] = await queryRows<{ c: unknown }>(db, sql`select count(*) as c from ${FROM} where ${chargeWhere(actor, q, range)}`);
  return n(row.c);
};

export const charges = async (db: Db, actor: Actor, q: BillingListQuery): Promise<ListData<BillingChargeRow>> => {
  const [list, count] = await Promise.all([
    readCharges(db, actor, q, { limit: q.limit, offset: (q.page - 1) * q.limit }),
    countCharges(db, actor, q),
  ]);
  return { list, count };
};

/** 充值记录 (company scope only; a staff member seeing his own charges sees none). */
export const recharges = async (db: Db, actor: Actor, q: BillingListQuery): Promise<ListData<BillingRechargeRow>> => {
  if (scopeOf(actor) === 'own') return { list: [], count: 0 };
  const range = rangeOf(q);
  const where = sql`r.tenant_id = ${actor.tenantId} and r.created_at >= ${range.from} and r.created_at < ${range.to}`;
  const [rows, [c]] = await Promise.all([
    queryRows<{
      id: number;
      created_at: string | Date;
      channel: string;
      amount: unknown;
      bonus: unknown;
      operator: string;
      ref: string;
      status: number;
      remark: string;
      balance_after: unknown;
    }>(
      db,
      sql`select r.id, r.created_at, r.channel, r.amount, r.bonus, r.operator, r.ref, r.status, r.remark, l.balance_after
          from billing_recharges r join billing_ledger l on l.id = r.ledger_id and l.tenant_id = r.tenant_id
          where ${where} order by r.id desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
    ),
    queryRows<{ c: unknown }>(db, sql`select count(*) as c from billing_recharges r where ${where}`),
  ]);
  return {
    list: rows.map((r) => ({
      id: r.id,
      at: formatDateTime(asDate(r.created_at)),
      channel: r.channel,
      amount: n(r.amount),
      bonus: n(r.bonus),
      operator: r.operator,
      ref: r.ref,
      status: r.status,
      status_label: RECHARGE_STATUS_LABEL[r.status] ?? '',
      balance_after: n(r.balance_after),
      remark: r.remark,
    })),
    count: n(c.c),
  };
};

/** 汇总 by staff, day, line or kind: integer sums per group; the total is the sum of the rows. */
export const summary = async (db: Db, actor: Actor, q: BillingSummaryQuery): Promise<BillingSummary> => {
  const range = rangeOf(q);
  const key =
    q.group_by === 'staff'
      ? sql`coalesce(l.staff_id, 0)::text`
      : q.group_by === 'day'
        ? dayOf(sql`l.created_at`)
        : q.group_by === 'line'
          ? sql`coalesce(u.caller, '')`
          : sql`l.charge_kind`;
  const rows = await queryRows<{ k: string; c: unknown; b: unknown; s: unknown }>(
    db,
    sql`select ${key} as k, count(*) as c, coalesce(sum(case when l.type = 'call' then u.billed_seconds else 0 end), 0) as b,
          coalesce(-sum(l.amount), 0) as s
        from ${FROM} where ${chargeWhere(actor, q, range)} group by 1 order by 1`,
  );
  const names =
    q.group_by === 'staff'
      ? await staffNames(
          db,
          actor.tenantId,
          rows.map((r) => Number(r.k)).filter((v) => v > 0),
        )
      : null;
  const labelOf = (k: string) => {
    if (q.group_by === 'staff') return k === '0' ? '企业（无员工）' : (names?.get(Number(k)) ?? `员工#${k}`);
    if (q.group_by === 'line') return k || '（无线路）';
    if (q.group_by === 'kind') return CHARGE_KIND_LABEL[k as ChargeKind] ?? k;
    return k;
  };
  const list = rows.map((r) => ({
    key: String(r.k),
    label: labelOf(String(r.k)),
    count: n(r.c),
    billed_seconds: n(r.b),
    amount: n(r.s),
  }));
  const total = { key: 'total', label: '合计', count: 0, billed_seconds: 0, amount: 0 };
  for (const r of list) {
    total.count += r.count;
    total.billed_seconds += r.billed_seconds;
    total.amount += r.amount;
  }
  return { group_by: q.group_by, rows: list, total };
};

/** Billed seconds and cost of rated calls of the company (own scope: his calls only). */
export const callCosts = async (db: Db, actor: Actor, uuids: string[]): Promise<BillingCallCost[]> => {
  const rows = await repo.usageOfCalls(db, actor.tenantId, uuids);
  const own = scopeOf(actor) === 'own';
  return rows
    .filter((r) => !own || r.staffId === actor.staffId)
    .map((r) => ({
      call_uuid: r.callUuid,
      billed_seconds: r.billedSeconds,
      cost: Number(r.cost),
      amount: Number(r.amount),
      rated_at: formatDateTime(r.ratedAt),
    }));
};
