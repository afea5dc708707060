import { DM_TYPE } from '@crm/contracts';
import type { Db } from '../../db/client';
import { onlyRefusal } from '../../lib/app-error';
import { loadTemplate } from '../customers/customer-templates.service';
import { insertParsedCustomer, parseOrThrow } from '../customers/customers.service';
import { staffActor } from '../staff/staff.service';
import { customerForNumber } from './task-core';

/**
 * customerInfoState 1 (issue 15): a task number without a customer that an agent reached becomes
 * his customer (named by the number, the number in the template's first phone control), with the
 * rules of a customer he creates himself (his customer limit). Returns the new customer's id, or
 * undefined when it was not made (no phone control, the limit, a customer of the number meanwhile).
 */
export const adoptNumber = async (db: Db, p: { tenantId: number; numberId: number; staffId: number }) => {
  const actor = await staffActor(db, p.tenantId, p.staffId);
  const tpl = await loadTemplate(db, p.tenantId);
  const control = tpl.enabled.find((c) => c.dmType === DM_TYPE.phone);
  if (!actor || !control) return undefined;
  const made = await customerForNumber(db, p.tenantId, p.numberId, (tx, phone) => {
    const parsed = parseOrThrow(tpl, [{ cbTacid: control.id, dmValue: [phone] }], true);
    return insertParsedCustomer(tx, actor, tpl, phone, parsed);
  }).catch(onlyRefusal(undefined));
  return made?.isNew ? made.id : undefined;
};
