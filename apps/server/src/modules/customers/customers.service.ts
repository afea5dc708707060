import {
  CONTACT_STATUS,
  type CustomerCreateBody,
  type CustomerEditBody,
  type CustomerLabelBody,
  type SubmittedControl,
} from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { requireEnabledTags } from '../labels/labels.service';
import type { ParsedValues } from './control-values';
import { canSee, requireVisibleCustomer, viewerOf } from './customer-access';
import { checkCustomerLimit, checkDuplicates, checkName, checkRefs, parseOrThrow } from './customer-checks';
import { contactOf, phonesOf, unmaskPhones } from './customer-derived';
import { type LoadedTemplate, loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';

/**
 * Customer records: create, edit, batch edit, delete, labels, stage, a call's contact counters.
 * Checks before storing: customer-checks.ts; derived columns: customer-derived.ts; follow-up
 * effects: customer-follow-effects.ts; numbers: customer-phones.ts; access and masking:
 * customer-access.ts; list filters: customers-filters.ts; presentation: customers-presenter.ts;
 * lists: customers-lists.ts. Other modules use these through this file.
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
export {
  checkCustomerLimit,
  checkName,
  checkRefs,
  duplicateMessage,
  findDuplicate,
  parseOrThrow,
} from './customer-checks';
export { applyFollowUp, type FollowUpChange, parseFollowControls } from './customer-follow-effects';
export { customerRoom } from './customer-limit';
export { customerInfoByPhone, findCustomerForIncoming, findVisibleCustomerByPhone, templatePhones } from './customer-phones';
export type { CustomerRecord } from './customers.repo';
export { buildListWhere, type ListKind } from './customers-filters';
export { COUNT_BUDGET_MS, COUNT_CAP, customerInfo, customerStats, listCustomers, pickCustomers } from './customers-lists';
export { followControlValues, toRows } from './customers-presenter';

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
/** The stage bar: moves the customer to another stage. */
export const setCustomerStage = (tx: DbOrTx, tenantId: number, customerId: number, stageId: number) =>
  repo.updateCustomer(tx, tenantId, customerId, { stageId });

/** A call ended: last contact time and status (1 connected, 2 unanswered), one more contact. */
export const recordCallContact = (tx: DbOrTx, tenantId: number, customerId: number, call: { at: Date; isConnected: boolean }) =>
  repo.addContact(tx, tenantId, customerId, call.at, call.isConnected ? CONTACT_STATUS.connected : CONTACT_STATUS.unanswered);

/** A live customer of the company by id, without a viewer (the system finishing a call). */
export const findCustomerRecord = (db: DbOrTx, tenantId: number, id: number) => repo.findCustomer(db, tenantId, id);
