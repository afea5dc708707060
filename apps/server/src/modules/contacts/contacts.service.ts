import type {
  Contact,
  ContactBody,
  ContactEditBody,
  ContactListQuery,
  ListData,
  PhoneReveal,
  PhoneRevealQuery,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { maskPhone, normalisePhone } from '../../lib/phone';
import { formatDateTime } from '../../lib/time';
import { isMaskedFor, phoneMatches, phoneMatchOf, showPhone } from '../customers/customer-access';
import {
  type CustomerRecord,
  requireDetailFlag,
  requireVisibleCustomer,
  templatePhones,
  viewerOf,
} from '../customers/customers.service';
import { spendPhoneReveal } from '../customers/phone-reveals';
import * as repo from './contacts.repo';

const SOURCE = { template: 1, added: 2 } as const;

const contactTypeOf = (phone: string) => (/^1\d{10}$/.test(phone) ? 1 : phone.startsWith('0') ? 2 : 3);

/** Every number of a customer: its template phone controls, then the numbers added on the phone tab. */
const allNumbers = async (db: Db, actor: Actor, customer: CustomerRecord): Promise<Contact[]> => {
  const fromTemplate = (await templatePhones(db, actor.tenantId, customer)).map(
    (p): Contact => ({
      ccId: 0,
      cmCtid: customer.id,
      cbTacid: p.cbTacid,
      contactPerson: customer.contactName,
      contactNo: p.phone,
      encryptPhone: 0,
      contactType: contactTypeOf(normalisePhone(p.phone)?.phone ?? p.phone),
      contactPosition: p.position,
      kpType: 0,
      recommend: 0,
      createTime: formatDateTime(customer.createdAt),
      sourceType: SOURCE.template,
    }),
  );
  const added = (await repo.listContacts(db, actor.tenantId, customer.id)).map(
    (c): Contact => ({
      ccId: c.id,
      cmCtid: customer.id,
      cbTacid: 0,
      contactPerson: c.contactPerson,
      contactNo: c.contactNo,
      encryptPhone: 0,
      contactType: c.contactType,
      contactPosition: c.contactPosition,
      kpType: c.kpType,
      recommend: c.recommend,
      createTime: formatDateTime(c.createdAt),
      sourceType: c.sourceType,
    }),
  );
  return [...fromTemplate, ...added];
};

/** other/phone: the phone tab (20 per page), numbers masked for a viewer who may not see them. */
export const listContacts = async (db: Db, actor: Actor, q: ContactListQuery): Promise<ListData<Contact>> => {
  requireDetailFlag(actor, 'phone');
  const customer = await requireVisibleCustomer(db, actor, q.cmCtid);
  const isMasked = isMaskedFor(await viewerOf(db, actor), customer);
  // A masked number is found only by its complete digits, never by a part (issue 11).
  const match = q.contactNo?.trim() ? phoneMatchOf(q.contactNo, isMasked) : undefined;
  const matching = (await allNumbers(db, actor, customer)).filter(
    (c) =>
      (!match || phoneMatches(match, c.contactNo)) &&
      (q.kpType === undefined || c.kpType === q.kpType) &&
      (q.recommend === undefined || c.recommend === q.recommend),
  );
  const page = matching.slice((q.page - 1) * q.limit, q.page * q.limit);
  return {
    count: matching.length,
    list: page.map((c) => (isMasked ? { ...c, contactNo: showPhone(true, c.contactNo), encryptPhone: 1 } : c)),
  };
};

const checkNumber = async (db: Db, actor: Actor, customer: CustomerRecord, raw: string, exceptId: number) => {
  const n = normalisePhone(raw);
  if (!n) throw new AppError('CONTACT_PHONE_INVALID');
  const others = (await allNumbers(db, actor, customer)).filter((c) => c.ccId !== exceptId || c.sourceType === SOURCE.template);
  if (others.some((c) => (normalisePhone(c.contactNo)?.phone ?? c.contactNo) === n.phone))
    throw new AppError('CONTACT_DUPLICATE');
  return n.ext ? `${n.phone}-${n.ext}` : n.phone;
};

/** The stored fields of an added number as the form sends them, with the checked number. */
const contactFields = (body: ContactBody, contactNo: string) => ({
  contactPerson: body.contactPerson,
  contactNo,
  contactType: body.contactType,
  contactPosition: body.contactPosition,
  kpType: body.kpType,
  recommend: body.recommend,
});

/** Adds a number on the phone tab. */
export const createContact = async (db: Db, actor: Actor, body: ContactBody): Promise<number> => {
  requireDetailFlag(actor, 'phone');
  const customer = await requireVisibleCustomer(db, actor, body.cmCtid);
  const contactNo = await checkNumber(db, actor, customer, body.contactNo, 0);
  return repo.insertContact(db, {
    tenantId: actor.tenantId,
    customerId: customer.id,
    ...contactFields(body, contactNo),
    sourceType: SOURCE.added,
    createdBy: actor.staffId,
    createdAt: now(),
  });
};

const requireContact = async (db: Db, actor: Actor, ccId: number) => {
  const contact = await repo.findContact(db, actor.tenantId, ccId);
  if (!contact) throw new AppError('CONTACT_NOT_FOUND');
  const customer = await requireVisibleCustomer(db, actor, contact.customerId);
  return { contact, customer };
};

/** Edits an added number; a masked number sent back unchanged keeps the stored one. */
export const editContact = async (db: Db, actor: Actor, body: ContactEditBody): Promise<void> => {
  requireDetailFlag(actor, 'phone');
  const { contact, customer } = await requireContact(db, actor, body.ccId);
  const isUnchanged = body.contactNo === contact.contactNo || body.contactNo === maskPhone(contact.contactNo);
  const contactNo = isUnchanged ? contact.contactNo : await checkNumber(db, actor, customer, body.contactNo, contact.id);
  await repo.updateContact(db, actor.tenantId, contact.id, {
    ...contactFields(body, contactNo),
  });
};

export const deleteContact = async (db: Db, actor: Actor, ccId: number): Promise<void> => {
  requireDetailFlag(actor, 'phone');
  const { contact } = await requireContact(db, actor, ccId);
  await repo.deleteContact(db, actor.tenantId, contact.id);
};

/**
 * GET phone: the full number behind a mask. Each reveal by a masked viewer counts against
 * the company's decryptPhoneNum per staff per day (0 = 不限制).
 */
export const revealPhone = async (db: Db, actor: Actor, q: PhoneRevealQuery): Promise<PhoneReveal> => {
  const customer = await requireVisibleCustomer(db, actor, q.cmCtid);
  const numbers = await allNumbers(db, actor, customer);
  const found =
    q.sourceId && q.sourceType === SOURCE.added
      ? numbers.find((c) => c.ccId === q.sourceId)
      : numbers.find((c) => c.sourceType === SOURCE.template && c.cbTacid === q.cbTacid);
  if (!found) throw new AppError('CONTACT_NOT_FOUND');
  if (!isMaskedFor(await viewerOf(db, actor), customer)) return { phone: found.contactNo, remaining: null };
  return { phone: found.contactNo, remaining: await spendPhoneReveal(db, actor, customer.id) };
};

/**
 * The full number behind a customer's phone control (cbTacid) or added number (ccId), for
 * dialing by id: a masked number never goes to the browser (DESIGN §4). Neither given: the first number.
 */
export const customerNumber = async (
  db: Db,
  actor: Actor,
  customer: CustomerRecord,
  ref: { cbTacid?: number; ccId?: number },
): Promise<string | undefined> => {
  const numbers = await allNumbers(db, actor, customer);
  if (ref.ccId) return numbers.find((c) => c.ccId === ref.ccId)?.contactNo;
  if (ref.cbTacid) return numbers.find((c) => c.sourceType === SOURCE.template && c.cbTacid === ref.cbTacid)?.contactNo;
  return numbers[0]?.contactNo;
};

/** The customers one of whose added numbers is exactly this (normalised) number: the 禁拨 list and refusal log link it so. */
export const customerIdsWithContactNumber = (db: DbOrTx, tenantId: number, phone: string) =>
  repo.customerIdsWithNumber(db, tenantId, phone);
