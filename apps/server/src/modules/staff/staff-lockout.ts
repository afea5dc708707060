/**
 * A staff member was locked out (disabled, expired, deleted, password reset): whoever keeps his
 * sessions ends them. Auth registers itself when it loads (auth.service); staff does not import auth.
 */
import type { Db } from '../../db/client';
import type { PubSub } from '../../lib/pubsub';

/** Where revocations are published (the pub/sub the call sockets listen on). */
export type Publisher = Pick<PubSub, 'publish'>;

type LockoutHandler = (db: Db, bus: Publisher, tenantId: number, staffId: number) => Promise<void>;

let handler: LockoutHandler | null = null;

export const onStaffLockout = (h: LockoutHandler) => {
  handler = h;
};

/** Ends the staff member's sessions everywhere; a missing handler is a wiring bug, never "nothing to end". */
export const lockOut = (db: Db, bus: Publisher, tenantId: number, staffId: number) => {
  if (!handler) throw new Error('staff: no lockout handler registered (auth.service not loaded)');
  return handler(db, bus, tenantId, staffId);
};
