import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { intArray } from '../../db/int-array';
import { customerDeals, poolEntries } from '../../db/schema';

/** The pool facts of customers purged for good (the customers themselves go through customers-for-pools). */

/** Purged customers (every company: the nightly sweep) lose their pool entries and deal facts. */
export const dropFactsOf = async (tx: DbOrTx, customerIds: readonly number[]) => {
  if (customerIds.length === 0) return;
  await tx.execute(sql`delete from ${poolEntries} where customer_id = any(${intArray(customerIds)})`);
  await tx.execute(sql`delete from ${customerDeals} where customer_id = any(${intArray(customerIds)})`);
};
