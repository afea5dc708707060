import { type CustomerListBody, DM_TYPE, type SeasListBody } from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parseDateTime, startOfTodayShanghai } from '../../lib/time';
import { phoneMatchOf, type Viewer } from './customer-access';
import { poolRules } from './customer-pool-rules';
import { type ControlRow, loadTemplate } from './customer-templates.service';
import * as listRepo from './customers-list.repo';

/** Which list a request reads (SPEC §2 customer-management routes). */
export type ListKind = 'mine' | 'allot' | 'subscribe' | 'never' | 'seas';

const dayStart = (s: string) => parseDateTime(s.length === 10 ? `${s} 00:00:00` : s);
const dayEnd = (s: string) => parseDateTime(s.length === 10 ? `${s} 23:59:59` : s);

const rangeCond = (column: SQL, range: string[] | undefined): SQL[] => {
  if (!range || range.length === 0) return [];
  const out: SQL[] = [];
  const from = range[0] ? dayStart(range[0]) : null;
  const to = range[1] ? dayEnd(range[1]) : null;
  if (from) out.push(sql`${column} >= ${from}`);
  if (to) out.push(sql`${column} <= ${to}`);
  return out;
};

/** Same pieces as the SQL function crm_bigrams: distinct lower-case 2-character substrings. */
export const bigrams = (text: string): string[] => {
  const chars = Array.from(text.toLowerCase());
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
  return [...out];
};

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Filter on one template control: containment (GIN) for choices, ranges for numbers and dates, contains for text. */
const controlCond = (c: ControlRow, f: CustomerListBody['templateControls'][number], isPhoneMasked: boolean): SQL | undefined => {
  const key = String(c.id);
  const first = sql`(c.vals -> ${key} ->> 0)`;
  const values = f.dmValue.map((x) => x.trim()).filter(Boolean);
  switch (c.dmType) {
    case DM_TYPE.integer:
    case DM_TYPE.number: {
      const parts: SQL[] = [];
      if (f.min !== undefined) parts.push(sql`${first}::numeric >= ${f.min}`);
      if (f.max !== undefined) parts.push(sql`${first}::numeric <= ${f.max}`);
      if (values[0] && parts.length === 0) parts.push(sql`${first} = ${values[0]}`);
      return parts.length ? sql.join(parts, sql` and `) : undefined;
    }
    case DM_TYPE.date:
    case DM_TYPE.datetime: {
      const parts: SQL[] = [];
      if (values[0])
        parts.push(
          sql`${first} >= ${values[0].length === 10 && c.dmType === DM_TYPE.datetime ? `${values[0]} 00:00:00` : values[0]}`,
        );
      if (values[1])
        parts.push(
          sql`${first} <= ${values[1].length === 10 && c.dmType === DM_TYPE.datetime ? `${values[1]} 23:59:59` : values[1]}`,
        );
      return parts.length ? sql.join(parts, sql` and `) : undefined;
    }
    case DM_TYPE.text:
    case DM_TYPE.textarea:
      return values[0] ? sql`${first} ilike ${escapeLike(values[0])}` : undefined;
    case DM_TYPE.phone: {
      if (!values[0]) return undefined;
      const match = phoneMatchOf(values[0], isPhoneMasked);
      if (match.kind === 'none') return sql`false`;
      return match.kind === 'exact'
        ? sql`c.vals @> ${JSON.stringify({ [key]: [match.phone] })}::jsonb`
        : sql`${first} like ${escapeLike(match.digits)}`;
    }
    case DM_TYPE.address:
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      // The deepest chosen level: a province finds every customer in it.
      return values.length ? sql`c.vals @> ${JSON.stringify({ [key]: [values[values.length - 1]] })}::jsonb` : undefined;
    default: {
      if (!values.length) return undefined;
      const any = values.map((x) => sql`c.vals @> ${JSON.stringify({ [key]: [x] })}::jsonb`);
      return sql`(${sql.join(any, sql` or `)})`;
    }
  }
};

/** The WHERE of a list request: tenant, list kind and data scope, then the search bar's filters. */
export const buildListWhere = async (db: Db, v: Viewer, kind: ListKind, f: CustomerListBody): Promise<SQL> => {
  const { actor } = v;
  // Every row of a list lives in the same place (pool or private), so one masking rule holds for its filters.
  const isPhoneMasked = kind === 'seas' ? v.isPoolMasked : v.isPrivateMasked;
  const conds: SQL[] = [sql`c.tenant_id = ${actor.tenantId}`, sql`c.deleted_at is null`];
  if (kind === 'allot') {
    if (v.scope === null) conds.push(sql`c.pool_id is null`);
    else
      conds.push(
        sql`c.owner_id in (${sql.join(
          v.scope.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
  } else if (kind === 'seas') {
    // Shared-pool customers of the pools the caller may use (the pool service adds pool and reason filters).
    conds.push(sql`c.owner_id is null and c.pool_id is not null`);
    if (v.poolIds !== null) conds.push(sql`c.pool_id = any(${`{${v.poolIds.join(',')}}`}::int[])`);
  } else {
    conds.push(sql`c.owner_id = ${actor.staffId}`);
  }
  if (kind === 'subscribe') {
    const start = startOfTodayShanghai();
    conds.push(sql`c.next_follow_at >= ${start} and c.next_follow_at < ${new Date(start.getTime() + 86_400_000)}`);
  }
  if (kind === 'never') conds.push(sql`c.contact_num = 0 and c.follow_at is null`);

  if (f.name) {
    // The bigram GIN index narrows '%华信%' to candidates; ILIKE then checks the exact text.
    const grams = bigrams(f.name);
    if (grams.length > 0)
      conds.push(sql`c.name_grams @> ${`{${grams.map((g) => `"${g.replace(/["\\]/g, (x) => `\\${x}`)}"`).join(',')}}`}::text[]`);
    conds.push(sql`c.name ilike ${escapeLike(f.name)}`);
  }
  if (f.contactName) conds.push(sql`c.contact_name ilike ${escapeLike(f.contactName)}`);
  if (f.contactPhone?.trim()) {
    const match = phoneMatchOf(f.contactPhone, isPhoneMasked);
    if (match.kind === 'none') conds.push(sql`false`);
    else if (match.kind === 'exact')
      conds.push(
        sql`exists (select 1 from customer_phones p where p.tenant_id = ${actor.tenantId} and p.phone = ${match.phone} and p.customer_id = c.id)`,
      );
    else conds.push(sql`c.contact_phone like ${escapeLike(match.digits)}`);
  }
  conds.push(...rangeCond(sql`c.next_follow_at`, f.nextFollowTime));
  conds.push(...rangeCond(sql`c.allot_at`, f.allotTime));
  conds.push(...rangeCond(sql`c.last_contact_at`, f.lastContactTime));
  conds.push(...rangeCond(sql`c.created_at`, f.createTime));
  conds.push(...rangeCond(sql`c.follow_at`, f.followTime));
  if (f.exRecoveryTime?.some(Boolean)) {
    // 预计回收时间: the recycling sweep's own expression (pools module); no rule on = nobody is due.
    const due = await poolRules().exRecoveryExpr(db, actor.tenantId);
    conds.push(...(due ? rangeCond(due, f.exRecoveryTime) : [sql`false`]));
  }
  if (f.lastContactStatus !== undefined) conds.push(sql`c.last_contact_status = ${f.lastContactStatus}`);
  if (f.createCmSid !== undefined) conds.push(sql`c.creator_id = ${f.createCmSid}`);
  if (f.followCmSid !== undefined) conds.push(sql`c.owner_id = ${f.followCmSid}`);
  if (f.createCmDid !== undefined) conds.push(sql`c.creator_department_id = ${f.createCmDid}`);
  if (f.followCmDid !== undefined) conds.push(sql`c.owner_department_id = ${f.followCmDid}`);
  if (f.cmNid !== undefined) conds.push(sql`c.stage_id = ${f.cmNid}`);
  if (f.cmClids && f.cmClids.length > 0) conds.push(sql`c.label_ids && ${`{${f.cmClids.join(',')}}`}::int[]`);
  if (f.minContactNum !== undefined) conds.push(sql`c.contact_num >= ${f.minContactNum}`);
  if (f.maxContactNum !== undefined) conds.push(sql`c.contact_num <= ${f.maxContactNum}`);
  if (f.templateControls.length > 0) {
    const tpl = await loadTemplate(db, actor.tenantId);
    for (const cf of f.templateControls) {
      const control = tpl.byId.get(cf.cbTacid);
      const cond = control ? controlCond(control, cf, isPhoneMasked) : undefined;
      if (cond) conds.push(cond);
    }
  }
  return sql.join(conds, sql` and `);
};

/** The pool list's own filters (pool, discard reason) on top of the list's: rebuilt from the body alone, so a durable export can store it. */
export const seasFilters = (f: SeasListBody): SQL | undefined => {
  const conds: SQL[] = [];
  if (f.cmHsid !== undefined) conds.push(sql`c.pool_id = ${f.cmHsid}`);
  if (f.cmCdid !== undefined)
    conds.push(sql`exists (select 1 from pool_entries e where e.customer_id = c.id and e.reason_id = ${f.cmCdid})`);
  return conds.length ? sql.join(conds, sql` and `) : undefined;
};

export const orderOf = (f: CustomerListBody): SQL => {
  const column = f.orderParams ? listRepo.SORT_COLUMNS[f.orderParams] : sql`c.created_at`;
  const dir = f.orderSort === 'asc' ? sql`asc` : sql`desc`;
  return sql`${column} ${dir} nulls last, c.id ${dir}`;
};
