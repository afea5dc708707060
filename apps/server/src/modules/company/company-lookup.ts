/** The company facts the org modules read (login, the session's user info): its name and whether it is active. */
import type { DbOrTx } from '../../db/client';
import * as repo from './company.repo';

/** The company's action state (0 active, else disabled); undefined when there is no such company. */
export const companyState = (db: DbOrTx, tenantId: number) => repo.findCompanyState(db, tenantId);

/** The company's name; undefined when there is no such company. */
export const companyName = (db: DbOrTx, tenantId: number) => repo.findCompanyName(db, tenantId);
