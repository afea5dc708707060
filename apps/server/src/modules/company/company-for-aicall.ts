import type { DbOrTx } from '../../db/client';
import * as repo from './company.repo';

// What the AI bot reads of a company (issue 24: aicall reaches company through this file, not its repo).

/** The company's name ({公司名称} of the bot's prompts); '' when there is none. */
export const companyNameOf = async (db: DbOrTx, tenantId: number) => (await repo.findCompany(db, tenantId))?.tenant.name ?? '';
