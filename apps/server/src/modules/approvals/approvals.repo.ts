import { and, asc, count, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { approvalActions, approvalInstances, approvalSteps, approvalTemplates, approvalTemplateVersions } from '../../db/schema';

export type TemplateRow = typeof approvalTemplates.$inferSelect;
export type VersionRow = typeof approvalTemplateVersions.$inferSelect;
export type InstanceRow = typeof approvalInstances.$inferSelect;
export type StepRow = typeof approvalSteps.$inferSelect;

// ---------- templates ----------

export const listTemplates = (db: DbOrTx, tenantId: number, f: { isAll: boolean; isOrder?: number }) => {
  const conds: SQL[] = [eq(approvalTemplates.tenantId, tenantId), isNull(approvalTemplates.deletedAt)];
  if (!f.isAll) conds.push(eq(approvalTemplates.actionState, 0));
  if (f.isOrder !== undefined) conds.push(eq(approvalTemplates.isOrder, f.isOrder));
  return db
    .select({ template: approvalTemplates, version: approvalTemplateVersions })
    .from(approvalTemplates)
    .innerJoin(approvalTemplateVersions, eq(approvalTemplateVersions.id, approvalTemplates.currentVersionId))
    .where(and(...conds))
    .orderBy(asc(approvalTemplates.id));
};

export const findTemplate = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select({ template: approvalTemplates, version: approvalTemplateVersions })
      .from(approvalTemplates)
      .innerJoin(approvalTemplateVersions, eq(approvalTemplateVersions.id, approvalTemplates.currentVersionId))
      .where(and(eq(approvalTemplates.tenantId, tenantId), eq(approvalTemplates.id, id), isNull(approvalTemplates.deletedAt)))
      .limit(1)
  )[0];

export const templateNameTaken = async (db: DbOrTx, tenantId: number, name: string, exceptId: number) =>
  (
    await db
      .select({ id: approvalTemplates.id })
      .from(approvalTemplates)
      .where(
        and(
          eq(approvalTemplates.tenantId, tenantId),
          eq(approvalTemplates.name, name),
          ne(approvalTemplates.id, exceptId),
          isNull(approvalTemplates.deletedAt),
        ),
      )
      .limit(1)
  ).length > 0;

export const insertTemplate = async (db: DbOrTx, row: typeof approvalTemplates.$inferInsert) =>
  (await db.insert(approvalTemplates).values(row).returning({ id: approvalTemplates.id }))[0].id;

export const updateTemplate = (db: DbOrTx, tenantId: number, id: number, set: Partial<typeof approvalTemplates.$inferInsert>) =>
  db
    .update(approvalTemplates)
    .set(set)
    .where(and(eq(approvalTemplates.tenantId, tenantId), eq(approvalTemplates.id, id), isNull(approvalTemplates.deletedAt)))
    .returning({ id: approvalTemplates.id });

export const lastVersionNo = async (db: DbOrTx, templateId: number) =>
  (
    await db
      .select({ v: sql<number>`coalesce(max(${approvalTemplateVersions.version}), 0)::int` })
      .from(approvalTemplateVersions)
      .where(eq(approvalTemplateVersions.templateId, templateId))
  )[0].v;

export const insertVersion = async (db: DbOrTx, row: typeof approvalTemplateVersions.$inferInsert) =>
  (await db.insert(approvalTemplateVersions).values(row).returning({ id: approvalTemplateVersions.id }))[0].id;

export const findVersion = async (db: DbOrTx, id: number) =>
  (await db.select().from(approvalTemplateVersions).where(eq(approvalTemplateVersions.id, id)).limit(1))[0];

// ---------- instances ----------

export const insertInstance = async (db: DbOrTx, row: typeof approvalInstances.$inferInsert) =>
  (await db.insert(approvalInstances).values(row).returning())[0];

/** The instance, locked for the rest of the transaction: every transition runs behind this lock. */
export const lockInstance = async (tx: DbOrTx, tenantId: number, id: number) =>
  (
    await tx
      .select()
      .from(approvalInstances)
      .where(and(eq(approvalInstances.tenantId, tenantId), eq(approvalInstances.id, id)))
      .for('update')
  )[0];

export const findInstance = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(approvalInstances)
      .where(and(eq(approvalInstances.tenantId, tenantId), eq(approvalInstances.id, id)))
      .limit(1)
  )[0];

export const updateInstance = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof approvalInstances.$inferInsert>) =>
  tx
    .update(approvalInstances)
    .set(set)
    .where(and(eq(approvalInstances.tenantId, tenantId), eq(approvalInstances.id, id)));

export const insertSteps = async (tx: DbOrTx, rows: (typeof approvalSteps.$inferInsert)[]) => {
  if (rows.length > 0) await tx.insert(approvalSteps).values(rows);
};

export const stepsOf = (db: DbOrTx, instanceId: number) =>
  db
    .select()
    .from(approvalSteps)
    .where(eq(approvalSteps.instanceId, instanceId))
    .orderBy(asc(approvalSteps.nodeIndex), asc(approvalSteps.id));

export const setNodeState = (
  tx: DbOrTx,
  tenantId: number,
  instanceId: number,
  nodeIndex: number,
  from: number[],
  state: number,
  at?: Date,
) =>
  tx
    .update(approvalSteps)
    .set(at ? { state, actedAt: at } : { state })
    .where(
      and(
        eq(approvalSteps.tenantId, tenantId),
        eq(approvalSteps.instanceId, instanceId),
        eq(approvalSteps.nodeIndex, nodeIndex),
        inArray(approvalSteps.state, from),
      ),
    )
    .returning({ staffId: approvalSteps.staffId });

export const setStep = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof approvalSteps.$inferInsert>) =>
  tx
    .update(approvalSteps)
    .set(set)
    .where(and(eq(approvalSteps.tenantId, tenantId), eq(approvalSteps.id, id)));

export const insertAction = async (tx: DbOrTx, row: typeof approvalActions.$inferInsert) => {
  await tx.insert(approvalActions).values(row);
};

export const actionsOf = (db: DbOrTx, instanceId: number) =>
  db.select().from(approvalActions).where(eq(approvalActions.instanceId, instanceId)).orderBy(asc(approvalActions.id));

/** The latest instance of each document. */
export const latestInstancesOf = (db: DbOrTx, tenantId: number, docType: string, docIds: number[]) =>
  docIds.length === 0
    ? Promise.resolve([] as InstanceRow[])
    : db
        .selectDistinctOn([approvalInstances.docId])
        .from(approvalInstances)
        .where(
          and(
            eq(approvalInstances.tenantId, tenantId),
            eq(approvalInstances.docType, docType),
            inArray(approvalInstances.docId, docIds),
          ),
        )
        .orderBy(approvalInstances.docId, desc(approvalInstances.id));

/** Whether the staff takes part in any instance of the document (approver, CC or submitter). */
export const isParticipant = async (db: DbOrTx, tenantId: number, docType: string, docId: number, staffId: number) =>
  (
    await db
      .select({ id: approvalInstances.id })
      .from(approvalInstances)
      .where(
        and(
          eq(approvalInstances.tenantId, tenantId),
          eq(approvalInstances.docType, docType),
          eq(approvalInstances.docId, docId),
          sql`(${approvalInstances.submitterId} = ${staffId} or exists (
            select 1 from approval_steps s where s.instance_id = ${approvalInstances.id} and s.staff_id = ${staffId} and s.state <> 4))`,
        ),
      )
      .limit(1)
  ).length > 0;

// ---------- 我的审批 lists ----------

export type Tab = 'todo' | 'done' | 'cc' | 'mine';

const tabWhere = (tab: Tab, tenantId: number, staffId: number, status?: number): SQL | undefined => {
  const step = (states: number[]) =>
    sql`exists (select 1 from approval_steps s where s.instance_id = ${approvalInstances.id} and s.staff_id = ${staffId}
        and s.state = any(${`{${states.join(',')}}`}::int[]))`;
  const byTab: Record<Tab, SQL | undefined> = {
    todo: and(eq(approvalInstances.status, 0), step([0])),
    done: step([1, 2]),
    cc: step([3]),
    mine: eq(approvalInstances.submitterId, staffId),
  };
  return and(
    eq(approvalInstances.tenantId, tenantId),
    byTab[tab],
    status === undefined ? undefined : eq(approvalInstances.status, status),
  );
};

export const listTab = async (
  db: DbOrTx,
  tab: Tab,
  tenantId: number,
  staffId: number,
  status: number | undefined,
  limit: number,
  offset: number,
) =>
  (
    await db
      .select({ id: approvalInstances.id })
      .from(approvalInstances)
      .where(tabWhere(tab, tenantId, staffId, status))
      .orderBy(sql`${approvalInstances.createdAt} desc nulls last`, sql`${approvalInstances.id} desc nulls last`)
      .limit(limit)
      .offset(offset)
  ).map((r) => r.id);

export const countTab = async (db: DbOrTx, tab: Tab, tenantId: number, staffId: number, status?: number) =>
  (
    await db
      .select({ n: count() })
      .from(approvalInstances)
      .where(tabWhere(tab, tenantId, staffId, status))
  )[0].n;

export const instancesByIds = (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select({ instance: approvalInstances, templateName: approvalTemplates.name })
        .from(approvalInstances)
        .innerJoin(approvalTemplates, eq(approvalTemplates.id, approvalInstances.templateId))
        .where(and(eq(approvalInstances.tenantId, tenantId), inArray(approvalInstances.id, ids)));

export const countPendingForStaff = async (db: DbOrTx, tenantId: number, staffId: number) =>
  (
    await db
      .select({ n: count() })
      .from(approvalSteps)
      .innerJoin(approvalInstances, eq(approvalInstances.id, approvalSteps.instanceId))
      .where(
        and(
          eq(approvalSteps.tenantId, tenantId),
          eq(approvalSteps.staffId, staffId),
          eq(approvalSteps.state, 0),
          eq(approvalInstances.status, 0),
        ),
      )
  )[0].n;
