/**
 * The searches of SPEC §7 kqhk/*: name lookup (registry first, the provider on request), 找线索
 * (filters), map (radius or polygon: grid-cell index, then exact distance; clustered when dense)
 * and the company card.
 */
import {
  LEAD_LIMITS,
  type LeadAdvancedQuery,
  type LeadCompanyQuery,
  type LeadFilters,
  type LeadMapQuery,
  type LeadMapResult,
  type LeadSearchResult,
} from '@crm/contracts';
import { findRegion } from '@crm/regions';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { boxAround, boxOfPolygon, cellsOfBox, clustersOf, gridClusters, haversineKm, isInPolygon, type LatLng } from './geo';
import { normalizeName, queryGrams } from './lead-names';
import * as repo from './leads.repo';
import { toLeadCompany } from './leads-presenter';
import { ensureDetails, type LeadsEnv, providerMessage, remoteSearch } from './leads-provider.service';

const pageOf = (q: { page: number; limit: number }) => ({ limit: q.limit, offset: (q.page - 1) * q.limit });

/** Ranges the right way round and a region the tree knows. */
export const checkFilters = (f: LeadFilters) => {
  if (f.capitalMin !== undefined && f.capitalMax !== undefined && f.capitalMin > f.capitalMax)
    throw new AppError('LEAD_RANGE_INVALID');
  if (f.foundedFrom !== undefined && f.foundedTo !== undefined && f.foundedFrom > f.foundedTo)
    throw new AppError('LEAD_RANGE_INVALID');
  if (f.regionCode !== undefined && !findRegion(f.regionCode)) throw new AppError('LEAD_REGION_INVALID');
};

const keywordGrams = (f: LeadFilters) => (f.keyword ? queryGrams(normalizeName(f.keyword)) : []);

/** kqhk/company: the registry's matches; with isRemote the provider's answer is cached in first. */
export const searchCompanies = async (env: LeadsEnv, actor: Actor, q: LeadCompanyQuery): Promise<LeadSearchResult> => {
  let providerError = '';
  if (q.isRemote) {
    try {
      await remoteSearch(env, actor, q.keyword);
    } catch (err) {
      // a failed provider: the registry's results still show, with the reason
      providerError = providerMessage(err);
    }
  }
  const norm = normalizeName(q.keyword);
  const { list, count } = await repo.searchByName(env.db, actor.tenantId, norm, queryGrams(norm), pageOf(q));
  return { list: list.map(toLeadCompany), count, providerError };
};

/** kqhk/advanced (and a template's run). */
export const searchAdvanced = async (env: LeadsEnv, actor: Actor, q: LeadAdvancedQuery): Promise<LeadSearchResult> => {
  checkFilters(q);
  const { list, count } = await repo.searchAdvanced(env.db, actor.tenantId, q, keywordGrams(q), q, pageOf(q));
  return { list: list.map(toLeadCompany), count, providerError: '' };
};

/** The most rows the map's index step reads (a 50 km circle over a city centre stays below it). */
const MAP_SCAN_CAP = 60_000;

const parsePolygon = (text: string): LatLng[] => {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError('LEAD_POLYGON_INVALID');
  }
  if (!Array.isArray(raw) || raw.length < 3 || raw.length > LEAD_LIMITS.polygonMaxPoints)
    throw new AppError('LEAD_POLYGON_INVALID');
  return raw.map((p) => {
    if (!Array.isArray(p) || p.length !== 2) throw new AppError('LEAD_POLYGON_INVALID');
    const [lng, lat] = p.map(Number) as [number, number];
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180)
      throw new AppError('LEAD_POLYGON_INVALID');
    return { lat, lng };
  });
};

/** kqhk/map: a circle (centre + radius) or a drawn polygon, with the filters. */
export const searchMap = async (env: LeadsEnv, actor: Actor, q: LeadMapQuery): Promise<LeadMapResult> => {
  checkFilters(q);
  const isCircle = q.lat !== undefined && q.lng !== undefined && q.radiusKm !== undefined;
  if (!isCircle && !q.polygon) throw new AppError('LEAD_SEARCH_AREA_REQUIRED');
  const centre = isCircle ? { lat: q.lat as number, lng: q.lng as number } : null;
  const ring = isCircle ? null : parsePolygon(q.polygon as string);
  const box = centre ? boxAround(centre, q.radiusKm as number) : boxOfPolygon(ring as LatLng[]);
  const cells = cellsOfBox(box);
  if (cells.length > 4000) throw new AppError('LEAD_POLYGON_INVALID', '搜索范围过大，请缩小范围（最大约半径50公里）');
  const grams = keywordGrams(q);
  // about 40 cells across the box: a readable number of bubbles at any zoom
  const cellDeg = Math.max(box.maxLat - box.minLat, box.maxLng - box.minLng) / 40;
  let candidates: { id: number; lat: number | null; lng: number | null }[];
  if (centre) {
    // a circle is counted and clustered by the database, which answers the points only when sparse
    const rows = await repo.mapCircle(env.db, actor.tenantId, q, grams, cells, box, MAP_SCAN_CAP, {
      ...centre,
      radiusKm: q.radiusKm as number,
      cellDeg,
      clusterAbove: LEAD_LIMITS.mapClusterAbove,
    });
    if (rows[0] && rows[0].id === null) {
      const count = rows.reduce((n, c) => n + c.count, 0);
      return { count, isClustered: true, points: [], clusters: clustersOf(rows) };
    }
    candidates = rows.map((r) => ({ id: r.id as number, lat: r.lat, lng: r.lng }));
  } else candidates = await repo.mapCandidates(env.db, actor.tenantId, q, grams, cells, box, MAP_SCAN_CAP);
  const hits: { id: number; lat: number; lng: number; distanceKm: number }[] = [];
  for (const c of candidates) {
    if (c.lat === null || c.lng === null) continue;
    const p = { lat: c.lat, lng: c.lng };
    if (centre) {
      const d = haversineKm(centre, p);
      if (d <= (q.radiusKm as number)) hits.push({ id: c.id, ...p, distanceKm: Math.round(d * 1000) / 1000 });
    } else if (isInPolygon(p, ring as LatLng[])) hits.push({ id: c.id, ...p, distanceKm: 0 });
  }
  if (hits.length > LEAD_LIMITS.mapClusterAbove)
    return { count: hits.length, isClustered: true, points: [], clusters: gridClusters(hits, cellDeg) };
  hits.sort((a, b) => a.distanceKm - b.distanceKm || a.id - b.id);
  const rows = new Map(
    (
      await repo.rowsByIds(
        env.db,
        actor.tenantId,
        hits.map((h) => h.id),
      )
    ).map((r) => [r.id, r]),
  );
  return {
    count: hits.length,
    isClustered: false,
    clusters: [],
    points: hits.map((h) => ({ ...h, name: rows.get(h.id)?.name ?? '', status: rows.get(h.id)?.status ?? 0 })),
  };
};

/** A registry row the caller may see (platform or his company's own), with provider details when due. */
export const requireLead = async (env: LeadsEnv, actor: Actor, id: number) => {
  const row = await repo.findRow(env.db, actor.tenantId, id);
  if (!row) throw new AppError('LEAD_NOT_FOUND');
  return row;
};

export const leadWithDetails = async (env: LeadsEnv, actor: Actor, id: number) =>
  ensureDetails(env, actor, await requireLead(env, actor, id));
