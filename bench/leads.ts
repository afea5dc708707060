/**
 * Lead search at 1,000,000 companies (issue 28) on PostgreSQL: name lookup, a 4-filter advanced
 * search, a 20 km map query and a 10,000-name batch lookup, through the module's services (the
 * SQL and the code the routes run; no HTTP). Seeds the fictional companies of
 * modules/leads/fictional-companies.ts in batches of 20,000 rows (INSERT … SELECT FROM unnest; at 1M:
 * 50,000 generated, copied 20 times with distinct credit codes),
 * into a fresh database (BENCH_DATABASE_URL, default crm_bench_leads), dropped at the end.
 *
 *   npx tsx bench/leads.ts [companies=1000000] [queries=100] [keep|reuse]
 *
 * `keep` leaves the seeded database in place at the end; `reuse` times an earlier kept one (its
 * missing migrations applied, no seeding) and keeps it too: before/after figures on the same rows.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import type { Actor } from '../apps/server/src/lib/auth-context';
import { fictionalCompany } from '../apps/server/src/modules/leads/fictional-companies';
import { matchChunk } from '../apps/server/src/modules/leads/leads-batch';
import { providerHandle } from '../apps/server/src/modules/leads/leads-provider.service';
import { rowOfFictional } from '../apps/server/src/modules/leads/leads-registry';
import { searchAdvanced, searchCompanies, searchMap } from '../apps/server/src/modules/leads/leads-search';
import { summarise } from './lib';

const total = Number(process.argv[2] ?? 1_000_000);
const queries = Number(process.argv[3] ?? 100);
const mode = process.argv[4] ?? '';
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crm_bench_leads';

const admin = async (sql: string) => {
  const u = new URL(url);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  await c.query(sql);
  await c.end();
};
const dbName = new URL(url).pathname.slice(1);

/** Fills lead_companies with `total` fictional companies; returns how many distinct ones (the rest are copies). */
const seed = async (pool: pg.Pool) => {
  const t0 = Date.now();
  // bulk load: the indexes are built once after the rows are in (far cheaper than row by row)
  const { rows: indexes } = await pool.query<{ indexname: string; indexdef: string }>(
    "select indexname, indexdef from pg_indexes where tablename = 'lead_companies' and indexname not like '%_pkey'",
  );
  for (const ix of indexes) await pool.query(`drop index ${ix.indexname}`);
  const cols = [
    'credit_code',
    'name',
    'name_norm',
    'legal_rep',
    'status',
    'province_code',
    'city_code',
    'district_code',
    'industry_section',
    'industry_code',
    'capital_wan',
    'founded_on',
    'address',
    'scope',
    'phones',
    'has_phone',
    'has_mobile',
    'lat',
    'lng',
    'geo_cell',
    'source',
  ];
  const types = [
    'text',
    'text',
    'text',
    'text',
    'int2',
    'int4',
    'int4',
    'int4',
    'text',
    'text',
    'int4',
    'date',
    'text',
    'text',
    'text',
    'bool',
    'bool',
    'float8',
    'float8',
    'int4',
    'text',
  ];
  const at = new Date();
  const BATCH = 20_000;
  // the first twentieth is generated here; the rest copies it with distinct credit codes (the 9th
  // character, '0' for every serial below 31^8, becomes 1–J), so the indexes see 1M rows quickly
  const copies = total >= 200_000 ? 20 : 1;
  const base = Math.ceil(total / copies);
  for (let from = 0; from < base; from += BATCH) {
    const arrays: unknown[][] = cols.map(() => []);
    for (let i = from; i < Math.min(base, from + BATCH); i++) {
      const r = rowOfFictional(fictionalCompany(i + 1), at);
      const values = [
        r.creditCode,
        r.name,
        r.nameNorm,
        r.legalRep,
        r.status,
        r.provinceCode,
        r.cityCode,
        r.districtCode,
        r.industrySection,
        r.industryCode,
        r.capitalWan,
        r.foundedOn,
        r.address,
        r.scope,
        JSON.stringify(r.phones),
        r.hasPhone,
        r.hasMobile,
        r.lat,
        r.lng,
        r.geoCell,
        r.source,
      ];
      for (const [k, v] of values.entries()) arrays[k]?.push(v);
    }
    const select = cols
      .map((c, k) => (c === 'phones' ? `array(select json_array_elements_text(p${k}::json))` : `p${k}`))
      .join(', ');
    const unnest = cols.map((_, k) => `$${k + 1}::${types[k]}[]`).join(', ');
    await pool.query(
      `insert into lead_companies (${cols.join(', ')}) select ${select} from unnest(${unnest}) as u(${cols.map((_, k) => `p${k}`).join(', ')})`,
      arrays,
    );
  }
  const list = cols.filter((c) => c !== 'credit_code').join(', ');
  for (let k = 1; k < copies; k++) {
    await pool.query(
      `insert into lead_companies (credit_code, ${list}) select substr(credit_code, 1, 8) || substr('123456789ABCDEFGHJKLMNPQRTUWXY', ${k}, 1) || substr(credit_code, 10), ${list} from lead_companies where id <= ${base}`,
    );
  }
  const loaded = Date.now();
  for (const ix of indexes) await pool.query(ix.indexdef);
  console.log(`rows in ${((loaded - t0) / 1000).toFixed(1)} s, indexes built in ${((Date.now() - loaded) / 1000).toFixed(1)} s`);
  await pool.query('vacuum analyze lead_companies');
  console.log(`seeded ${total} companies in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return base;
};

const main = async () => {
  if (mode !== 'reuse') {
    await admin(`drop database if exists ${dbName}`);
    await admin(`create database ${dbName}`);
  }
  const database = await openDatabase({ databaseUrl: url, pgliteDir: '' });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const base = mode === 'reuse' ? Math.ceil(total / (total >= 200_000 ? 20 : 1)) : await seed(pool);
  if (mode === 'reuse') await pool.query('analyze lead_companies');

  const actor = { tenantId: 1, staffId: 1 } as Actor;
  const env = { db: database.db, provider: providerHandle('', loadConfig(undefined).leads) };
  const time = async (label: string, n: number, run: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 5; i++) await run(i + 1000);
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = performance.now();
      await run(i);
      ms.push(performance.now() - s);
    }
    const r = summarise(ms);
    const load = loadavg()[0]?.toFixed(1);
    console.log(
      `${label.padEnd(48)} load ${load}  p50 ${r.p50?.toFixed(1)}  p95 ${r.p95?.toFixed(1)}  p99 ${r.p99?.toFixed(1)} ms`,
    );
  };
  const samples = Array.from({ length: queries + 10 }, (_, i) => fictionalCompany(1 + ((i * 7919) % base)));
  await time('name lookup (part of a name, 20 rows + count)', queries, (i) =>
    searchCompanies(env, actor, { keyword: (samples[i % samples.length]?.name ?? '').slice(2, 6), page: 1, limit: 20 }),
  );
  await time('name lookup (a full name)', queries, (i) =>
    searchCompanies(env, actor, { keyword: samples[i % samples.length]?.name ?? '', page: 1, limit: 20 }),
  );
  const provinces = [440000, 110000, 310000, 330000, 320000, 510000];
  const industries = ['65', '51', '72', '34', 'C', 'E'];
  await time('advanced: province + industry + capital ≥ 100 + phone', queries, (i) =>
    searchAdvanced(env, actor, {
      regionCode: provinces[i % provinces.length],
      industryCode: industries[i % industries.length],
      capitalMin: 100,
      hasPhone: true,
      orderBy: 'foundedOn',
      orderSort: 'desc',
      page: 1,
      limit: 20,
    }),
  );
  const centres = [
    [22.5431, 114.0579],
    [39.9042, 116.4074],
    [31.2304, 121.4737],
    [30.2741, 120.1551],
    [30.5728, 104.0668],
  ];
  await time('map: 20 km around a city centre (clustered)', queries, (i) => {
    const [lat, lng] = centres[i % centres.length] as number[];
    return searchMap(env, actor, { lat, lng, radiusKm: 20 });
  });
  await time('map: 20 km + industry (points or clusters)', queries, (i) => {
    const [lat, lng] = centres[i % centres.length] as number[];
    return searchMap(env, actor, { lat, lng, radiusKm: 20, industryCode: '65', statuses: [3] });
  });
  const names = Array.from({ length: 10_000 }, (_, i) => {
    const c = fictionalCompany(1 + ((i * 104729) % base));
    if (i % 10 === 8) return c.name.replace('有限公司', '');
    if (i % 10 === 9) return `不存在的企业${i}号有限公司`;
    return i % 2 ? c.name : c.name.replace('有限公司', '有限责任公司');
  });
  const b0 = Date.now();
  const tally = { exact: 0, fuzzy: 0, none: 0 } as Record<string, number>;
  for (let i = 0; i < names.length; i += 500) {
    for (const a of await matchChunk(database.db, 1, names.slice(i, i + 500))) tally[a.match] = (tally[a.match] ?? 0) + 1;
  }
  console.log(`batch lookup of 10,000 names: ${((Date.now() - b0) / 1000).toFixed(1)} s ${JSON.stringify(tally)}`);
  await pool.end();
  await database.close();
  if (mode === '') await admin(`drop database if exists ${dbName}`);
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
