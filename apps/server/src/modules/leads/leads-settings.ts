/**
 * A company's lead-search settings: its provider key and secret (stored, never answered in full),
 * the 转为客户 quota per user per day and the mapping of registry fields to customer template
 * controls. Only the company's administrators change them.
 */
import { DM_TYPE, LEAD_LIMITS, LEAD_MAPPABLE_FIELDS, type LeadSettings, type LeadSettingsBody } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { type Actor, canDoAction } from '../../lib/auth-context';
import { startOfTodayShanghai } from '../../lib/time';
import { loadTemplate } from '../customers/customer-templates.service';
import * as data from './leads-data.repo';

/** The action an administrator's role holds (the system role holds every action). */
export const LEAD_SETTINGS_ACTION = 'frontend/customer/kqhk/settings';

/** 'AK20xxxxxxx9f3a' → '***********9f3a'. */
export const maskKey = (key: string) => (key ? `${'*'.repeat(Math.max(4, key.length - 4))}${key.slice(-4)}` : '');

export const mappingOf = async (db: DbOrTx, tenantId: number): Promise<Record<string, number>> =>
  (await data.findSettings(db, tenantId))?.mapping ?? {};

export const quotaOf = async (db: DbOrTx, tenantId: number): Promise<number> =>
  (await data.findSettings(db, tenantId))?.dailyQuota ?? LEAD_LIMITS.defaultDailyQuota;

/** kqhk/settings */
export const getSettings = async (db: Db, actor: Actor): Promise<LeadSettings> => {
  const s = await data.findSettings(db, actor.tenantId);
  const counts = await data.lookupCounts(db, actor.tenantId, startOfTodayShanghai());
  const mapping = s?.mapping ?? {};
  return {
    providerKeyMasked: maskKey(s?.providerKey ?? ''),
    hasProviderSecret: Boolean(s?.providerSecret),
    dailyQuota: s?.dailyQuota ?? LEAD_LIMITS.defaultDailyQuota,
    mapping: Object.entries(LEAD_MAPPABLE_FIELDS).map(([field, label]) => ({ field, label, coTacid: mapping[field] ?? null })),
    lookupsToday: counts.today,
    lookupsTotal: counts.total,
  };
};

/** kqhk/settings/set (administrators): a key or secret left out keeps the stored one. */
export const setSettings = async (db: Db, actor: Actor, body: LeadSettingsBody) => {
  if (!canDoAction(actor, LEAD_SETTINGS_ACTION)) throw new AppError('FORBIDDEN_ACTION');
  const values: Parameters<typeof data.saveSettings>[2] = {};
  if (body.isClearKeys) {
    values.providerKey = '';
    values.providerSecret = '';
  } else {
    if (body.providerKey) values.providerKey = body.providerKey;
    if (body.providerSecret) values.providerSecret = body.providerSecret;
  }
  if (body.dailyQuota !== undefined) values.dailyQuota = body.dailyQuota;
  if (body.mapping) {
    const tpl = await loadTemplate(db, actor.tenantId);
    const mapping: Record<string, number> = {};
    for (const m of body.mapping) {
      if (!(m.field in LEAD_MAPPABLE_FIELDS)) throw new AppError('LEAD_MAPPING_FIELD_UNKNOWN');
      if (m.coTacid === null) continue;
      const control = tpl.enabled.find((c) => c.id === m.coTacid);
      if (!control || control.dmType === DM_TYPE.group || control.dmType === DM_TYPE.staticText)
        throw new AppError('LEAD_MAPPING_CONTROL_UNKNOWN');
      mapping[m.field] = m.coTacid;
    }
    values.mapping = mapping;
  }
  await data.saveSettings(db, actor.tenantId, values);
};
