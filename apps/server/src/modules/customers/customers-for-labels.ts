/** Customers as the label user (labels/label-usage): how many carry a tag, and letting go of a deleted tag. */
import { DM_TYPE } from '@crm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { customers } from '../../db/schema';
import type { Usage } from '../../lib/usage-registry';
import { labelIdsOf } from '../labels/labels.service';
import { loadTemplate } from './customer-templates.service';

/** Live customers carrying each label in label_ids: one count per label, each by the label_ids index. */
export const customerCountsByLabel = async (db: DbOrTx, tenantId: number, labelIds: number[]) => {
  if (labelIds.length === 0) return new Map<number, number>();
  const ids = `{${[...new Set(labelIds)].join(',')}}`;
  const rows = await queryRows<{ id: number; n: number }>(
    db,
    sql`select l.id, (select count(*)::int from ${customers} c
          where c.tenant_id = ${tenantId} and c.label_ids @> array[l.id] and c.deleted_at is null) as n
        from unnest(${ids}::int[]) as l(id)`,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
};

/** Live customers carrying the tag, in label_ids or in a tag control's values. */
export const countCustomersWithTag = async (db: DbOrTx, tenantId: number, labelId: number) => {
  const tagControlIds = (await loadTemplate(db, tenantId)).rows.filter((c) => c.dmType === DM_TYPE.tags).map((c) => c.id);
  const inControls = tagControlIds.map((cid) => sql`or c.vals @> ${JSON.stringify({ [String(cid)]: [String(labelId)] })}::jsonb`);
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${customers} c where c.tenant_id = ${tenantId} and c.deleted_at is null and (c.label_ids @> array[${labelId}]::int[] ${sql.join(inControls, sql` `)})`,
  );
  return Number(rows[0]?.n ?? 0);
};

/** A tag is being deleted: soft-deleted customers lose it too (live ones were checked to hold none). */
export const detachLabel = async (db: DbOrTx, tenantId: number, labelId: number) => {
  await db
    .update(customers)
    .set({ labelIds: sql`array_remove(${customers.labelIds}, ${labelId})` })
    .where(
      and(
        eq(customers.tenantId, tenantId),
        sql`${customers.labelIds} @> array[${labelId}]::int[]`,
        sql`${customers.deletedAt} is not null`,
      ),
    );
};

/** Registered by registerCustomersEvents. */
export const customerLabelUse: Usage = {
  countsBy: async (db, tenantId) => customerCountsByLabel(db, tenantId, await labelIdsOf(db, tenantId)),
  countIn: countCustomersWithTag,
  detach: detachLabel,
};
