import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
/** The customers and customer_phones tables: records, duplicate lookups, owner counts, figures, numbers. */
import { type DbOrTx, queryRows } from '../../db/client';
import { customerPhones, customers } from '../../db/schema';

export type CustomerInsert = typeof customers.$inferInsert;
export type CustomerRecord = typeof customers.$inferSelect;

/** The customer already holding a value that must be unique (the duplicate checks): who he is and where he sits. */
const holder = { id: customers.id, name: customers.name, ownerId: customers.ownerId, poolId: customers.poolId };

export const insertCustomer = async (db: DbOrTx, row: CustomerInsert) => {
  const [created] = await db.insert(customers).values(row).returning({ id: customers.id });
  return created.id;
};

export const updateCustomer = async (db: DbOrTx, tenantId: number, id: number, values: Partial<CustomerInsert>) => {
  await db
    .update(customers)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)));
};

export const replacePhones = async (
  db: DbOrTx,
  tenantId: number,
  customerId: number,
  phones: { controlId: number; phone: string }[],
) => {
  await db.delete(customerPhones).where(and(eq(customerPhones.tenantId, tenantId), eq(customerPhones.customerId, customerId)));
  if (phones.length > 0) await db.insert(customerPhones).values(phones.map((p) => ({ tenantId, customerId, ...p })));
};

export const findCustomer = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id), isNull(customers.deletedAt)))
    .limit(1);
  return rows[0];
};

export const findCustomers = (db: DbOrTx, tenantId: number, ids: number[]) =>
  db
    .select()
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), inArray(customers.id, ids), isNull(customers.deletedAt)));

/** Another live customer of the company holding this normalised phone (isJudge on phone kinds). */
export const findByPhone = async (db: DbOrTx, tenantId: number, phone: string, controlId: number, exceptId: number) => {
  const rows = await db
    .select(holder)
    .from(customerPhones)
    .innerJoin(customers, eq(customers.id, customerPhones.customerId))
    .where(
      and(
        eq(customerPhones.tenantId, tenantId),
        eq(customerPhones.phone, phone),
        eq(customerPhones.controlId, controlId),
        sql`${customers.id} <> ${exceptId}`,
        isNull(customers.deletedAt),
      ),
    )
    .limit(1);
  return rows[0];
};

/** Another live customer of the company matching `held` (the duplicate checks), or undefined. */
const otherHolder = async (db: DbOrTx, tenantId: number, held: SQL, exceptId: number) =>
  (
    await db
      .select(holder)
      .from(customers)
      .where(and(eq(customers.tenantId, tenantId), held, sql`${customers.id} <> ${exceptId}`, isNull(customers.deletedAt)))
      .limit(1)
  )[0];

/** Another live customer holding this value of a control (isJudge on text and number kinds). */
export const findByValue = (db: DbOrTx, tenantId: number, controlId: number, value: string, exceptId: number) =>
  otherHolder(db, tenantId, sql`${customers.vals} @> ${JSON.stringify({ [String(controlId)]: [value] })}::jsonb`, exceptId);

/** Another live customer of that name (repeatCustomerName). */
export const findByName = (db: DbOrTx, tenantId: number, name: string, exceptId: number) =>
  otherHolder(db, tenantId, eq(customers.name, name), exceptId);

export const countOwned = async (db: DbOrTx, tenantId: number, ownerId: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.ownerId, ownerId), isNull(customers.deletedAt)));
  return rows[0]?.n ?? 0;
};

export const softDelete = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(customers)
    .set({ deletedAt: new Date() })
    .where(and(eq(customers.tenantId, tenantId), inArray(customers.id, ids), isNull(customers.deletedAt)))
    .returning({ id: customers.id });
  return rows.length;
};

export const customerNames = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), inArray(customers.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
};

/**
 * The workbench's figures of a staff member's customers in one statement (issue 25): those he owns
 * (all, with an appointment in [today, tomorrow), new since weekStart, never contacted) and those he
 * created per Shanghai day since `since`.
 */
export const ownerFigures = async (
  db: DbOrTx,
  tenantId: number,
  staffId: number,
  t: { today: Date; tomorrow: Date; weekStart: Date; since: Date },
) => {
  const rows = await queryRows<{ mine: number; appointments: number; new_this_week: number; never: number; per_day: string }>(
    db,
    sql`select count(*)::int as mine,
          count(*) filter (where c.next_follow_at >= ${t.today} and c.next_follow_at < ${t.tomorrow})::int as appointments,
          count(*) filter (where c.created_at >= ${t.weekStart})::int as new_this_week,
          count(*) filter (where c.contact_num = 0 and c.follow_at is null)::int as never,
          (select coalesce(json_agg(json_build_object('day', d.day, 'n', d.n)), '[]')::text
           from (select to_char(m.created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD') as day, count(*)::int as n
                 from ${customers} m
                 where m.tenant_id = ${tenantId} and m.creator_id = ${staffId} and m.created_at >= ${t.since}
                   and m.deleted_at is null
                 group by 1) d) as per_day
        from ${customers} c
        where c.tenant_id = ${tenantId} and c.owner_id = ${staffId} and c.deleted_at is null`,
  );
  const r = rows[0];
  return {
    myCustomers: Number(r?.mine ?? 0),
    todayAppointments: Number(r?.appointments ?? 0),
    newThisWeek: Number(r?.new_this_week ?? 0),
    neverContacted: Number(r?.never ?? 0),
    createdPerDay: (JSON.parse(r?.per_day ?? '[]') as { day: string; n: number }[]).map((d) => ({ day: d.day, n: Number(d.n) })),
  };
};

/** Live customers of the company holding this normalised phone in any phone control (calls: who is this number?). */
export const findIdsByPhone = async (db: DbOrTx, tenantId: number, phone: string) => {
  const rows = await db
    .selectDistinct({ id: customers.id })
    .from(customerPhones)
    .innerJoin(customers, eq(customers.id, customerPhones.customerId))
    .where(and(eq(customerPhones.tenantId, tenantId), eq(customerPhones.phone, phone), isNull(customers.deletedAt)))
    .orderBy(customers.id)
    .limit(20);
  return rows.map((r) => r.id);
};

/** One more contact (a call): last contact time and status (1 connected, 2 unanswered). */
export const addContact = async (db: DbOrTx, tenantId: number, id: number, at: Date, status: number) => {
  await db
    .update(customers)
    .set({ lastContactAt: at, lastContactStatus: status, contactNum: sql`${customers.contactNum} + 1`, updatedAt: new Date() })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)));
};

/** Customers (deleted ones too) holding `value` in one of these controls: the owners of an attached file. */
export const findHoldersOfValue = async (db: DbOrTx, tenantId: number, controlIds: number[], value: string) => {
  if (controlIds.length === 0) return [];
  const held = controlIds.map((id) => sql`${customers.vals} @> ${JSON.stringify({ [String(id)]: [value] })}::jsonb`);
  return db
    .select({ ownerId: customers.ownerId, poolId: customers.poolId })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), sql`(${sql.join(held, sql` or `)})`))
    .limit(50);
};
