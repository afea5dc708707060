import { CALLTASK_LIMITS, type CalltaskCreateBody } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { customerPhones, customers } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { normalisePhone } from '../../lib/phone';
import { blacklistedNumbers } from '../blacklist/blacklist.service';
import { visibleSql } from '../customers/customer-access';
import { buildListWhere, viewerOf } from '../customers/customers.service';
import { intArray } from '../pools/pools.repo';

// The numbers of a new task (issue 15): from a saved list filter (customerWhere), a selection of
// customers, or an imported list of numbers; blacklisted numbers are marked at import when the
// task filters them (blackState 1).

export type ImportedNumber = { customerId: number | null; phone: string; isBlacklisted: boolean };

/** The first number of each customer (its template phone controls, in order). */
const firstNumbers = (db: Db, tenantId: number, ids: number[]) =>
  queryRows<{ customer_id: number; phone: string }>(
    db,
    sql`select distinct on (customer_id) customer_id, phone from ${customerPhones}
        where tenant_id = ${tenantId} and customer_id = any(${intArray(ids)}) order by customer_id, id`,
  );

/** The caller's visible customers among the selection (any one out of sight refuses the task). */
const visibleSelection = async (db: Db, actor: Actor, ids: number[]) => {
  const v = await viewerOf(db, actor);
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select c.id from ${customers} c where c.tenant_id = ${actor.tenantId} and c.id = any(${intArray(ids)})
          and c.deleted_at is null and ${visibleSql(v).any}`,
  );
  if (rows.length !== new Set(ids).size) throw new AppError('CALLTASK_CUSTOMER_INVALID');
  return ids;
};

/** The customers a saved filter of 我的客户 / 分配客户 finds for the caller now. */
const filteredCustomers = async (db: Db, actor: Actor, where: NonNullable<CalltaskCreateBody['customerWhere']>) => {
  const v = await viewerOf(db, actor);
  const cond = await buildListWhere(db, v, where.kind, { ...where.filter, page: 1, limit: 1 });
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select c.id from ${customers} c where ${cond} order by c.id limit ${CALLTASK_LIMITS.filterRows + 1}`,
  );
  if (rows.length > CALLTASK_LIMITS.filterRows) throw new AppError('CALLTASK_TOO_MANY');
  return rows.map((r) => Number(r.id));
};

const phoneOf = (raw: string) => normalisePhone(raw)?.phone ?? raw.replace(/\D/g, '');

/** Customers of the company by number (an imported number that is a customer's becomes his). */
const customersByPhone = async (db: Db, tenantId: number, phones: string[]) => {
  const found = new Map<string, number>();
  for (let i = 0; i < phones.length; i += 5000) {
    const rows = await queryRows<{ phone: string; customer_id: number }>(
      db,
      sql`select distinct on (p.phone) p.phone, p.customer_id from ${customerPhones} p
          join ${customers} c on c.id = p.customer_id and c.deleted_at is null
          where p.tenant_id = ${tenantId} and p.phone = any(${`{${phones.slice(i, i + 5000).join(',')}}`}::text[])
          order by p.phone, p.customer_id`,
    );
    for (const r of rows) found.set(r.phone, Number(r.customer_id));
  }
  return found;
};

export const importNumbers = async (db: Db, actor: Actor, body: CalltaskCreateBody): Promise<ImportedNumber[]> => {
  let list: { customerId: number | null; phone: string }[];
  if (body.numbers) {
    const phones = body.numbers.map(phoneOf).filter((p) => /\d/.test(p));
    const owners = await customersByPhone(db, actor.tenantId, [...new Set(phones)]);
    list = phones.map((phone) => ({ phone, customerId: owners.get(phone) ?? null }));
  } else {
    const ids = body.cmCtids
      ? await visibleSelection(db, actor, body.cmCtids)
      : await filteredCustomers(db, actor, body.customerWhere as NonNullable<CalltaskCreateBody['customerWhere']>);
    const numbers = new Map((await firstNumbers(db, actor.tenantId, ids)).map((r) => [Number(r.customer_id), r.phone]));
    list = ids.flatMap((id) => {
      const phone = numbers.get(id);
      return phone ? [{ customerId: id, phone }] : [];
    });
  }
  const seen = new Set<string>();
  list = list.filter((n) => !seen.has(n.phone) && seen.add(n.phone));
  if (list.length === 0) throw new AppError('CALLTASK_NO_NUMBERS');
  const black =
    body.blackState === 1
      ? await blacklistedNumbers(
          db,
          actor.tenantId,
          list.map((n) => n.phone),
        )
      : new Set<string>();
  return list.map((n) => ({ ...n, isBlacklisted: black.has(n.phone) }));
};
