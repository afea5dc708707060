/** The reveal policy (SPEC §6): a masked viewer's reveals of full numbers count against decryptPhoneNum per staff per day. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { getStrategy } from '../strategy/strategy.service';
import * as repo from './phone-reveals.repo';

/**
 * Spends one of the caller's reveals of today on this customer (0 = 不限制): refused when the day's
 * reveals are used up; returns how many are left (null when unlimited).
 */
export const spendPhoneReveal = async (db: Db, actor: Actor, customerId: number): Promise<number | null> => {
  const { decryptPhoneNum: limit } = await getStrategy(db, actor.tenantId);
  const at = now();
  const day = formatDateTime(at).slice(0, 10);
  return db.transaction(async (tx) => {
    // One staff member's reveals are serialised so the daily count cannot be raced.
    await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, ${actor.staffId})`);
    const used = await repo.countReveals(tx, actor.tenantId, actor.staffId, day);
    if (limit > 0 && used >= limit) {
      throw new AppError('PHONE_REVEAL_LIMIT', `今日查看完整号码的次数已用完（每天${limit}次），请明天再试`);
    }
    await repo.insertReveal(tx, { tenantId: actor.tenantId, staffId: actor.staffId, customerId, day, createdAt: at });
    return limit > 0 ? limit - used - 1 : null;
  });
};
