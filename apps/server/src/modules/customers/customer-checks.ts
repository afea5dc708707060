/**
 * The checks a customer's values pass before they are stored: parsing against the form, the ids
 * they point at, uniqueness (isJudge controls, the name) with a refusal that names only what the
 * caller may see, and the per-staff customer limit.
 */
import { DM_TYPE, type SubmittedControl } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { requireEnabledTags } from '../labels/labels.service';
import { staffNames } from '../staff/staff-lookup';
import { getStrategy } from '../strategy/strategy.service';
import { requireOwnFile } from '../uploads/uploads.service';
import { type ParsedValues, parseControlValues } from './control-values';
import { canSee, duplicateText, isMaskedFor, showPhone, type Viewer, viewerOf } from './customer-access';
import { customerRoom } from './customer-limit';
import type { LoadedTemplate } from './customer-templates.service';
import * as repo from './customers.repo';

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

/** The holder of a duplicate value with his owner's name (null in a pool), for the refusal's text. */
const withOwnerName = async <T extends { ownerId: number | null }>(db: DbOrTx, tenantId: number, holder: T) => ({
  ...holder,
  ownerName: holder.ownerId === null ? null : ((await staffNames(db, tenantId, [holder.ownerId])).get(holder.ownerId) ?? null),
});

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
    if (other) return { control: c, other: await withOwnerName(tx, tenantId, other), value: values[0], phone };
  }
  return undefined;
};

/** isJudge: the value must be unique among the company's customers; the message names only what the caller may see. */
export const checkDuplicates = async (tx: DbOrTx, v: Viewer, tpl: LoadedTemplate, parsed: ParsedValues, exceptId: number) => {
  const dup = await findDuplicate(tx, v.actor.tenantId, tpl, parsed, exceptId);
  if (dup) throw new AppError('CUSTOMER_DUPLICATE', duplicateMessage(v, dup));
};

export const duplicateMessage = (v: Viewer, dup: NonNullable<Awaited<ReturnType<typeof findDuplicate>>>) => {
  // The number shown is the caller's own submission: masked as his customers' numbers are, or as the other's when he may see it.
  const isMasked = canSee(v, dup.other) ? isMaskedFor(v, dup.other) : v.isPrivateMasked;
  const shown = dup.phone ? showPhone(isMasked, dup.phone) : dup.value;
  return duplicateText(v, dup.control.name, shown, dup.other);
};

export const checkName = async (tx: DbOrTx, actor: Actor, tpl: LoadedTemplate, name: string, exceptId: number) => {
  const strategy = await getStrategy(tx, actor.tenantId);
  if (!name && (tpl.isMustName === 1 || strategy.mustCustomerName === 1)) throw new AppError('CUSTOMER_NAME_REQUIRED');
  if (name && strategy.repeatCustomerName === 1) {
    await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, hashtext(${`name:${name}`}))`);
    const found = await repo.findByName(tx, actor.tenantId, name, exceptId);
    if (found) {
      const other = await withOwnerName(tx, actor.tenantId, found);
      const v = await viewerOf(tx, actor);
      const owner = canSee(v, other) ? `，归属于${other.ownerName ?? '公海'}` : '';
      throw new AppError('CUSTOMER_NAME_REPEAT', `客户名称“${name}”已存在${owner}`);
    }
  }
};

/** maxCustomer per staff (0 = 不限制): refuses when `adding` more would pass it. */
export const checkCustomerLimit = async (tx: DbOrTx, tenantId: number, ownerId: number, adding: number) => {
  const room = await customerRoom(tx, tenantId, ownerId);
  if (adding > room.left) throw new AppError('CUSTOMER_LIMIT', room.message);
};
