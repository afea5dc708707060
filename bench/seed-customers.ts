/**
 * Fast seeded generator: N realistic customers for the demo company on PostgreSQL,
 * generated inside the database with generate_series (no row ever crosses the wire).
 *
 *   npx tsx bench/seed-customers.ts [count=1000000]
 *
 * Uses BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/crm_bench).
 */
import { openDatabase } from '../apps/server/src/db/client';
import { seedDemo } from '../apps/server/src/db/seed/demo';
import { BENCH_DB, ensureDatabase } from './lib';

const count = Number(process.argv[2] ?? 1_000_000);
await ensureDatabase();
const database = await openDatabase({ databaseUrl: BENCH_DB, pgliteDir: '' });
await seedDemo(database.db, 'demo123456');
const pool = (database.db as unknown as { $client: import('pg').Pool }).$client;
const q = (text: string, values: unknown[] = []) => pool.query(text, values);

const tenant = (await q(`select id from tenants where is_demo limit 1`)).rows[0].id as number;
const tpl = (await q(`select id from customer_templates where tenant_id = $1`, [tenant])).rows[0].id as number;
const controls = Object.fromEntries(
  (await q(`select id, name from template_controls where tenant_id = $1`, [tenant])).rows.map((r) => [r.name, String(r.id)]),
);
const owners = (await q(`select id, department_id from staff where tenant_id = $1 and username <> 'admin' order by id`, [tenant]))
  .rows;
const stageIds = (await q(`select id from stages where tenant_id = $1 order by id`, [tenant])).rows.map((r) => r.id);
const tagIds = (await q(`select id from labels where tenant_id = $1 and pid <> 0 order by id`, [tenant])).rows.map((r) => r.id);
const existing = Number((await q(`select count(*) from customers where tenant_id = $1`, [tenant])).rows[0].count);
if (existing >= count) {
  console.log(`already ${existing} customers, nothing to do`);
  await database.close();
  process.exit(0);
}

const started = Date.now();
const CHUNK = 100_000;
const regions = [
  ['110000', '110100', '110105'],
  ['310000', '310100', '310115'],
  ['440000', '440300', '440305'],
  ['440000', '440100', '440106'],
  ['330000', '330100', '330106'],
  ['510000', '510100', '510107'],
  ['420000', '420100', '420106'],
  ['320000', '320500', '320505'],
  ['370000', '370200', '370212'],
  ['350000', '350200', '350206'],
];
await q('select setseed(0.42)');
for (let done = existing; done < count; done += CHUNK) {
  const n = Math.min(CHUNK, count - done);
  const t = Date.now();
  // One statement per chunk: names, phones, region paths, selects, stages, tags and times from seeded random().
  await q(
    `with src as (
       select g,
              (array['王','李','张','刘','陈','杨','黄','赵','吴','周','徐','孙','马','朱','胡','郭','何','林','罗','高'])[1 + floor(random()*20)::int]
                || (array['伟','芳','娜','敏','静','强','磊','洋','艳','勇','军','杰','娟','涛','明','超','秀英','建华','晓东','海燕'])[1 + floor(random()*20)::int] as person,
              (array['北京','上海','深圳','广州','杭州','成都','武汉','苏州','青岛','厦门'])[1 + floor(random()*10)::int]
                || (array['华信','恒通','瑞丰','天成','博远','鼎盛','汇智','启航','安达','宏图','卓越','诚信','星河','明德','远景','凯旋','嘉禾','永泰','中科','新世纪'])[1 + floor(random()*20)::int]
                || (array['科技','教育','贸易','网络','实业','信息','医疗','物流'])[1 + floor(random()*8)::int] || '有限公司' as company,
              '1' || (array['3','5','7','8','9'])[1 + floor(random()*5)::int] || floor(random()*10)::int || lpad((($1::bigint + g) * 7919 % 100000000)::text, 8, '0') as phone,
              floor(random()*10)::int as region,
              (array['教育培训','互联网','制造业','金融保险','房产家居','医疗健康','零售电商','其他'])[1 + floor(random()*8)::int] as industry,
              (array['A（重点客户）','B（意向客户）','C（一般客户）','D（无意向）'])[1 + floor(random()*4)::int] as level,
              (array['电话营销','网络推广','老客户介绍','展会','自主开拓'])[1 + floor(random()*5)::int] as source,
              floor(random()*${owners.length + 1})::int as owner_idx,
              floor(random()*${stageIds.length + 1})::int as stage_idx,
              floor(random()*${tagIds.length + 2})::int as tag_idx,
              now() - (random() * interval '730 days') as created,
              random() as r
       from generate_series(1, $2::int) g
     ), ins as (
       insert into customers (tenant_id, template_id, name, vals, contact_name, contact_phone, owner_id, owner_department_id,
                              creator_id, creator_department_id, stage_id, label_ids, follow_at, next_follow_at, allot_at,
                              last_contact_at, last_contact_status, contact_num, created_at, updated_at)
       select $3, $4, company,
              jsonb_build_object($5::text, jsonb_build_array(person), $6::text, jsonb_build_array(phone),
                                 $7::text, ($8::jsonb) -> region, $9::text, jsonb_build_array(industry),
                                 $10::text, jsonb_build_array(level), $11::text, jsonb_build_array(source)),
              person, phone,
              ($12::int[])[owner_idx + 1], ($13::int[])[owner_idx + 1],
              coalesce(($12::int[])[owner_idx + 1], ($12::int[])[1]), ($13::int[])[1],
              ($14::int[])[stage_idx + 1],
              case when tag_idx < ${tagIds.length} then array[($15::int[])[tag_idx + 1]] else '{}'::int[] end,
              case when r < 0.6 then created + random() * (now() - created) end,
              case when r < 0.3 then date_trunc('day', now()) + (floor(random()*14) - 3) * interval '1 day' + interval '10 hours' end,
              created,
              case when r < 0.5 then created + random() * (now() - created) end,
              case when r < 0.3 then 1 when r < 0.5 then 2 else 0 end,
              case when r < 0.5 then 1 + floor(random()*8)::int else 0 end,
              created, created
       from src
       returning id, contact_phone
     )
     insert into customer_phones (tenant_id, customer_id, control_id, phone)
     select $3, id, $6::int, contact_phone from ins`,
    [
      done,
      n,
      tenant,
      tpl,
      controls['联系人'],
      controls['手机'],
      controls['地区'],
      JSON.stringify(regions),
      controls['行业'],
      controls['客户级别'],
      controls['客户来源'],
      `{${[...owners.map((o) => o.id), 'NULL'].join(',')}}`,
      `{${[...owners.map((o) => o.department_id), 'NULL'].join(',')}}`,
      `{${[...stageIds, 'NULL'].join(',')}}`,
      `{${tagIds.join(',')}}`,
    ],
  );
  console.log(`${done + n} customers (${((Date.now() - t) / 1000).toFixed(1)} s for ${n})`);
}
// Autovacuum would do this in production; a fresh bulk load needs it for index-only counts.
await q('vacuum analyze customers');
await q('vacuum analyze customer_phones');
console.log(`generated ${count - existing} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await database.close();
