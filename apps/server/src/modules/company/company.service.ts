import type { Company, CompanyEditBody } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { countCompanyStaff } from '../staff/staff.service';
import { fileInfosByIds, requireOwnFile } from '../uploads/uploads.service';
import * as repo from './company.repo';

export const companyInfo = async (db: Db, actor: Actor): Promise<Company> => {
  const row = await repo.findCompany(db, actor.tenantId);
  if (!row) throw new AppError('NOT_FOUND');
  const t = row.tenant;
  const logo = t.logoFileId === null ? undefined : (await fileInfosByIds(db, actor.tenantId, [t.logoFileId])).get(t.logoFileId);
  return {
    id: t.id,
    name: t.name,
    contactName: t.contactName,
    contactPhone: t.contactPhone,
    address: t.address,
    industry: t.industry,
    intro: t.intro,
    logoFileId: t.logoFileId,
    logoUrl: logo?.url ?? '',
    staffNum: await countCompanyStaff(db, actor.tenantId),
    createTime: formatDateTime(t.createdAt),
  };
};

export const editCompany = async (db: Db, actor: Actor, body: CompanyEditBody): Promise<void> => {
  if (body.logoFileId !== null) await requireOwnFile(db, actor, body.logoFileId, 'image');
  await repo.updateCompany(db, actor.tenantId, body);
};

export const createCompanyRow = repo.insertCompany;
export const findDemoCompany = repo.findDemoCompany;

/** Whether the company exists and is not disabled (the dial policy refuses calls of a disabled one). */
export const isCompanyActive = async (db: DbOrTx, tenantId: number) => (await repo.findCompanyState(db, tenantId)) === 0;

/** A company the platform operator names by id or exact name (billing's recharge CLI and API); undefined: none or ambiguous. */
export const findCompanyByRef = async (db: DbOrTx, ref: number | string): Promise<{ id: number; name: string } | undefined> => {
  const asId = typeof ref === 'number' ? ref : /^\d+$/.test(ref) ? Number(ref) : null;
  if (asId !== null && asId <= 2_147_483_647) {
    const found = await repo.findCompany(db, asId);
    if (found) return { id: found.tenant.id, name: found.tenant.name };
    if (typeof ref === 'number') return undefined;
  }
  const rows = await repo.findCompaniesByName(db, String(ref));
  return rows.length === 1 ? rows[0] : undefined;
};
