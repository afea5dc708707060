/**
 * Into the CRM: 转为客户 through the customers service (the customer template, its checks and
 * limits), after a duplicate check against the company's customers and pools (credit code,
 * phone, similar name; told through the customer-access policy), within the caller's daily quota;
 * then to the caller, a staff member (allocation) or a pool. The lead keeps its link to the
 * registry record (lead_conversions).
 */
import {
  DISCARD_OTHER,
  DM_TYPE,
  industryLabel,
  LEAD_ASSIGN,
  LEAD_LIMITS,
  LEAD_STATUS_LABEL,
  type LeadConvertBody,
  type LeadConvertResult,
  type LeadExistingCustomer,
  type SubmittedControl,
} from '@crm/contracts';
import { regionLabelPath } from '@crm/regions';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { normalisePhone } from '../../lib/phone';
import { formatDateTime } from '../../lib/time';
import { loadTemplate } from '../customers/customer-templates.service';
import { createCustomer, viewerOf } from '../customers/customers.service';
import { existingCustomersFor, type LeadProbe } from '../customers/customers-for-leads';
import { allotCustomers, discardCustomers, requireReceiver } from '../pools/pool-moves.service';
import { requireUsablePool } from '../pools/pools.service';
import { coreGrams, nameScore, normalizeName } from './lead-names';
import * as repo from './leads.repo';
import * as data from './leads-data.repo';
import { mappingOf, quotaOf } from './leads-settings';

/** A customer name this similar (0–100, leads/lead-names nameScore) counts as the same company. */
export const SIMILAR_NAME_SCORE = 80;

const probeOf = (row: repo.LeadRow): LeadProbe => {
  const norm = normalizeName(row.name);
  return {
    key: row.id,
    creditCode: row.creditCode ?? '',
    phones: row.phones.flatMap((p) => {
      const n = normalisePhone(p);
      return n ? [n.phone] : [];
    }),
    nameNorm: norm,
    nameGrams: coreGrams(norm),
  };
};

/** For each lead, the customers of the caller's company it already is (as the caller may be told). */
export const existingFor = async (db: Db, actor: Actor, rows: repo.LeadRow[]): Promise<Map<number, LeadExistingCustomer[]>> => {
  const v = await viewerOf(db, actor);
  const mapping = await mappingOf(db, actor.tenantId);
  return existingCustomersFor(db, v, rows.map(probeOf), {
    creditControlId: mapping.creditCode ?? null,
    nameScore,
    minNameScore: SIMILAR_NAME_SCORE,
    normalize: normalizeName,
  });
};

const requireLeads = async (db: Db, actor: Actor, ids: number[]) => {
  const rows = await repo.rowsByIds(db, actor.tenantId, [...new Set(ids)]);
  if (rows.length !== new Set(ids).size) throw new AppError('LEAD_NOT_FOUND');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].map((id) => byId.get(id) as repo.LeadRow);
};

/** kqhk/convert/check: the selected leads that already exist, with whom. */
export const checkLeads = async (db: Db, actor: Actor, ids: number[]) => {
  const rows = await requireLeads(db, actor, ids);
  const existing = await existingFor(db, actor, rows);
  return {
    list: rows
      .filter((r) => existing.has(r.id))
      .map((r) => ({ id: r.id, name: r.name, existing: existing.get(r.id) ?? [], reason: '已是客户' })),
    quotaLeft: Math.max(
      0,
      (await quotaOf(db, actor.tenantId)) - (await data.conversionsOn(db, actor.tenantId, actor.staffId, businessDay())),
    ),
  };
};

/** The value of a registry field as a template control takes it. */
const fieldText = (row: repo.LeadRow, field: string): string => {
  switch (field) {
    case 'creditCode':
      return row.creditCode ?? '';
    case 'legalRep':
      return row.legalRep;
    case 'address':
      return row.address;
    case 'region':
      return regionLabelPath([row.provinceCode, row.cityCode, row.districtCode].filter((c): c is number => !!c)).join('/');
    case 'industry':
      return industryLabel(row.industryCode || row.industrySection);
    case 'capital':
      return row.capitalWan ? String(row.capitalWan) : '';
    case 'foundedOn':
      return row.foundedOn ?? '';
    case 'status':
      return LEAD_STATUS_LABEL[row.status] ?? '';
    case 'scope':
      return row.scope.slice(0, 500);
    default:
      return '';
  }
};

// Until the admin maps a field, a text control of one of these names receives it (a template's 联系人 is often required).
const DEFAULT_TARGETS: Record<string, string[]> = {
  legalRep: ['法定代表人', '法人', '联系人', '联系人姓名'],
  address: ['地址', '公司地址', '详细地址', '企业地址'],
  creditCode: ['统一社会信用代码', '信用代码'],
  scope: ['经营范围'],
};

/** The admin's mapping, completed by name for the text controls he left unmapped. */
const effectiveMapping = (mapping: Record<string, number>, tpl: Awaited<ReturnType<typeof loadTemplate>>) => {
  const out = { ...mapping };
  const taken = new Set(Object.values(mapping));
  for (const [field, names] of Object.entries(DEFAULT_TARGETS)) {
    if (out[field]) continue;
    const control = tpl.enabled.find(
      (c) => (c.dmType === DM_TYPE.text || c.dmType === DM_TYPE.textarea) && names.includes(c.name) && !taken.has(c.id),
    );
    if (control) {
      out[field] = control.id;
      taken.add(control.id);
    }
  }
  return out;
};

/** The template controls a lead fills: the admin's mapping; the phone into the first phone control when not mapped. */
const controlsOf = (row: repo.LeadRow, mapping: Record<string, number>, phoneControlId: number | null): SubmittedControl[] => {
  const out: SubmittedControl[] = [];
  for (const [field, controlId] of Object.entries(mapping)) {
    if (field === 'phone') continue;
    const text = fieldText(row, field);
    if (text) out.push({ cbTacid: controlId, dmValue: [text] });
  }
  const phoneControl = mapping.phone ?? phoneControlId;
  const phone = row.phones.find((p) => normalisePhone(p));
  if (phoneControl && phone) out.push({ cbTacid: phoneControl, dmValue: [phone] });
  return out;
};

// One staff member's conversions run one at a time (per instance), so two tabs cannot pass the quota together.
const running = new Map<string, Promise<unknown>>();
const serialised = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
  const before = running.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  running.set(key, mine);
  try {
    return await mine;
  } finally {
    if (running.get(key) === mine) running.delete(key);
  }
};

/** The business day (Asia/Shanghai) of the quota. */
const businessDay = () => formatDateTime(now()).slice(0, 10);

/** kqhk/convert: 转为客户 (one or many). */
export const convertLeads = (db: Db, actor: Actor, body: LeadConvertBody): Promise<LeadConvertResult> =>
  serialised(`${actor.tenantId}:${actor.staffId}`, async () => {
    if (body.ids.length > LEAD_LIMITS.maxSelect) throw new AppError('LEAD_BATCH_TOO_MANY');
    const v = await viewerOf(db, actor);
    // the receiver is checked before anything is written
    if (body.assignTo === LEAD_ASSIGN.staff) {
      if (!body.cmSid) throw new AppError('LEAD_ASSIGNEE_REQUIRED');
      await requireReceiver(db, v, body.cmSid);
    }
    if (body.assignTo === LEAD_ASSIGN.pool) {
      if (!body.cmHsid) throw new AppError('LEAD_ASSIGNEE_REQUIRED');
      await requireUsablePool(db, actor, body.cmHsid);
    }
    const rows = await requireLeads(db, actor, body.ids);
    const quota = await quotaOf(db, actor.tenantId);
    const day = businessDay();
    const used = await data.conversionsOn(db, actor.tenantId, actor.staffId, day);
    let left = quota - used;
    if (left <= 0) throw new AppError('LEAD_QUOTA_EXCEEDED');
    const existing = await existingFor(db, actor, rows);
    const tpl = await loadTemplate(db, actor.tenantId);
    const mapping = effectiveMapping(await mappingOf(db, actor.tenantId), tpl);
    const phoneControlId = tpl.enabled.find((c) => c.dmType === DM_TYPE.phone)?.id ?? null;
    const created: LeadConvertResult['created'] = [];
    const skipped: LeadConvertResult['skipped'] = [];
    for (const row of rows) {
      const dup = existing.get(row.id);
      if (dup) {
        skipped.push({ id: row.id, name: row.name, existing: dup, reason: '已是客户' });
        continue;
      }
      if (left <= 0) {
        skipped.push({ id: row.id, name: row.name, existing: [], reason: '今日转为客户的额度已用完' });
        continue;
      }
      try {
        const cmCtid = await createCustomer(db, actor, {
          name: row.name,
          templateControls: controlsOf(row, mapping, phoneControlId),
        });
        await data.insertConversion(db, {
          tenantId: actor.tenantId,
          staffId: actor.staffId,
          companyId: row.id,
          customerId: cmCtid,
          day,
        });
        created.push({ id: row.id, cmCtid, name: row.name });
        left--;
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        skipped.push({ id: row.id, name: row.name, existing: [], reason: err.message });
      }
    }
    const ids = created.map((c) => c.cmCtid);
    if (ids.length > 0 && body.assignTo === LEAD_ASSIGN.staff && body.cmSid !== actor.staffId) {
      await allotCustomers(db, actor, { cmCtids: ids, cmSid: body.cmSid as number, isNodeId: 0 });
    }
    if (ids.length > 0 && body.assignTo === LEAD_ASSIGN.pool) {
      await discardCustomers(db, actor, {
        cmCtids: ids,
        cmHsid: body.cmHsid as number,
        cmCdid: DISCARD_OTHER,
        reason: '拓客转入公海',
      });
    }
    return { created, skipped, quotaLeft: Math.max(0, left) };
  });

/** The customers the caller's company made from this registry record (the lead keeps its link). */
export const convertedCustomerIds = async (db: Db, actor: Actor, companyId: number) =>
  (await data.conversionsOf(db, actor.tenantId, [companyId])).map((c) => c.customerId);
