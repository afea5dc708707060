import { DM_TYPE } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { loadTemplate } from '../customers/customer-templates.service';
import { insertParsedCustomer, parseOrThrow } from '../customers/customers.service';
import * as repo from './calltasks.repo';
import * as runner from './calltasks-runner.repo';

/**
 * customerInfoState 1 (issue 15): a task number without a customer that an agent reached becomes
 * his customer (named by the number, the number in the template's first phone control), with the
 * rules of a customer he creates himself (his customer limit). Returns the new customer's id, or
 * undefined when it was not made (no phone control, the limit, a customer of the number meanwhile).
 */
export const adoptNumber = async (db: Db, p: { tenantId: number; numberId: number; staffId: number }) => {
  const actor = await repo.staffActor(db, p.tenantId, p.staffId);
  const tpl = await loadTemplate(db, p.tenantId);
  const control = tpl.enabled.find((c) => c.dmType === DM_TYPE.phone);
  if (!actor || !control) return undefined;
  try {
    return await db.transaction(async (tx) => {
      const n = await runner.lockNumber(tx, p.numberId);
      if (!n || n.customerId) return undefined;
      const parsed = parseOrThrow(tpl, [{ cbTacid: control.id, dmValue: [n.phone] }], true);
      const id = await insertParsedCustomer(tx, actor, tpl, n.phone, parsed);
      await runner.updateNumber(tx, n.id, { customerId: id });
      return id;
    });
  } catch (err) {
    if (err instanceof AppError) return undefined;
    throw err;
  }
};
