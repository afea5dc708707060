import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { missedCallsSeenAt, setMissedCallsSeenAt } from '../staff/staff-calls';
import * as repo from './calls.repo';

/** SPEC §2 call button badge: the caller's missed incoming calls he has not seen yet. */
export const unseenMissedCalls = async (db: Db, actor: Actor): Promise<number> => {
  const seenAt = await missedCallsSeenAt(db, actor.tenantId, actor.staffId);
  if (seenAt === undefined) return 0;
  return repo.countUnseenMissedCalls(db, actor.tenantId, actor.staffId, seenAt);
};

/** The caller opened his missed calls (the dial panel or the record list filtered to them). */
export const markMissedCallsSeen = (db: Db, actor: Actor): Promise<void> =>
  setMissedCallsSeenAt(db, actor.tenantId, actor.staffId, now());
