import type { RatePart } from '@crm/contracts';
import type { Db } from '../../db/client';
import { now } from '../../lib/clock';
import { findDemoCompany } from '../company/company.service';
import * as repo from './billing.repo';
import { recharge } from './billing.service';

const rate = (first: number, inc: number, pricePerMinute: number): RatePart => ({
  connect_fee: 0,
  first_block: first,
  increment: inc,
  price_per_minute: pricePerMinute,
  charge_unanswered: false,
});

/** The demo's plan: manual and task calls per minute, group and AI calls 6/6, inbound cheap. */
const DEMO_PLAN = {
  name: '标准资费（演示）',
  rates: {
    manual: rate(60, 60, 800),
    task: rate(60, 60, 700),
    group: rate(6, 6, 600),
    ai: rate(6, 6, 500),
    inbound: rate(60, 60, 300),
  },
};

/**
 * The demo company's billing (a fresh demo only, main.ts): the demo plan in force for the past year
 * (so the demo history's calls are rated and 消费明细 has months of data), a recharge of 3,000 元
 * plus 300 元 bonus, and low-balance notices at 500 元 and 100 元. Test databases get none of it:
 * a company without a plan calls free.
 */
export const seedDemoBilling = async (db: Db) => {
  const demo = await findDemoCompany(db);
  if (!demo) return;
  const planId =
    (await repo.insertPlan(db, DEMO_PLAN.name, DEMO_PLAN.rates)) ?? (await repo.findPlanByName(db, DEMO_PLAN.name))?.id;
  if (planId === undefined) return;
  if (!(await repo.planAt(db, demo.id, now()))) {
    await repo.assignPlan(db, demo.id, planId, new Date(now().getTime() - 365 * 86_400_000), '演示数据');
  }
  await recharge(db, {
    company: demo.id,
    amount: 30_000_000,
    bonus: 3_000_000,
    channel: '对公转账',
    ref: 'DEMO-INIT-001',
    operator: '演示数据',
    remark: '演示充值',
  });
  await repo.saveThresholds(db, demo.id, [5_000_000, 1_000_000]);
};
