import {
  type CustomerCreateBody,
  type CustomerEditBody,
  type CustomerLabelBody,
  DM_TYPE,
  type SubmittedControl,
} from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { maskPhone, normalisePhone } from '../../lib/phone';
import { requireEnabledTags } from '../labels/labels.service';
import { getStrategy } from '../strategy/strategy.service';
import { requireOwnFile } from '../uploads/uploads.service';
import { type ParsedValues, parseControlValues } from './control-values';
import {
  canSee,
  duplicateText,
  isMaskedFor,
  phoneMatchOf,
  requireVisibleCustomer,
  showPhone,
  type Viewer,
  viewerOf,
} from './customer-access';
import { customerRoom } from './customer-limit';
import { type LoadedTemplate, loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';
import { customerInfo } from './customers-lists';

/**
 * Customer records: create, edit, batch edit, delete, labels, the effects of follow-ups and calls.
 * Access and masking: customer-access.ts; list filters: customers-filters.ts; presentation:
 * customers-presenter.ts; lists: customers-lists.ts.
 */

// Kept for the modules that read these through the records service (import, pools, calls, contacts, follow-ups).
export {
  canSee,
  detailFlagsOf,
  requireDetailFlag,
  requireVisibleCustomer,
  type Viewer,
  viewerOf,
  visibleSql,
} from './customer-access';
export { customerRoom } from './customer-limit';
export type { CustomerRecord } from './customers.repo';
export { buildListWhere, type ListKind } from './customers-filters';
export { COUNT_BUDGET_MS, COUNT_CAP, customerInfo, customerStats, listCustomers, pickCustomers } from './customers-lists';
export { followControlValues, toRows } from './customers-presenter';

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

/** isJudge: the value must be unique among the company's customers; the message names only what the caller may see. */
const checkDuplicates = async (tx: DbOrTx, v: Viewer, tpl: LoadedTemplate, parsed: ParsedValues, exceptId: number) => {
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
    const other = await repo.findByName(tx, actor.tenantId, name, exceptId);
    if (other) {
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

/** The numbers held by the customer's template phone controls (the phone tab lists them first), each with
 *  the contact's position: the value of the template's 职位/职务 text control, '' when it has none (issue 23.5:
 *  never the phone control's own name). */
export const templatePhones = async (db: Db, tenantId: number, customer: repo.CustomerRecord) => {
  const tpl = await loadTemplate(db, tenantId);
  const positionControl = tpl.enabled.find((c) => c.dmType === DM_TYPE.text && /职位|职务/.test(c.name));
  const position = positionControl ? (customer.vals[String(positionControl.id)]?.[0] ?? '') : '';
  return tpl.enabled.flatMap((c) => {
    const phone = c.dmType === DM_TYPE.phone ? customer.vals[String(c.id)]?.[0] : undefined;
    return phone ? [{ cbTacid: c.id, name: c.name, phone, position }] : [];
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

/**
 * customer/info ?phone alone (SPEC §7): the first customer holding this whole number whom the caller
 * may see (the customer-access policy: data scope, usable pools), shown as customer/info shows him
 * (numbers masked for this caller). A part of a number finds nothing (it would recover masked
 * numbers digit by digit); a customer outside the caller's sight is "not found", as by id.
 */
export const customerInfoByPhone = async (db: Db, actor: Actor, phone: string) => {
  const match = phoneMatchOf(phone, true);
  if (match.kind !== 'exact') throw new AppError('CONTACT_PHONE_INVALID');
  const found = await findVisibleCustomerByPhone(db, actor, match.phone);
  if (!found) throw new AppError('CUSTOMER_NOT_FOUND');
  return customerInfo(db, actor, found.id);
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
