import {
  type ControlValue,
  type CustomerCreateBody,
  type CustomerDetail,
  type CustomerEditBody,
  type CustomerLabelBody,
  type CustomerListBody,
  type CustomerRow,
  type DetailFlags,
  DM_TYPE,
  type ListData,
  type SubmittedControl,
} from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { type Actor, canDoAction } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { maskPhone, normalisePhone } from '../../lib/phone';
import { formatDateTime, parseDateTime, startOfTodayShanghai } from '../../lib/time';
import { labelNamesByIds, requireEnabledTags } from '../labels/labels.service';
import { visiblePoolIds } from '../pools/pool-visibility';
import { exRecoveryExpr, exRecoveryTimes } from '../pools/pools-recycle';
import { scopeStaffIds } from '../staff/staff.service';
import { getStrategy } from '../strategy/strategy.service';
import { fileInfosByIds, requireOwnFile } from '../uploads/uploads.service';
import { type ParsedValues, parseControlValues, valueText } from './control-values';
import { type ControlRow, type LoadedTemplate, loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';

/** Which list a request reads (SPEC §2 customer-management routes). */
export type ListKind = 'mine' | 'allot' | 'subscribe' | 'never' | 'seas';

/** Counting stops here: beyond it the pager says "N+" and the query stays fast at a million rows. */
export const COUNT_CAP = 100_000;
/** Time the exact count may take before the planner's estimate is used instead. */
export const COUNT_BUDGET_MS = 60;

/** poolIds: the shared pools whose customers the caller may see (null = every pool). */
type Viewer = { actor: Actor; isMasked: boolean; scope: number[] | null; poolIds: number[] | null };

/** `isSeas`: the numbers are those of shared-pool customers, masked by seaPhoneEncryp instead of phoneEncryp. */
const viewerOf = async (db: Db, actor: Actor, opts: { isSeas?: boolean } = {}): Promise<Viewer> => {
  const strategy = await getStrategy(db, actor.tenantId);
  // SPEC §6: with phoneEncryp the numbers are masked, except for roles granted the full numbers.
  const flag = opts.isSeas ? strategy.seaPhoneEncryp : strategy.phoneEncryp;
  const isMasked = flag === 1 && !canDoAction(actor, 'frontend/customer/decrypt');
  return { actor, isMasked, scope: await scopeStaffIds(db, actor), poolIds: await visiblePoolIds(db, actor) };
};

/** Own scope for private customers; a shared-pool customer is visible to the staff who may use its pool. */
export const canSee = (v: Viewer, c: repo.CustomerRecord) => {
  if (c.ownerId === null) return c.poolId !== null && (v.poolIds === null || v.poolIds.includes(c.poolId));
  return v.scope === null || v.scope.includes(c.ownerId);
};

/** The customer if the caller may see it under the role's data scope, else CUSTOMER_NOT_FOUND. */
export const requireVisibleCustomer = async (db: Db, actor: Actor, id: number) => {
  const c = await repo.findCustomer(db, actor.tenantId, id);
  const v = await viewerOf(db, actor);
  if (!c || !canSee(v, c)) throw new AppError('CUSTOMER_NOT_FOUND');
  return c;
};

// ---------- create / edit ----------

const contactOf = (tpl: LoadedTemplate, vals: Record<string, string[]>) => {
  let contactName = '';
  let contactPhone = '';
  for (const c of tpl.enabled) {
    const value = vals[String(c.id)]?.[0];
    if (!value) continue;
    if (!contactName && c.dmType === DM_TYPE.text && c.name.includes('联系人')) contactName = value;
    if (!contactPhone && c.dmType === DM_TYPE.phone) contactPhone = value;
  }
  return { contactName, contactPhone };
};

export const parseOrThrow = (tpl: LoadedTemplate, submitted: SubmittedControl[], isPartial: boolean): ParsedValues => {
  const parsed = parseControlValues(tpl.enabled, submitted, { isPartial });
  if (!parsed.ok) throw new AppError('CONTROL_INVALID', parsed.msg);
  return parsed.value;
};

export const checkRefs = async (db: Db, actor: Actor, refs: ParsedValues['refs']) => {
  for (const id of new Set(refs.fileIds)) await requireOwnFile(db, actor, id);
  if (refs.labelIds.length > 0) await requireEnabledTags(db, actor.tenantId, refs.labelIds);
  const customerIds = [...new Set(refs.customerIds)];
  if (customerIds.length > 0 && (await repo.customerNames(db, actor.tenantId, customerIds)).size !== customerIds.length) {
    throw new AppError('CONTROL_INVALID', '所选企业不存在');
  }
};

/** The first isJudge control whose value another live customer already holds. */
export const findDuplicate = async (
  tx: DbOrTx,
  tenantId: number,
  tpl: LoadedTemplate,
  parsed: ParsedValues,
  exceptId: number,
) => {
  for (const c of tpl.enabled) {
    if (c.isJudge !== 1) continue;
    const values = parsed.vals[String(c.id)];
    if (!values) continue;
    // Serialise concurrent saves of the same value inside this transaction.
    await tx.execute(sql`select pg_advisory_xact_lock(${tenantId}, hashtext(${`${c.id}:${values[0]}`}))`);
    const phone = c.dmType === DM_TYPE.phone ? parsed.phones.find((p) => p.controlId === c.id)?.phone : undefined;
    const other = phone
      ? await repo.findByPhone(tx, tenantId, phone, c.id, exceptId)
      : await repo.findByValue(tx, tenantId, c.id, values[0], exceptId);
    if (other) return { control: c, other, value: values[0], phone };
  }
  return undefined;
};

/** isJudge: the value must be unique among the company's customers; the message names the owner. */
const checkDuplicates = async (tx: DbOrTx, v: Viewer, tpl: LoadedTemplate, parsed: ParsedValues, exceptId: number) => {
  const dup = await findDuplicate(tx, v.actor.tenantId, tpl, parsed, exceptId);
  if (dup) throw new AppError('CUSTOMER_DUPLICATE', duplicateMessage(v, dup));
};

export const duplicateMessage = (v: Viewer, dup: NonNullable<Awaited<ReturnType<typeof findDuplicate>>>) => {
  const shown = dup.phone && v.isMasked ? maskPhone(dup.phone) : dup.value;
  return `${dup.control.name}“${shown}”已存在，归属于${dup.other.ownerName ?? '公海'}（客户：${dup.other.name || '未命名'}）`;
};

export const checkName = async (tx: DbOrTx, actor: Actor, tpl: LoadedTemplate, name: string, exceptId: number) => {
  const strategy = await getStrategy(tx, actor.tenantId);
  if (!name && (tpl.isMustName === 1 || strategy.mustCustomerName === 1)) throw new AppError('CUSTOMER_NAME_REQUIRED');
  if (name && strategy.repeatCustomerName === 1) {
    await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, hashtext(${`name:${name}`}))`);
    const other = await repo.findByName(tx, actor.tenantId, name, exceptId);
    if (other) throw new AppError('CUSTOMER_NAME_REPEAT', `客户名称“${name}”已存在，归属于${other.ownerName ?? '公海'}`);
  }
};

/** maxCustomer per staff (0 = 不限制). */
export const checkCustomerLimit = async (tx: DbOrTx, tenantId: number, ownerId: number, adding: number) => {
  const { maxCustomer } = await getStrategy(tx, tenantId);
  if (maxCustomer === 0) return;
  const owned = await repo.countOwned(tx, tenantId, ownerId);
  if (owned + adding > maxCustomer) {
    throw new AppError('CUSTOMER_LIMIT', `客户数量已达上限（${maxCustomer}个），当前已有${owned}个，请先处理已有客户`);
  }
};

/** Creates a customer owned by the caller (SPEC §7 create). */
export const createCustomer = async (db: Db, actor: Actor, body: CustomerCreateBody): Promise<number> => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const parsed = parseOrThrow(tpl, body.templateControls, false);
  await checkRefs(db, actor, parsed.refs);
  const v = await viewerOf(db, actor);
  return db.transaction(async (tx) => {
    await checkName(tx, actor, tpl, body.name, 0);
    await checkDuplicates(tx, v, tpl, parsed, 0);
    return insertParsedCustomer(tx, actor, tpl, body.name, parsed);
  });
};

/** Inserts a checked customer owned by the caller (inside the caller's transaction). */
export const insertParsedCustomer = async (tx: DbOrTx, actor: Actor, tpl: LoadedTemplate, name: string, parsed: ParsedValues) => {
  // One staff member's creations are serialised so the maxCustomer count cannot be raced.
  await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, ${actor.staffId})`);
  await checkCustomerLimit(tx, actor.tenantId, actor.staffId, 1);
  const at = now();
  const id = await repo.insertCustomer(tx, {
    tenantId: actor.tenantId,
    templateId: tpl.id,
    name,
    vals: parsed.vals,
    ...contactOf(tpl, parsed.vals),
    ownerId: actor.staffId,
    ownerDepartmentId: actor.departmentId,
    creatorId: actor.staffId,
    creatorDepartmentId: actor.departmentId,
    allotAt: at,
    createdAt: at,
  });
  await repo.replacePhones(tx, actor.tenantId, id, parsed.phones);
  return id;
};

/** Merges new values over a customer's stored ones (import overwrite). */
export const mergeIntoCustomer = async (
  tx: DbOrTx,
  actor: Actor,
  tpl: LoadedTemplate,
  current: repo.CustomerRecord,
  name: string,
  parsed: ParsedValues,
) => {
  const vals = { ...current.vals, ...parsed.vals };
  await repo.updateCustomer(tx, actor.tenantId, current.id, { name: name || current.name, vals, ...contactOf(tpl, vals) });
  await repo.replacePhones(tx, actor.tenantId, current.id, phonesOf(tpl, vals));
};

/** Edits a customer; values of disabled controls are kept as they were. */
export const editCustomer = async (db: Db, actor: Actor, body: CustomerEditBody): Promise<void> => {
  const current = await requireVisibleCustomer(db, actor, body.cmCtid);
  const tpl = await loadTemplate(db, actor.tenantId);
  // Masked numbers come back masked from the form: they mean "unchanged", so the stored number is kept.
  const parsed = parseOrThrow(tpl, unmaskPhones(tpl, current.vals, body.templateControls), false);
  await checkRefs(db, actor, parsed.refs);
  const v = await viewerOf(db, actor);
  const enabledIds = new Set(tpl.enabled.map((c) => String(c.id)));
  const kept = Object.fromEntries(Object.entries(current.vals).filter(([k]) => !enabledIds.has(k)));
  const vals = { ...kept, ...parsed.vals };
  await db.transaction(async (tx) => {
    await checkName(tx, actor, tpl, body.name, current.id);
    await checkDuplicates(tx, v, tpl, parsed, current.id);
    await repo.updateCustomer(tx, actor.tenantId, current.id, { name: body.name, vals, ...contactOf(tpl, vals) });
    await repo.replacePhones(tx, actor.tenantId, current.id, phonesOf(tpl, vals));
  });
};

/** Replaces a submitted phone equal to the mask of the stored one by the stored number. */
const unmaskPhones = (
  tpl: LoadedTemplate,
  stored: Record<string, string[]>,
  submitted: SubmittedControl[],
): SubmittedControl[] => {
  const phoneIds = new Set(tpl.enabled.filter((c) => c.dmType === DM_TYPE.phone).map((c) => c.id));
  const fix = (list: SubmittedControl[]): SubmittedControl[] =>
    list.map((c) => {
      const before = stored[String(c.cbTacid)]?.[0];
      const value = c.dmValue[0];
      const isMaskOfStored = phoneIds.has(c.cbTacid) && before && value?.includes('*') && maskPhone(before) === value;
      return { ...c, dmValue: isMaskOfStored ? [before] : c.dmValue, children: c.children ? fix(c.children) : undefined };
    });
  return fix(submitted);
};

const phonesOf = (tpl: LoadedTemplate, vals: Record<string, string[]>) =>
  tpl.enabled.flatMap((c) => {
    if (c.dmType !== DM_TYPE.phone) return [];
    const raw = vals[String(c.id)]?.[0];
    const n = raw ? normalisePhone(raw) : null;
    return n ? [{ controlId: c.id, phone: n.phone }] : [];
  });

/** batchedit: sets the submitted controls on every selected customer the caller may see. */
export const batchEditCustomers = async (db: Db, actor: Actor, ids: number[], submitted: SubmittedControl[]): Promise<number> => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const parsed = parseOrThrow(tpl, submitted, true);
  if (Object.keys(parsed.vals).length === 0) throw new AppError('CONTROL_INVALID', '请填写要批量修改的内容');
  if (tpl.enabled.some((c) => c.isJudge === 1 && parsed.vals[String(c.id)])) {
    throw new AppError('CONTROL_INVALID', '查重字段不能批量修改');
  }
  await checkRefs(db, actor, parsed.refs);
  const v = await viewerOf(db, actor);
  const rows = (await repo.findCustomers(db, actor.tenantId, ids)).filter((c) => canSee(v, c));
  await db.transaction(async (tx) => {
    for (const c of rows) {
      const vals = { ...c.vals, ...parsed.vals };
      await repo.updateCustomer(tx, actor.tenantId, c.id, { vals, ...contactOf(tpl, vals) });
      await repo.replacePhones(tx, actor.tenantId, c.id, phonesOf(tpl, vals));
    }
  });
  return rows.length;
};

/** Soft delete (recoverable), only of customers the caller may see. */
export const deleteCustomers = async (db: Db, actor: Actor, ids: number[]): Promise<number> => {
  const v = await viewerOf(db, actor);
  const rows = (await repo.findCustomers(db, actor.tenantId, ids)).filter((c) => canSee(v, c));
  return repo.softDelete(
    db,
    actor.tenantId,
    rows.map((c) => c.id),
  );
};

// ---------- lists ----------

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

/** A searched number is looked up exactly only when it is a whole number (7+ digits); fewer digits match as a part. */
const fullPhone = (text: string) => {
  const n = normalisePhone(text);
  return n && n.phone.length >= 7 ? n : null;
};

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Filter on one template control: containment (GIN) for choices, ranges for numbers and dates, contains for text. */
const controlCond = (c: ControlRow, f: CustomerListBody['templateControls'][number]): SQL | undefined => {
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
      const n = fullPhone(values[0]);
      return n
        ? sql`c.vals @> ${JSON.stringify({ [key]: [n.phone] })}::jsonb`
        : sql`${first} like ${escapeLike(values[0].replace(/\D/g, ''))}`;
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
  if (f.contactPhone) {
    const n = fullPhone(f.contactPhone);
    conds.push(
      n
        ? sql`exists (select 1 from customer_phones p where p.tenant_id = ${actor.tenantId} and p.phone = ${n.phone} and p.customer_id = c.id)`
        : sql`c.contact_phone like ${escapeLike(f.contactPhone.replace(/\D/g, ''))}`,
    );
  }
  conds.push(...rangeCond(sql`c.next_follow_at`, f.nextFollowTime));
  conds.push(...rangeCond(sql`c.allot_at`, f.allotTime));
  conds.push(...rangeCond(sql`c.last_contact_at`, f.lastContactTime));
  conds.push(...rangeCond(sql`c.created_at`, f.createTime));
  conds.push(...rangeCond(sql`c.follow_at`, f.followTime));
  if (f.exRecoveryTime?.some(Boolean)) {
    // 预计回收时间: the recycling sweep's own expression (pools module); no rule on = nobody is due.
    const due = await exRecoveryExpr(db, actor.tenantId);
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
      const cond = control ? controlCond(control, cf) : undefined;
      if (cond) conds.push(cond);
    }
  }
  return sql.join(conds, sql` and `);
};

const orderOf = (f: CustomerListBody): SQL => {
  const column = f.orderParams ? repo.SORT_COLUMNS[f.orderParams] : sql`c.created_at`;
  const dir = f.orderSort === 'asc' ? sql`asc` : sql`desc`;
  return sql`${column} ${dir} nulls last, c.id ${dir}`;
};

type ValueNames = { labels: Map<number, string>; customers: Map<number, string>; files: Map<number, string> };

/** Resolves the names control values point at (tags, companies, files) for a page of value sets. */
const resolveNames = async (
  db: Db,
  tenantId: number,
  tpl: LoadedTemplate,
  valsList: Record<string, string[]>[],
  extraLabelIds: number[],
) => {
  const labelIds = new Set<number>(extraLabelIds);
  const companyIds = new Set<number>();
  const fileIds = new Set<number>();
  for (const vals of valsList) {
    for (const c of tpl.enabled) {
      const val = vals[String(c.id)];
      if (!val) continue;
      if (c.dmType === DM_TYPE.tags) for (const x of val) labelIds.add(Number(x));
      if (c.dmType === DM_TYPE.company) companyIds.add(Number(val[0]));
      if (c.dmType === DM_TYPE.file) for (const x of val) fileIds.add(Number(x));
    }
  }
  const fileInfos = await fileInfosByIds(db, tenantId, [...fileIds]);
  const names: ValueNames = {
    labels: await labelNamesByIds(db, tenantId, [...labelIds]),
    customers: await repo.customerNames(db, tenantId, [...companyIds]),
    files: new Map([...fileInfos].map(([id, f]) => [id, f.name])),
  };
  return { names, fileInfos };
};

/** Stored values as the API shows them: labels resolved, phones masked for the viewer. */
const controlsOf = (
  v: Viewer,
  tpl: LoadedTemplate,
  vals: Record<string, string[]>,
  { names, fileInfos }: Awaited<ReturnType<typeof resolveNames>>,
): ControlValue[] => {
  const controls: ControlValue[] = [];
  for (const c of tpl.enabled) {
    // A group's own text is a value too (SPEC §4: a text input plus children).
    if (c.dmType === DM_TYPE.staticText) continue;
    const stored = vals[String(c.id)];
    if (!stored) continue;
    const value = c.dmType === DM_TYPE.phone && v.isMasked ? stored.map(maskPhone) : stored;
    const control: ControlValue = {
      cbTacid: c.id,
      name: c.name,
      dmType: c.dmType,
      dmValue: value,
      dmValueText: valueText(c, value, names),
    };
    if (c.dmType === DM_TYPE.file) control.fileUrls = value.map((id) => fileInfos.get(Number(id))?.url ?? '');
    controls.push(control);
  }
  return controls;
};

/** Turns stored rows into API rows: names resolved per page, phones masked for the viewer. */
export const toRows = async (db: Db, v: Viewer, tpl: LoadedTemplate, rows: repo.ListRow[]): Promise<CustomerRow[]> => {
  const resolved = await resolveNames(
    db,
    v.actor.tenantId,
    tpl,
    rows.map((r) => r.vals),
    rows.flatMap((r) => r.label_ids),
  );
  return rows.map((r) => ({
    cmCtid: r.id,
    name: r.name,
    encryptPhone: v.isMasked ? 1 : 0,
    contactName: r.contact_name,
    contactPhone: v.isMasked && r.contact_phone ? maskPhone(r.contact_phone) : r.contact_phone,
    templateControls: controlsOf(v, tpl, r.vals, resolved),
    cmNid: r.stage_id,
    cmNidName: r.stage_name ?? '',
    cmClids: r.label_ids,
    cmClidsInfo: r.label_ids.map((id) => ({ cmClid: id, name: resolved.names.labels.get(id) ?? '' })),
    ownerId: r.owner_id,
    ownerName: r.owner_name ?? '',
    creatorName: r.creator_name ?? '',
    cmDidName: r.department_name ?? '',
    lastContactStatus: r.last_contact_status,
    lastContactTime: formatDateTime(r.last_contact_at),
    contactNum: r.contact_num,
    followTime: formatDateTime(r.follow_at),
    nextFollowTime: formatDateTime(r.next_follow_at),
    allotTime: formatDateTime(r.allot_at),
    createTime: formatDateTime(r.created_at),
  }));
};

/** minelist / allotlist / today's appointments / never contacted / seaslist (`extra`: the pool service's own filters). */
export const listCustomers = async (
  db: Db,
  actor: Actor,
  kind: ListKind,
  f: CustomerListBody,
  extra?: SQL,
): Promise<ListData<CustomerRow> & { isCountCapped: boolean; isCountEstimated: boolean }> => {
  const v = await viewerOf(db, actor, { isSeas: kind === 'seas' });
  const base = await buildListWhere(db, v, kind, f);
  const where = extra ? sql`${base} and ${extra}` : base;
  const [rows, counted, tpl] = await Promise.all([
    repo.listPage(db, where, orderOf(f), f.limit, (f.page - 1) * f.limit),
    repo.countWithin(db, where, COUNT_CAP, COUNT_BUDGET_MS),
    loadTemplate(db, actor.tenantId),
  ]);
  const list = await toRows(db, v, tpl, rows);
  if (kind !== 'seas') {
    // 预计回收时间 of the page's private customers, one query for the page.
    const due = await exRecoveryTimes(
      db,
      actor.tenantId,
      list.map((r) => r.cmCtid),
    );
    for (const r of list) {
      const d = due.get(r.cmCtid);
      r.exRecoveryTime = d?.time ?? '';
      r.isRecycleSoon = d?.isSoon ?? false;
    }
  }
  return {
    list,
    count: counted.count,
    isCountCapped: counted.count >= COUNT_CAP,
    isCountEstimated: counted.isEstimated,
  };
};

/** One customer with its values (detail drawer, edit modal). */
export const customerInfo = async (db: Db, actor: Actor, id: number): Promise<CustomerDetail> => {
  const c = await requireVisibleCustomer(db, actor, id);
  const v = await viewerOf(db, actor, { isSeas: c.ownerId === null });
  const where = sql`c.tenant_id = ${actor.tenantId} and c.id = ${id} and c.deleted_at is null`;
  const [rows, tpl] = await Promise.all([repo.listPage(db, where, sql`c.id`, 1, 0), loadTemplate(db, actor.tenantId)]);
  const [row] = await toRows(db, v, tpl, rows);
  if (!row) throw new AppError('CUSTOMER_NOT_FOUND');
  return { ...row, detailFlags: detailFlagsOf(actor) };
};

export { type Viewer, viewerOf };

/** POST label: sets (or adds) tags on the customers the caller may see. */
export const setCustomerLabels = async (db: Db, actor: Actor, body: CustomerLabelBody): Promise<number> => {
  const tagIds = body.cmClids.length > 0 ? await requireEnabledTags(db, actor.tenantId, body.cmClids) : [];
  const v = await viewerOf(db, actor);
  const rows = (await repo.findCustomers(db, actor.tenantId, body.cmCtids)).filter((c) => canSee(v, c));
  await db.transaction(async (tx) => {
    for (const c of rows) {
      const labelIds = body.mode === 'add' ? [...new Set([...c.labelIds, ...tagIds])] : tagIds;
      await repo.updateCustomer(tx, actor.tenantId, c.id, { labelIds });
    }
  });
  return rows.length;
};

/** Workbench figures of the caller's own customers (issue 3), dates in Asia/Shanghai. */
export const customerStats = async (db: Db, actor: Actor) => {
  const today = startOfTodayShanghai();
  const tomorrow = new Date(today.getTime() + 86_400_000);
  // Monday of this week (Shanghai), and 30 days back for the chart.
  const dow = (new Date(today.getTime() + 8 * 3_600_000).getUTCDay() + 6) % 7;
  const weekStart = new Date(today.getTime() - dow * 86_400_000);
  const since = new Date(today.getTime() - 29 * 86_400_000);
  const figures = await repo.ownerFigures(db, actor.tenantId, actor.staffId, { today, tomorrow, weekStart });
  const perDay = await repo.createdPerDay(db, actor.tenantId, actor.staffId, since);
  const byDay = new Map(perDay.map((r) => [r.day, r.n]));
  const days: { date: string; count: number }[] = [];
  for (let i = 0; i < 30; i++) {
    const date = formatDateTime(new Date(since.getTime() + i * 86_400_000)).slice(0, 10);
    days.push({ date, count: byDay.get(date) ?? 0 });
  }
  return { ...figures, createdPerDay: days };
};

// ---------- follow-up effects (issue 4) ----------

/** Parses the isFollowShow control values of a follow-up; values of other controls are ignored. */
export const parseFollowControls = async (db: Db, actor: Actor, submitted: SubmittedControl[]) => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const followIds = new Set(tpl.enabled.filter((c) => c.isFollowShow === 1).map((c) => c.id));
  const mine = submitted.filter((c) => followIds.has(c.cbTacid));
  const parsed = parseOrThrow({ ...tpl, enabled: tpl.enabled.filter((c) => followIds.has(c.id)) }, mine, true);
  await checkRefs(db, actor, parsed.refs);
  return { tpl, parsed };
};

export type FollowUpChange = {
  at: Date;
  stageId?: number;
  nextFollowAt?: Date;
  tpl: LoadedTemplate;
  parsed: ParsedValues;
};

/** A follow-up updates the customer: follow time and writer, next appointment, stage, follow controls. */
export const applyFollowUp = async (tx: DbOrTx, v: Viewer, customer: repo.CustomerRecord, change: FollowUpChange) => {
  const { actor } = v;
  const hasValues = Object.keys(change.parsed.vals).length > 0;
  const vals = hasValues ? { ...customer.vals, ...change.parsed.vals } : customer.vals;
  if (hasValues) await checkDuplicates(tx, v, change.tpl, change.parsed, customer.id);
  await repo.updateCustomer(tx, actor.tenantId, customer.id, {
    followAt: change.at,
    followerId: actor.staffId,
    ...(change.nextFollowAt ? { nextFollowAt: change.nextFollowAt } : {}),
    ...(change.stageId ? { stageId: change.stageId } : {}),
    ...(hasValues ? { vals, ...contactOf(change.tpl, vals) } : {}),
  });
  if (hasValues) await repo.replacePhones(tx, actor.tenantId, customer.id, phonesOf(change.tpl, vals));
};

/** The stage bar: moves the customer to another stage. */
export const setCustomerStage = (tx: DbOrTx, tenantId: number, customerId: number, stageId: number) =>
  repo.updateCustomer(tx, tenantId, customerId, { stageId });

/** The saved isFollowShow values of follow records, as the history shows them. */
export const followControlValues = async (db: Db, actor: Actor, valsList: Record<string, string[]>[]) => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const v = await viewerOf(db, actor);
  const resolved = await resolveNames(db, actor.tenantId, tpl, valsList, []);
  return valsList.map((vals) => controlsOf(v, tpl, vals, resolved));
};

/** SPEC §6 detail flags of the caller; flags of features not built yet stay 0. */
export const detailFlagsOf = (actor: Actor): DetailFlags => {
  const flag = (key: string): 0 | 1 => (canDoAction(actor, `frontend/customer/detail/${key}`) ? 1 : 0);
  return {
    basic: flag('basic'),
    phone: flag('phone'),
    follow: flag('follow'),
    edit: flag('edit'),
    discard: flag('discard'),
    cOrder: 0,
    cMoney: 0,
    cReceipt: 0,
    order: 0,
    receipt: 0,
    work: 0,
  };
};

/** Refuses a detail tab or action the role does not grant (the server enforces what the drawer hides). */
export const requireDetailFlag = (actor: Actor, key: keyof DetailFlags) => {
  if (detailFlagsOf(actor)[key] !== 1) throw new AppError('DETAIL_FORBIDDEN');
};

/** The numbers held by the customer's template phone controls (the phone tab lists them first). */
export const templatePhones = async (db: Db, tenantId: number, customer: repo.CustomerRecord) => {
  const tpl = await loadTemplate(db, tenantId);
  return tpl.enabled.flatMap((c) => {
    const phone = c.dmType === DM_TYPE.phone ? customer.vals[String(c.id)]?.[0] : undefined;
    return phone ? [{ cbTacid: c.id, name: c.name, phone }] : [];
  });
};

// ---------- calls (issue 6) ----------

/** The first customer holding this number that the caller may see (calls: name the dialled or calling number). */
export const findVisibleCustomerByPhone = async (db: Db, actor: Actor, phone: string) => {
  const ids = await repo.findIdsByPhone(db, actor.tenantId, phone);
  if (ids.length === 0) return undefined;
  const v = await viewerOf(db, actor);
  const found = await repo.findCustomers(db, actor.tenantId, ids);
  return found.sort((a, b) => a.id - b.id).find((c) => canSee(v, c));
};

/** A call ended: last contact time and status (1 connected, 2 unanswered), one more contact. */
export const recordCallContact = (tx: DbOrTx, tenantId: number, customerId: number, call: { at: Date; isConnected: boolean }) =>
  repo.addContact(tx, tenantId, customerId, call.at, call.isConnected ? 1 : 2);

/** The customer an incoming call's number belongs to: the agent's own first, else any of the company. */
export const findCustomerForIncoming = async (db: Db, tenantId: number, staffId: number, phone: string) => {
  const ids = await repo.findIdsByPhone(db, tenantId, phone);
  if (ids.length === 0) return undefined;
  const found = (await repo.findCustomers(db, tenantId, ids)).sort((a, b) => a.id - b.id);
  return found.find((c) => c.ownerId === staffId) ?? found[0];
};

/** A live customer of the company by id, without a viewer (the system finishing a call). */
export const findCustomerRecord = (db: DbOrTx, tenantId: number, id: number) => repo.findCustomer(db, tenantId, id);
