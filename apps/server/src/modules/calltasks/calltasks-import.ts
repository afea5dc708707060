import { CALLTASK_LIMITS, type CalltaskCreateBody, TASK_BLACK_FILTER } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { normalisePhone } from '../../lib/phone';
import { blacklistedNumbers } from '../blacklist/blacklist.service';
import { buildListWhere, viewerOf } from '../customers/customers.service';
import { countVisible, customersByPhone, firstPhones, idsWhere } from '../customers/customers-for-calltasks';

// The numbers of a new task (issue 15): from a saved list filter (customerWhere), a selection of
// customers, or an imported list of numbers; blacklisted numbers are marked at import when the
// task filters them (blackState 1).

export type ImportedNumber = { customerId: number | null; phone: string; isBlacklisted: boolean };

/** The caller's visible customers among the selection (any one out of sight refuses the task). */
const visibleSelection = async (db: Db, actor: Actor, ids: number[]) => {
  const v = await viewerOf(db, actor);
  if ((await countVisible(db, v, actor.tenantId, ids)) !== new Set(ids).size) throw new AppError('CALLTASK_CUSTOMER_INVALID');
  return ids;
};

/** The customers a saved filter of 我的客户 / 分配客户 finds for the caller now. */
const filteredCustomers = async (db: Db, actor: Actor, where: NonNullable<CalltaskCreateBody['customerWhere']>) => {
  const v = await viewerOf(db, actor);
  const cond = await buildListWhere(db, v, where.kind, { ...where.filter, page: 1, limit: 1 });
  const ids = await idsWhere(db, cond, CALLTASK_LIMITS.filterRows + 1);
  if (ids.length > CALLTASK_LIMITS.filterRows) throw new AppError('CALLTASK_TOO_MANY');
  return ids;
};

const phoneOf = (raw: string) => normalisePhone(raw)?.phone ?? raw.replace(/\D/g, '');

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
    const numbers = await firstPhones(db, actor.tenantId, ids);
    list = ids.flatMap((id) => {
      const phone = numbers.get(id);
      return phone ? [{ customerId: id, phone }] : [];
    });
  }
  const seen = new Set<string>();
  list = list.filter((n) => !seen.has(n.phone) && seen.add(n.phone));
  if (list.length === 0) throw new AppError('CALLTASK_NO_NUMBERS');
  const black =
    body.blackState === TASK_BLACK_FILTER
      ? await blacklistedNumbers(
          db,
          actor.tenantId,
          list.map((n) => n.phone),
        )
      : new Set<string>();
  return list.map((n) => ({ ...n, isBlacklisted: black.has(n.phone) }));
};
