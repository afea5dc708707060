import { CALL_TYPE, type DetailFlags, DM_TYPE } from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { type Actor, canDoAction } from '../../lib/auth-context';
import { maskPhone, normalisePhone } from '../../lib/phone';
import { scopeStaffIds } from '../staff/staff.service';
import { getStrategy } from '../strategy/strategy.service';
import { poolRules } from './customer-pool-rules';
import { loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';

/**
 * The one customer-access policy (DESIGN §3): who may see a customer (data scope, usable pools),
 * whose numbers are masked for whom (phoneEncryp for private customers and incoming callers,
 * seaPhoneEncryp for pool customers), which detail tabs a role opens, and how phone filters match.
 * Every domain that returns customer data asks it, per viewer and per customer, when it answers.
 */

/** What decides access for one caller: data scope, usable pools (null = all) and the company's masking flags. */
export type Viewer = {
  actor: Actor;
  scope: number[] | null;
  poolIds: number[] | null;
  /** phoneEncryp applies to this caller: private customers' numbers and incoming callers are masked */
  isPrivateMasked: boolean;
  /** seaPhoneEncryp applies to this caller: pool customers' numbers are masked */
  isPoolMasked: boolean;
};

/** Where a customer lives: an owner (private) or a shared pool. */
export type CustomerPlace = { ownerId: number | null; poolId: number | null };

/** The caller's access, read now (strategy and scope may change between two requests or two socket frames). */
export const viewerOf = async (db: DbOrTx, actor: Actor): Promise<Viewer> => {
  const strategy = await getStrategy(db, actor.tenantId);
  // SPEC §6: roles granted the full numbers see them whatever the flags say.
  const canDecrypt = canDoAction(actor, 'frontend/customer/decrypt');
  return {
    actor,
    scope: await scopeStaffIds(db, actor),
    poolIds: await poolRules().visiblePoolIds(db, actor),
    isPrivateMasked: strategy.phoneEncryp === 1 && !canDecrypt,
    isPoolMasked: strategy.seaPhoneEncryp === 1 && !canDecrypt,
  };
};

/** Own scope for private customers; a shared-pool customer is visible to the staff who may use its pool. */
export const canSee = (viewer: Viewer, customer: CustomerPlace) => {
  if (customer.ownerId === null) {
    return customer.poolId !== null && (viewer.poolIds === null || viewer.poolIds.includes(customer.poolId));
  }
  return viewer.scope === null || viewer.scope.includes(customer.ownerId);
};

const intArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;

/** The same visibility rule over `customers c`, for set-based moves: private customers in scope, pool customers of usable pools. */
export const visibleSql = (viewer: Viewer) => {
  const own = viewer.scope === null ? sql`c.owner_id is not null` : sql`c.owner_id = any(${intArray(viewer.scope)})`;
  const pooled =
    viewer.poolIds === null
      ? sql`(c.owner_id is null and c.pool_id is not null)`
      : sql`(c.owner_id is null and c.pool_id = any(${intArray(viewer.poolIds)}))`;
  return { own, pooled, any: sql`(${own} or ${pooled})` };
};

/** Whether this customer's numbers reach the caller masked: always when he may not see the customer at all. */
export const isMaskedFor = (viewer: Viewer, customer: CustomerPlace) => {
  if (!canSee(viewer, customer)) return true;
  return customer.ownerId === null ? viewer.isPoolMasked : viewer.isPrivateMasked;
};

/** Whether some number the caller reads may be masked (filters over many customers must then match whole numbers). */
export const isAnyMasked = (viewer: Viewer) => viewer.isPrivateMasked || viewer.isPoolMasked;

/**
 * Where a number shown with a call or a task comes from (issue 22): an agent typed it and dialled it
 * himself ('typed'), a task's list holds it ('task': seat, group and AI tasks, the calls they place
 * included), or it called in ('incoming': an extension's caller, an AI接待 caller).
 */
export type NumberKind = 'typed' | 'task' | 'incoming';

/** The kind of a call's number: incoming calls are their caller's; a task's call shows the task's number. */
export const callNumberKind = (call: { callType: number; taskId?: number | null }): NumberKind => {
  if (call.callType === CALL_TYPE.inbound) return 'incoming';
  return call.taskId ? 'task' : 'typed';
};

/**
 * How a number reaches the caller, for every surface that shows one (calls, socket frames, task
 * numbers, AI calls, exports): a number that belongs to a customer follows the customer's rule
 * (masked always when the caller may not see him; masked when the recorded customer is gone);
 * a number of no customer is masked like a private customer's (phoneEncryp) unless the caller's
 * own hand typed it: a task's imported number and an incoming caller are nobody's to read in full.
 */
export const isNumberMasked = (
  viewer: Viewer,
  n: { kind: NumberKind; customerId: number | null | undefined; customer: CustomerPlace | null | undefined },
) => {
  if (n.customer) return isMaskedFor(viewer, n.customer);
  // a customer deleted since is no longer anyone's to see
  if (n.customerId) return true;
  return n.kind !== 'typed' && viewer.isPrivateMasked;
};

/** The number of a call as the caller may see it (isNumberMasked with the call's kind). */
export const isCallNumberMasked = (
  viewer: Viewer,
  call: { callType: number; taskId?: number | null; customerId?: number | null; customer: CustomerPlace | null | undefined },
) => isNumberMasked(viewer, { kind: callNumberKind(call), customerId: call.customerId, customer: call.customer });

export const showPhone = (isMasked: boolean, phone: string) => (isMasked && phone ? maskPhone(phone) : phone);

/** The customer if the caller may see it, else CUSTOMER_NOT_FOUND. */
export const requireVisibleCustomer = async (db: DbOrTx, actor: Actor, id: number) => {
  const customer = await repo.findCustomer(db, actor.tenantId, id);
  if (!customer || !canSee(await viewerOf(db, actor), customer)) throw new AppError('CUSTOMER_NOT_FOUND');
  return customer;
};

// ---------- phone filters (issue 11 hole 2) ----------

/** How a phone filter matches: nothing, one whole number, or a part of the digits. */
export type PhoneMatch = { kind: 'none' } | { kind: 'exact'; phone: string } | { kind: 'part'; digits: string };

/**
 * A searched number is looked up whole when it is a whole number (7+ digits). For numbers the
 * caller may not see, a part never matches (it would recover a masked number digit by digit);
 * the searched text must be the complete number. A filter without digits matches nothing.
 */
export const phoneMatchOf = (text: string, isMasked: boolean): PhoneMatch => {
  const digits = text.replace(/\D/g, '');
  if (!digits) return { kind: 'none' };
  const n = normalisePhone(text);
  if (n && n.phone.length >= 7) return { kind: 'exact', phone: n.phone };
  if (isMasked) return { kind: 'exact', phone: n?.phone ?? digits };
  return { kind: 'part', digits };
};

/** Whether one stored number passes a phone filter (lists filtered in memory: the phone tab). */
export const phoneMatches = (match: PhoneMatch, stored: string) => {
  if (match.kind === 'none') return false;
  const storedDigits = stored.replace(/\D/g, '');
  if (match.kind === 'part') return storedDigits.includes(match.digits);
  const n = normalisePhone(stored);
  return (n?.phone ?? storedDigits) === match.phone || storedDigits === match.phone;
};

// ---------- what a duplicate refusal may say (hole 10) ----------

/**
 * The owner and name of a duplicate are named only to a caller who may see that customer; to anyone
 * else the refusal says only that the value exists (issue 11: no names outside the caller's scope).
 */
export const duplicateText = (
  viewer: Viewer,
  what: string,
  shownValue: string,
  other: CustomerPlace & { name: string; ownerName: string | null },
) => {
  if (!canSee(viewer, other)) return `${what}“${shownValue}”已存在`;
  return `${what}“${shownValue}”已存在，归属于${other.ownerName ?? '公海'}（客户：${other.name || '未命名'}）`;
};

// ---------- detail flags ----------

/** SPEC §6 detail flags of the caller (what his role grants). */
export const detailFlagsOf = (actor: Actor): DetailFlags => {
  const flag = (key: string): 0 | 1 => (canDoAction(actor, `frontend/customer/detail/${key}`) ? 1 : 0);
  return {
    basic: flag('basic'),
    phone: flag('phone'),
    follow: flag('follow'),
    edit: flag('edit'),
    discard: flag('discard'),
    cOrder: flag('cOrder'),
    cMoney: flag('cMoney'),
    cReceipt: flag('cReceipt'),
    order: flag('order'),
    receipt: flag('receipt'),
    work: flag('work'),
  };
};

/** Refuses a detail tab or action the role does not grant (the server enforces what the drawer hides). */
export const requireDetailFlag = (actor: Actor, key: keyof DetailFlags) => {
  if (detailFlagsOf(actor)[key] !== 1) throw new AppError('DETAIL_FORBIDDEN');
};

// ---------- files (hole 3) ----------

/**
 * A file attached to customers (file controls) is served only to a caller who may see one of them.
 * Undefined when no customer holds the file (company logos, avatars, files not attached yet).
 */
export const attachmentAccess = async (db: DbOrTx, actor: Actor, fileId: number) => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const fileControls = tpl.rows.filter((c) => c.dmType === DM_TYPE.file).map((c) => c.id);
  const holders = await repo.findHoldersOfValue(db, actor.tenantId, fileControls, String(fileId));
  if (holders.length === 0) return undefined;
  const viewer = await viewerOf(db, actor);
  return { isAllowed: holders.some((c) => canSee(viewer, c)) };
};
