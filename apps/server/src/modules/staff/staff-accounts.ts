/** A staff member's own account as the auth module uses it: login lookup, last login, password, personal data. */
import type { DbOrTx } from '../../db/client';
import * as repo from './staff.repo';

/** The live account a login name (account name, any case, or phone) names, with its password hash. */
export const findLoginAccount = (db: DbOrTx, username: string) => repo.findLoginAccount(db, username);

/** The staff row of a session (by id alone: the session already names him). */
export const findAccount = (db: DbOrTx, staffId: number) => repo.findStaffById(db, staffId);

export const markLoggedIn = (db: DbOrTx, tenantId: number, staffId: number, ip: string) =>
  repo.updateStaff(db, tenantId, staffId, { lastLoginIp: ip, lastLoginAt: new Date() });

export const findPasswordHash = async (db: DbOrTx, tenantId: number, staffId: number) =>
  (await repo.findStaff(db, tenantId, staffId))?.passwordHash;

export const setPasswordHash = (db: DbOrTx, tenantId: number, staffId: number, passwordHash: string) =>
  repo.updateStaff(db, tenantId, staffId, { passwordHash });

export const updatePersonal = (
  db: DbOrTx,
  tenantId: number,
  staffId: number,
  values: { name: string; sex: number; email: string; avatarFileId: number | null },
) => repo.updateStaff(db, tenantId, staffId, values);
