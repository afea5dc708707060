import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { companyModules, tenants } from '../../db/schema';
import { settingsCache } from '../../lib/settings-cache';

export const findCompany = async (db: DbOrTx, tenantId: number) => {
  const rows = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return rows[0] ? { tenant: rows[0] } : undefined;
};

/** The company's name (undefined: no such company), kept by the settings cache; updateCompany drops it. */
const nameOf = settingsCache(
  'company-name',
  async (db: DbOrTx, tenantId: number) =>
    (await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).limit(1))[0]?.name,
);

export const findCompanyName = nameOf.get;

export const updateCompany = async (
  db: DbOrTx,
  tenantId: number,
  values: {
    name: string;
    contactName: string;
    contactPhone: string;
    address: string;
    industry: string;
    intro: string;
    logoFileId: number | null;
  },
) => {
  // tenants: the row's own id is its tenant
  await db.update(tenants).set(values).where(eq(tenants.id, tenantId));
  nameOf.invalidate(tenantId);
};

export const insertCompany = async (
  db: DbOrTx,
  row: { name: string; isDemo?: boolean; contactName?: string; contactPhone?: string; industry?: string; address?: string },
) => {
  const [created] = await db.insert(tenants).values(row).returning({ id: tenants.id });
  nameOf.invalidate(created.id);
  return created.id;
};

/** The company's action state (0 active, else disabled); undefined when there is no such company. */
export const findCompanyState = async (db: DbOrTx, tenantId: number) => {
  const rows = await db.select({ actionState: tenants.actionState }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return rows[0]?.actionState;
};

export const findDemoCompany = async (db: DbOrTx) => {
  const rows = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.isDemo, true)).limit(1);
  return rows[0];
};

/** The company's module switches (no row: all on); kept by the settings cache. */
const modulesOf = settingsCache(
  'modules',
  async (db: DbOrTx, tenantId: number) =>
    (await db.select().from(companyModules).where(eq(companyModules.tenantId, tenantId)).limit(1))[0],
);

export const findModules = modulesOf.get;

export const saveModules = async (
  db: DbOrTx,
  tenantId: number,
  set: { orderOn: boolean; receiptOn: boolean; workOn: boolean },
) => {
  await db
    .insert(companyModules)
    .values({ tenantId, ...set, updatedAt: new Date() })
    .onConflictDoUpdate({ target: companyModules.tenantId, set: { ...set, updatedAt: new Date() } });
  modulesOf.invalidate(tenantId);
};

/** Companies of this exact name (the platform operator names one by id or by name). */
export const findCompaniesByName = (db: DbOrTx, name: string) =>
  db.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.name, name)).limit(2);
