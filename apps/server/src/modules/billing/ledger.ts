import { BILLING_LOW_BALANCE_MSG_TYPE, type BillingAlert, formatBillingYuan } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import type { PubSub } from '../../lib/pubsub';
import { staffChannel } from '../../lib/pubsub';
import { formatDateTime } from '../../lib/time';
import { systemRoleIds } from '../roles/roles.service';
import { activeStaffOfRoles } from '../staff/staff-lookup';
import * as repo from './billing.repo';

/**
 * The one way money moves (issue 27): under the company's balance lock (repo.lockBalance) the
 * movements become ledger rows, each with the balance after it, and the balance row takes the
 * last one in the same transaction, so the ledger's sum is the balance after every commit. A row
 * is never updated or deleted; each carries a unique idempotency key (a second booking of the
 * same source fails the transaction instead of charging twice).
 */
export type Movement = Omit<repo.LedgerInsert, 'tenantId' | 'balanceAfter' | 'id'>;

export type Booked = { ids: Map<string, number>; balanceAfter: Map<string, number>; before: number; after: number };

/** Books movements on a locked balance row; `reservedDelta` moves the held credit in the same write. */
export const book = async (
  tx: DbOrTx,
  tenantId: number,
  locked: repo.BalanceRow,
  movements: Movement[],
  reservedDelta = 0,
): Promise<Booked> => {
  let balance = locked.balance;
  const after = new Map<string, number>();
  const rows = movements.map((m) => {
    balance += m.amount;
    after.set(m.idemKey, balance);
    return { ...m, tenantId, balanceAfter: balance };
  });
  const inserted = await repo.insertLedgerRows(tx, rows);
  if (movements.length > 0 || reservedDelta !== 0) {
    await repo.setBalance(tx, tenantId, { balance, reserved: locked.reserved + reservedDelta });
  }
  return { ids: new Map(inserted.map((r) => [r.idemKey, r.id])), balanceAfter: after, before: locked.balance, after: balance };
};

/**
 * The low-balance notices a fall from `before` to `after` makes: one per threshold crossed
 * downwards (before ≥ t > after). A recharge that lifts the balance over it arms it again, so each
 * crossing is told once, whatever the number of debits below it.
 */
export const recordCrossings = async (tx: DbOrTx, tenantId: number, before: number, after: number, ledgerId: number) => {
  if (after >= before) return [];
  const thresholds = await repo.thresholdsOf(tx, tenantId);
  const crossed = thresholds.filter((t) => before >= t && after < t).sort((a, b) => b - a);
  return repo.insertAlerts(
    tx,
    crossed.map((threshold) => ({ tenantId, threshold, balance: after, ledgerId })),
  );
};

export const alertText = (threshold: number, balance: number) =>
  `账户余额已低于${formatBillingYuan(threshold)}元，当前余额${formatBillingYuan(balance)}元，请及时充值`;

export const alertView = (a: {
  id: number;
  threshold: number;
  balance: number;
  createdAt: Date;
  isRead: boolean;
}): BillingAlert => ({
  id: a.id,
  threshold: Number(a.threshold),
  balance: Number(a.balance),
  at: formatDateTime(a.createdAt),
  is_read: a.isRead,
  text: alertText(Number(a.threshold), Number(a.balance)),
});

export type Notifier = Pick<PubSub, 'publish'>;

/** After the commit: each admin of the company hears of each crossing (socket msg_type 24). */
export const tellAdmins = async (
  db: DbOrTx,
  bus: Notifier | undefined,
  tenantId: number,
  alerts: Awaited<ReturnType<typeof recordCrossings>>,
) => {
  if (!bus || alerts.length === 0) return;
  const admins = await activeStaffOfRoles(db, tenantId, await systemRoleIds(db, tenantId));
  for (const a of alerts) {
    const data = alertView(a);
    for (const staffId of admins) {
      await bus
        .publish(staffChannel(staffId), {
          kind: 'frame',
          frame: { code: 0, msg_type: BILLING_LOW_BALANCE_MSG_TYPE, msg: data.text, data },
        })
        .catch(() => undefined);
    }
  }
};
