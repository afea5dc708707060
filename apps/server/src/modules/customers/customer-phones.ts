/** A customer's numbers and the customers behind a number: the phone tab's template numbers, calls naming a number, customer/info ?phone. */
import { DM_TYPE } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { canSee, phoneMatchOf, viewerOf } from './customer-access';
import { loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';
import { customerInfo } from './customers-lists';

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

/** The customer an incoming call's number belongs to: the agent's own first, else any of the company. */
export const findCustomerForIncoming = async (db: Db, tenantId: number, staffId: number, phone: string) => {
  const ids = await repo.findIdsByPhone(db, tenantId, phone);
  if (ids.length === 0) return undefined;
  const found = (await repo.findCustomers(db, tenantId, ids)).sort((a, b) => a.id - b.id);
  return found.find((c) => c.ownerId === staffId) ?? found[0];
};
