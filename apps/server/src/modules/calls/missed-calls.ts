import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import * as repo from './calls.repo';

/** SPEC §2 call button badge: the caller's missed incoming calls he has not seen yet. */
export const unseenMissedCalls = (db: Db, actor: Actor): Promise<number> =>
  repo.countUnseenMissedCalls(db, actor.tenantId, actor.staffId);

/** The caller opened his missed calls (the dial panel or the record list filtered to them). */
export const markMissedCallsSeen = (db: Db, actor: Actor): Promise<void> =>
  repo.markMissedCallsSeen(db, actor.tenantId, actor.staffId, now());
