import type { DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import type { ClaimCandidate } from './pool-moves.repo';
import { claimCandidates } from './pool-transfers';
import * as repo from './pools.repo';

/**
 * The previous-owner cooldown of claiming (per pool, `rules.claim.cooldownDays`): the staff member who
 * owned a customer before it went to the pool may not claim it back until `pooled_at + days`.
 * For each candidate the moment it becomes claimable for `actor`, when that is after `at`.
 * One rule for the claim itself and for the detail drawer, which then does not offer 领取 (issue 23).
 */
export const claimCooldowns = async (
  tx: DbOrTx,
  actor: Actor,
  candidates: readonly ClaimCandidate[],
  at: Date,
): Promise<Map<number, Date>> => {
  const own = candidates.filter(
    (c) => c.last_owner_id !== null && Number(c.last_owner_id) === actor.staffId && c.pooled_at !== null,
  );
  const out = new Map<number, Date>();
  if (own.length === 0) return out;
  const pools = new Map(
    (await repo.findPools(tx, actor.tenantId, [...new Set(own.map((c) => Number(c.pool_id)))])).map((p) => [p.id, p]),
  );
  for (const c of own) {
    const days = pools.get(Number(c.pool_id))?.rules.claim.cooldownDays ?? 0;
    const until = new Date(new Date(c.pooled_at as Date | string).getTime() + days * 86_400_000);
    if (days > 0 && until.getTime() > at.getTime()) out.set(Number(c.id), until);
  }
  return out;
};

/** When a pool customer becomes claimable for the caller (his own cooldown), or null when he may claim it now. */
export const claimBlockedUntil = async (db: DbOrTx, actor: Actor, customerId: number, at: Date): Promise<Date | null> => {
  const candidates = await claimCandidates(db, actor.tenantId, [customerId], null);
  return (await claimCooldowns(db, actor, candidates, at)).get(customerId) ?? null;
};
