/**
 * The company-data provider adapter (企查查-style open API, qcc-protocol.ts): fuzzy search by
 * name and basic details by name or credit code, signed with the company's key, rate-limited
 * (rate-limit.ts) and retried. Answers come back in the registry's terms (capital in 万元,
 * coordinates WGS-84, status 1/2/3, industry GB/T 4754).
 */
import { LEAD_STATUS } from '@crm/contracts';
import { toWgs84 } from '../geo';
import {
  QCC_PATHS,
  QCC_STATUS,
  type QccDetail,
  type QccDetailAnswer,
  type QccHit,
  type QccSearchAnswer,
  qccToken,
} from './qcc-protocol';
import type { ProviderLimiter } from './rate-limit';

export type ProviderCredentials = { url: string; key: string; secret: string };

/** Why a provider call failed: the service turns each into a clear Chinese message. */
export class ProviderError extends Error {
  constructor(readonly kind: 'auth' | 'rate' | 'down') {
    super(`lead provider: ${kind}`);
  }
}

export type ProviderHit = {
  providerKey: string;
  name: string;
  legalRep: string;
  status: number;
  creditCode: string;
  foundedOn: string | null;
  raw: QccHit;
};
export type ProviderDetail = ProviderHit & {
  capitalWan: number;
  address: string;
  scope: string;
  province: string;
  industrySection: string;
  industryCode: string;
  districtCode: number | null;
  phones: string[];
  lat: number | null;
  lng: number | null;
  raw: QccDetail;
};

const TIMEOUT_MS = 8_000;
const ATTEMPTS = 3;

/** '存续（在营、开业、在册）' → 1; 注销 → 2; 吊销 → 3; anything else read as 存续. */
export const statusOf = (text: string): number =>
  text.includes('吊销') ? LEAD_STATUS.revoked : text.includes('注销') ? LEAD_STATUS.deregistered : LEAD_STATUS.active;

/** '100万元人民币' → 100; '50万美元' → 50 (the currency is kept in the raw record); '' → 0. */
export const capitalWanOf = (text: string): number => {
  const m = text.replace(/,/g, '').match(/([\d.]+)\s*(亿|万)?/);
  if (!m) return 0;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return 0;
  return Math.floor(m[2] === '亿' ? n * 10_000 : m[2] === '万' ? n : n / 10_000);
};

const dateOf = (text: string) => (/^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null);

const hitOf = (h: QccHit): ProviderHit => ({
  providerKey: h.KeyNo,
  name: h.Name,
  legalRep: h.OperName ?? '',
  status: statusOf(h.Status ?? ''),
  creditCode: (h.CreditCode ?? '').toUpperCase(),
  foundedOn: dateOf(h.StartDate ?? ''),
  raw: h,
});

const detailOf = (d: QccDetail): ProviderDetail => {
  const gis = d.GisInfo && Number.isFinite(Number(d.GisInfo.Lat)) ? d.GisInfo : undefined;
  const wgs = gis ? toWgs84({ lat: Number(gis.Lat), lng: Number(gis.Lng) }, gis.CoordType) : null;
  const phones = [d.ContactInfo?.PhoneNumber ?? '', ...(d.ContactInfo?.MoreTelList ?? [])].map((p) => p.trim()).filter(Boolean);
  return {
    ...hitOf(d),
    capitalWan: capitalWanOf(d.RegistCapi ?? ''),
    address: d.Address ?? '',
    scope: d.Scope ?? '',
    province: d.Province ?? '',
    industrySection: d.Industry?.IndustryCode ?? '',
    industryCode: d.Industry?.SubIndustryCode ?? '',
    districtCode: d.Area?.CountyCode ? Number(d.Area.CountyCode) || null : null,
    phones: [...new Set(phones)],
    lat: wgs ? Math.round(wgs.lat * 1e6) / 1e6 : null,
    lng: wgs ? Math.round(wgs.lng * 1e6) / 1e6 : null,
    raw: d,
  };
};

/** One signed GET, rate-limited and retried on outages and "too fast". */
const call = async <T extends { Status: string }>(
  limiter: ProviderLimiter,
  tenantId: number,
  creds: ProviderCredentials,
  path: string,
  params: Record<string, string>,
): Promise<T> => {
  let lastKind: ProviderError['kind'] = 'down';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    await limiter.acquire(tenantId);
    const timespan = String(Math.floor(Date.now() / 1000));
    const url = new URL(path, creds.url);
    url.searchParams.set('key', creds.key);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    try {
      const res = await fetch(url, {
        headers: { Token: qccToken(creds.key, timespan, creds.secret), Timespan: timespan },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (res.status >= 500) throw new ProviderError('down');
      const body = (await res.json()) as T;
      if (body.Status === QCC_STATUS.badToken) throw new ProviderError('auth');
      if (body.Status === QCC_STATUS.tooFast) throw new ProviderError('rate');
      return body;
    } catch (err) {
      lastKind = err instanceof ProviderError ? err.kind : 'down';
      if (lastKind === 'auth') break;
      if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, 300 * attempt));
    }
  }
  throw new ProviderError(lastKind);
};

/** FuzzySearch/GetList: up to 20 hits for a name. */
export const providerSearch = async (
  limiter: ProviderLimiter,
  tenantId: number,
  creds: ProviderCredentials,
  searchKey: string,
) => {
  const body = await call<QccSearchAnswer>(limiter, tenantId, creds, QCC_PATHS.search, {
    searchKey,
    pageIndex: '1',
    pageSize: '20',
  });
  return body.Status === QCC_STATUS.ok ? (body.Result ?? []).map(hitOf) : [];
};

/** ECIV4/GetBasicDetailsByName: the details of one company (by name or credit code); null when unknown. */
export const providerDetails = async (
  limiter: ProviderLimiter,
  tenantId: number,
  creds: ProviderCredentials,
  keyword: string,
) => {
  const body = await call<QccDetailAnswer>(limiter, tenantId, creds, QCC_PATHS.detail, { keyword });
  return body.Status === QCC_STATUS.ok && body.Result ? detailOf(body.Result) : null;
};
