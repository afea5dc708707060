/**
 * SQL of the lead registry. Every read sees the platform rows (`tenant_id is null`) and the
 * caller's own imported rows (`tenant_id = caller`), never another company's.
 */
import type { LeadFilters } from '@crm/contracts';
import { and, asc, desc, eq, getTableColumns, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { leadCompanies } from '../../db/schema';
import { EARTH_RADIUS_KM } from './geo';

export type LeadRow = typeof leadCompanies.$inferSelect;
export type LeadInsert = typeof leadCompanies.$inferInsert;

/** The rows a company may see: the platform registry and its own lists. */
export const visibleTo = (tenantId: number) => or(isNull(leadCompanies.tenantId), eq(leadCompanies.tenantId, tenantId)) as SQL;

const like = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The level of a region code: province (xx0000), city (xxxx00) or district. */
const regionColumn = (code: number) =>
  code >= 1_000_000
    ? leadCompanies.districtCode
    : code % 10000 === 0
      ? leadCompanies.provinceCode
      : code % 100 === 0
        ? leadCompanies.cityCode
        : leadCompanies.districtCode;

/** The advanced filters as conditions (capital in 万元, years inclusive). */
export const filterConditions = (f: LeadFilters, nameGrams: string[]): SQL[] => {
  const conds: SQL[] = [];
  if (f.regionCode !== undefined) conds.push(eq(regionColumn(f.regionCode), f.regionCode));
  if (f.industryCode)
    conds.push(
      /^[A-T]$/.test(f.industryCode)
        ? eq(leadCompanies.industrySection, f.industryCode)
        : eq(leadCompanies.industryCode, f.industryCode),
    );
  if (f.capitalMin !== undefined) conds.push(sql`${leadCompanies.capitalWan} >= ${f.capitalMin}`);
  if (f.capitalMax !== undefined) conds.push(sql`${leadCompanies.capitalWan} <= ${f.capitalMax}`);
  if (f.foundedFrom !== undefined) conds.push(sql`${leadCompanies.foundedOn} >= ${`${f.foundedFrom}-01-01`}::date`);
  if (f.foundedTo !== undefined) conds.push(sql`${leadCompanies.foundedOn} <= ${`${f.foundedTo}-12-31`}::date`);
  if (f.statuses && f.statuses.length > 0) conds.push(inArray(leadCompanies.status, f.statuses));
  if (f.hasPhone !== undefined) conds.push(eq(leadCompanies.hasPhone, f.hasPhone));
  if (f.hasMobile !== undefined) conds.push(eq(leadCompanies.hasMobile, f.hasMobile));
  if (f.scopeKeyword) conds.push(sql`${leadCompanies.scope} like ${like(f.scopeKeyword)}`);
  if (f.keyword) {
    if (nameGrams.length > 0) conds.push(sql`${leadCompanies.nameGrams} @> ${gramArray(nameGrams)}`);
    else conds.push(sql`${leadCompanies.nameNorm} like ${like(f.keyword.toLowerCase())}`);
  }
  return conds;
};

/** A text[] literal for the grams (quoted: grams may hold commas, quotes, brackets). */
export const gramArray = (grams: string[]) =>
  sql`${`{${grams.map((g) => `"${g.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;

/** Counts are exact up to this; beyond, the page says "10000+" (a count over 1M rows would cost more than the page). */
export const COUNT_CAP = 10_000;

const countWhere = async (db: DbOrTx, where: SQL | undefined) => {
  const capped = db
    .select({ one: sql`1`.as('one') })
    .from(leadCompanies)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  return Number(row?.n ?? 0);
};

/**
 * Name lookup: the grams narrow through the GIN index; exact, then prefix, then shorter names first.
 * The page's sort reads every match anyway, so the same statement counts them (count over the
 * window, capped as countWhere): one pass over the matching heap rows instead of two.
 */
export const searchByName = async (
  db: DbOrTx,
  tenantId: number,
  norm: string,
  grams: string[],
  page: { limit: number; offset: number },
) => {
  const match =
    grams.length > 0 ? sql`${leadCompanies.nameGrams} @> ${gramArray(grams)}` : sql`${leadCompanies.nameNorm} like ${like(norm)}`;
  const where = and(visibleTo(tenantId), match);
  const rows = await db
    .select({ ...getTableColumns(leadCompanies), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(leadCompanies)
    .where(where)
    .orderBy(
      sql`(${leadCompanies.nameNorm} = ${norm}) desc`,
      sql`(${leadCompanies.nameNorm} like ${`${norm.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) desc`,
      sql`char_length(${leadCompanies.nameNorm})`,
      asc(leadCompanies.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  const list: LeadRow[] = rows.map(({ total: _, ...row }) => row);
  // a page past the end has no row to carry the count
  const total = rows[0]?.total ?? (page.offset > 0 ? await countWhere(db, where) : 0);
  return { list, count: Math.min(total, COUNT_CAP + 1) };
};

/** 找线索: filters, sorted by founding date or capital. */
export const searchAdvanced = async (
  db: DbOrTx,
  tenantId: number,
  f: LeadFilters,
  grams: string[],
  order: { orderBy: 'foundedOn' | 'capital'; orderSort: 'asc' | 'desc' },
  page: { limit: number; offset: number },
) => {
  const where = and(visibleTo(tenantId), ...filterConditions(f, grams));
  const column = order.orderBy === 'capital' ? leadCompanies.capitalWan : leadCompanies.foundedOn;
  const [list, count] = await Promise.all([
    db
      .select()
      .from(leadCompanies)
      .where(where)
      .orderBy(order.orderSort === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`, desc(leadCompanies.id))
      .limit(page.limit)
      .offset(page.offset),
    countWhere(db, where),
  ]);
  return { list, count };
};

type Box = { minLat: number; maxLat: number; minLng: number; maxLng: number };

/** The rows a map search may see in these grid cells and this box, with the search's filters. */
const inGridBox = (tenantId: number, f: LeadFilters, grams: string[], cells: number[], box: Box) =>
  and(
    visibleTo(tenantId),
    inArray(leadCompanies.geoCell, cells),
    sql`${leadCompanies.lat} between ${box.minLat} and ${box.maxLat}`,
    sql`${leadCompanies.lng} between ${box.minLng} and ${box.maxLng}`,
    ...filterConditions(f, grams),
  );

/** Map search's index step: the rows in the grid cells and the box (light columns only), at most `cap`. */
export const mapCandidates = (
  db: DbOrTx,
  tenantId: number,
  f: LeadFilters,
  grams: string[],
  cells: number[],
  box: { minLat: number; maxLat: number; minLng: number; maxLng: number },
  cap: number,
) =>
  db
    .select({ id: leadCompanies.id, lat: leadCompanies.lat, lng: leadCompanies.lng })
    .from(leadCompanies)
    .where(inGridBox(tenantId, f, grams, cells, box))
    .limit(cap);

/**
 * Map search in a circle in one statement: the rows of the grid cells and the box (at most `cap`,
 * as mapCandidates), those within `radiusKm` of the centre (the haversine of geo.ts), then either,
 * when more than `clusterAbove`, their cells of `cellDeg` degrees (id null: each cell's count and
 * coordinate sums, gridClusters' cells), or the points themselves (id, count 1, lat, lng).
 */
export const mapCircle = (
  db: DbOrTx,
  tenantId: number,
  f: LeadFilters,
  grams: string[],
  cells: number[],
  box: { minLat: number; maxLat: number; minLng: number; maxLng: number },
  cap: number,
  circle: { lat: number; lng: number; radiusKm: number; cellDeg: number; clusterAbove: number },
) => {
  const where = inGridBox(tenantId, f, grams, cells, box);
  // geo.ts haversineKm term by term (radians as deg * pi / 180; the centre's cosine as JavaScript computes it)
  const rad = (deg: SQL) => sql`((${deg}) * pi() / 180)`;
  const cos0 = sql`${Math.cos((circle.lat * Math.PI) / 180)}::float8`;
  const h = sql`power(sin(${rad(sql`lat - ${circle.lat}::float8`)} / 2), 2) + ${cos0} * cos(${rad(sql`lat`)}) * power(sin(${rad(sql`lng - ${circle.lng}::float8`)} / 2), 2)`;
  const km = sql`2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(${h})))`;
  const size = sql`${circle.cellDeg}::float8`;
  return queryRows<{ id: number | null; count: number; lat: number; lng: number }>(
    db,
    sql`with in_box as (
          select ${leadCompanies.id} as id, ${leadCompanies.lat} as lat, ${leadCompanies.lng} as lng
          from ${leadCompanies} where ${where} limit ${cap}),
        hits as materialized (select id, lat, lng from in_box where lat is not null and lng is not null and ${km} <= ${circle.radiusKm}::float8),
        n as (select count(*) as total from hits)
        select null::int as id, count(*)::int as count, sum(lat) as lat, sum(lng) as lng from hits
        where (select total from n) > ${circle.clusterAbove}
        group by floor(lat / ${size}), floor(lng / ${size})
        union all
        select id, 1, lat, lng from hits where (select total from n) <= ${circle.clusterAbove}`,
  );
};

export const rowsByIds = (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([] as LeadRow[])
    : db
        .select()
        .from(leadCompanies)
        .where(and(visibleTo(tenantId), inArray(leadCompanies.id, ids)));

export const findRow = async (db: DbOrTx, tenantId: number, id: number) => (await rowsByIds(db, tenantId, [id]))[0];

/** The platform row of a credit code. */
export const findByCreditCode = async (db: DbOrTx, creditCode: string) =>
  (
    await db
      .select()
      .from(leadCompanies)
      .where(and(isNull(leadCompanies.tenantId), eq(leadCompanies.creditCode, creditCode)))
  )[0];

/**
 * Batch lookup, exact step: the visible rows with these normalized names (or credit codes). The
 * names are read index-only from lead_companies_name_norm_idx (it holds every column answered); the
 * credit codes, when any, in a second branch.
 */
export const exactMatches = async (db: DbOrTx, tenantId: number, norms: string[], creditCodes: string[]) => {
  const columns = {
    id: leadCompanies.id,
    nameNorm: leadCompanies.nameNorm,
    creditCode: leadCompanies.creditCode,
    tenantId: leadCompanies.tenantId,
  };
  const byName = (list: string[]) =>
    db
      .select(columns)
      .from(leadCompanies)
      .where(and(visibleTo(tenantId), inArray(leadCompanies.nameNorm, list)));
  const byCode = (list: string[]) =>
    db
      .select(columns)
      .from(leadCompanies)
      .where(and(visibleTo(tenantId), inArray(leadCompanies.creditCode, list)));
  if (creditCodes.length === 0) return norms.length === 0 ? [] : byName(norms);
  if (norms.length === 0) return byCode(creditCodes);
  // a row found both ways comes twice: the caller keeps the first per name and per code
  return byName(norms).unionAll(byCode(creditCodes));
};

/**
 * Batch lookup, fuzzy step for many names in one statement: for each (i, grams) the best `limit`
 * candidates holding all its grams, shorter names first, tagged with i. One UNION ALL branch per name, each
 * planned with its own grams (a lateral join over a parameter misjudges the GIN step by 100× and
 * triggers JIT compilation, a second per statement).
 */
export const fuzzyCandidatesMany = (db: DbOrTx, tenantId: number, wanted: { i: number; grams: string[] }[], limit: number) =>
  wanted.length === 0
    ? Promise.resolve([] as { i: number; id: number; nameNorm: string }[])
    : queryRows<{ i: number; id: number; nameNorm: string }>(
        db,
        sql.join(
          wanted.map(
            (w) => sql`(select ${w.i}::int as i, ${leadCompanies.id} as id, ${leadCompanies.nameNorm} as "nameNorm"
              from ${leadCompanies}
              where (${leadCompanies.tenantId} is null or ${leadCompanies.tenantId} = ${tenantId})
                and ${leadCompanies.nameGrams} @> ${gramArray(w.grams)}
              order by char_length(${leadCompanies.nameNorm})
              limit ${limit})`,
          ),
          sql` union all `,
        ),
      );

/**
 * Writes provider answers into the platform registry: one row per credit code; a newer answer
 * replaces the older one's fields (details kept when the new answer has none).
 */
export const upsertPlatformRows = async (
  db: DbOrTx,
  rows: LeadInsert[],
): Promise<{ id: number; creditCode: string | null }[]> => {
  if (rows.length === 0) return [];
  return db
    .insert(leadCompanies)
    .values(rows)
    .onConflictDoUpdate({
      target: leadCompanies.creditCode,
      targetWhere: sql`${leadCompanies.tenantId} is null`,
      set: {
        name: sql`excluded.name`,
        nameNorm: sql`excluded.name_norm`,
        legalRep: sql`excluded.legal_rep`,
        status: sql`excluded.status`,
        providerKey: sql`excluded.provider_key`,
        foundedOn: sql`coalesce(excluded.founded_on, ${leadCompanies.foundedOn})`,
        provinceCode: sql`coalesce(excluded.province_code, ${leadCompanies.provinceCode})`,
        cityCode: sql`coalesce(excluded.city_code, ${leadCompanies.cityCode})`,
        districtCode: sql`coalesce(excluded.district_code, ${leadCompanies.districtCode})`,
        industrySection: sql`case when excluded.industry_section = '' then ${leadCompanies.industrySection} else excluded.industry_section end`,
        industryCode: sql`case when excluded.industry_code = '' then ${leadCompanies.industryCode} else excluded.industry_code end`,
        capitalWan: sql`case when excluded.detail_fetched_at is null then ${leadCompanies.capitalWan} else excluded.capital_wan end`,
        address: sql`case when excluded.detail_fetched_at is null then ${leadCompanies.address} else excluded.address end`,
        scope: sql`case when excluded.detail_fetched_at is null then ${leadCompanies.scope} else excluded.scope end`,
        phones: sql`case when excluded.detail_fetched_at is null then ${leadCompanies.phones} else excluded.phones end`,
        hasPhone: sql`case when excluded.detail_fetched_at is null then ${leadCompanies.hasPhone} else excluded.has_phone end`,
        hasMobile: sql`case when excluded.detail_fetched_at is null then ${leadCompanies.hasMobile} else excluded.has_mobile end`,
        lat: sql`coalesce(excluded.lat, ${leadCompanies.lat})`,
        lng: sql`coalesce(excluded.lng, ${leadCompanies.lng})`,
        geoCell: sql`coalesce(excluded.geo_cell, ${leadCompanies.geoCell})`,
        source: sql`excluded.source`,
        fetchedAt: sql`excluded.fetched_at`,
        detailFetchedAt: sql`coalesce(excluded.detail_fetched_at, ${leadCompanies.detailFetchedAt})`,
        raw: sql`${leadCompanies.raw} || excluded.raw`,
      },
    })
    .returning({ id: leadCompanies.id, creditCode: leadCompanies.creditCode });
};

/** Inserts a company's own imported rows (its tenant on every row). */
export const insertOwnRows = async (db: DbOrTx, rows: LeadInsert[]) => {
  for (let i = 0; i < rows.length; i += 500) await db.insert(leadCompanies).values(rows.slice(i, i + 500));
};

export const deleteOwnRows = (db: DbOrTx, tenantId: number, listId: number) =>
  db.delete(leadCompanies).where(and(eq(leadCompanies.tenantId, tenantId), eq(leadCompanies.listId, listId)));

/** Does the platform registry hold any row (the demo seed runs once)? */
export const hasPlatformRows = async (db: DbOrTx) =>
  (await db.select({ id: leadCompanies.id }).from(leadCompanies).where(isNull(leadCompanies.tenantId)).limit(1)).length > 0;
