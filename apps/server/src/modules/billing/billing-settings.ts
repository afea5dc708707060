import type { BillingSettingsBody } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import * as repo from './billing.repo';
import { scopeOf } from './billing-reports';
import { alertView } from './ledger';

/** Low-balance thresholds and notices: the company's (admins: company scope); a staff member seeing his own charges has none. */
const requireCompanyScope = (actor: Actor) => {
  if (scopeOf(actor) !== 'company') throw new AppError('FORBIDDEN_MENU');
};

export const readSettings = async (db: Db, actor: Actor) => ({
  thresholds: scopeOf(actor) === 'company' ? await repo.thresholdsOf(db, actor.tenantId) : [],
});

export const saveSettings = async (db: Db, actor: Actor, body: BillingSettingsBody) => {
  requireCompanyScope(actor);
  await repo.saveThresholds(
    db,
    actor.tenantId,
    [...body.thresholds].sort((a, b) => b - a),
  );
};

export const readAlerts = async (db: Db, actor: Actor) => {
  if (scopeOf(actor) !== 'company') return { unread: 0, list: [] };
  const [list, unread] = await Promise.all([repo.alertsOf(db, actor.tenantId, 20), repo.unreadAlerts(db, actor.tenantId)]);
  return { unread, list: list.map(alertView) };
};

export const readAllAlerts = async (db: Db, actor: Actor) => {
  requireCompanyScope(actor);
  await repo.markAlertsRead(db, actor.tenantId);
};
