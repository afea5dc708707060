/**
 * What else a logout ends, registered by the modules that keep it (auth sits below them and does
 * not import them): extensions unregister the staff member's line (SPEC §2). Wired in app.ts.
 */
import type { Db } from '../../db/client';

type LogoutHook = (db: Db, tenantId: number, staffId: number) => Promise<void>;

const hooks: LogoutHook[] = [];

export const onLogout = (hook: LogoutHook) => {
  if (!hooks.includes(hook)) hooks.push(hook);
};

/** Runs every registered hook, in registration order. */
export const runLogoutHooks = async (db: Db, tenantId: number, staffId: number) => {
  for (const hook of hooks) await hook(db, tenantId, staffId);
};
