/**
 * Turning what the provider, the demo seed and an own list give into registry rows: names
 * normalized, credit codes checked (GB 32100), region codes from packages/regions, industry by
 * GB/T 4754, capital in 万元, WGS-84 coordinates with their grid cell.
 */
import { industrySectionOf, LEAD_SOURCE } from '@crm/contracts';
import { findRegion } from '@crm/regions';
import type { Db } from '../../db/client';
import { cleanCreditCode, creditCodeRegion, isValidCreditCode } from './credit-code';
import { type FictionalCompany, fictionalCompany } from './fictional-companies';
import { geoCellOf } from './geo';
import { normalizeName } from './lead-names';
import * as repo from './leads.repo';
import { isMobile } from './leads-presenter';
import type { ProviderDetail, ProviderHit } from './provider/lead-provider';

/** Province, city and district of a district/city code (as many as the tree knows). */
export const regionPathOf = (code: number | null) => {
  const out = { provinceCode: null as number | null, cityCode: null as number | null, districtCode: null as number | null };
  let region = code ? findRegion(code) : undefined;
  const path: number[] = [];
  while (region) {
    path.unshift(region.value);
    region = region.parent_id ? findRegion(region.parent_id) : undefined;
  }
  out.provinceCode = path[0] ?? null;
  out.cityCode = path[1] ?? null;
  out.districtCode = path[2] ?? null;
  return out;
};

const phoneFlags = (phones: string[]) => ({
  phones,
  hasPhone: phones.length > 0,
  hasMobile: phones.some(isMobile),
});

const coordinates = (lat: number | null, lng: number | null) =>
  lat !== null && lng !== null ? { lat, lng, geoCell: geoCellOf({ lat, lng }) } : { lat: null, lng: null, geoCell: null };

/** A provider search hit (no details yet); null when its credit code is not well-formed. */
export const rowOfHit = (hit: ProviderHit, at: Date): repo.LeadInsert | null => {
  if (!isValidCreditCode(hit.creditCode)) return null;
  const creditCode = cleanCreditCode(hit.creditCode);
  return {
    creditCode,
    name: hit.name,
    nameNorm: normalizeName(hit.name),
    legalRep: hit.legalRep,
    status: hit.status,
    // the registering office's region (characters 3–8) until the details say where the company is
    ...regionPathOf(creditCodeRegion(creditCode)),
    foundedOn: hit.foundedOn,
    providerKey: hit.providerKey,
    source: LEAD_SOURCE.provider,
    fetchedAt: at,
    raw: { search: hit.raw },
  };
};

/** A provider details answer. */
export const rowOfDetail = (d: ProviderDetail, at: Date): repo.LeadInsert | null => {
  const base = rowOfHit(d, at);
  if (!base) return null;
  const region = d.districtCode ? regionPathOf(d.districtCode) : {};
  return {
    ...base,
    ...region,
    industrySection: d.industrySection || industrySectionOf(d.industryCode) || '',
    industryCode: d.industryCode,
    capitalWan: d.capitalWan,
    address: d.address,
    scope: d.scope,
    ...phoneFlags(d.phones),
    ...coordinates(d.lat, d.lng),
    detailFetchedAt: at,
    raw: { detail: d.raw },
  };
};

/** A fictional company as a platform row (the development demo registry and the bench). */
export const rowOfFictional = (c: FictionalCompany, at: Date): repo.LeadInsert => ({
  creditCode: c.creditCode,
  name: c.name,
  nameNorm: normalizeName(c.name),
  legalRep: c.legalRep,
  status: c.status,
  provinceCode: c.provinceCode,
  cityCode: c.cityCode,
  districtCode: c.districtCode,
  industrySection: industrySectionOf(c.industryCode) ?? '',
  industryCode: c.industryCode,
  capitalWan: c.capitalWan,
  foundedOn: c.foundedOn,
  address: c.address,
  scope: c.scope,
  ...phoneFlags(c.phones),
  ...coordinates(c.lat, c.lng),
  source: LEAD_SOURCE.seed,
  fetchedAt: at,
  detailFetchedAt: at,
  raw: { fictional: true },
});

/** Fictional companies the development demo registry holds. */
export const DEMO_REGISTRY_COMPANIES = 3000;

/**
 * Development and demo only (called by the demo seed, which never runs in production): fills an
 * empty platform registry with `count` fictional companies so the pages are not empty.
 */
export const seedDemoRegistry = async (db: Db, count: number): Promise<number> => {
  if (count <= 0 || (await repo.hasPlatformRows(db))) return 0;
  const at = new Date();
  for (let from = 0; from < count; from += 500) {
    const rows = [];
    for (let i = from; i < Math.min(count, from + 500); i++) rows.push(rowOfFictional(fictionalCompany(i + 1), at));
    await repo.upsertPlatformRows(db, rows);
  }
  return count;
};
