import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { clockOffsetMs, now, setClockOffsetMs } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { customerPhones, customers, loginLogs, sessions, staff } from '../schema';
import { seedAiCalls } from './demo-history-aicalls';
import { seedCalls } from './demo-history-calls';
import { DAY, type Envelope, generator, type History, type HistoryCounts, HOUR, type Step } from './demo-history-kit';
import { planOrders } from './demo-history-orders';
import { planWorkOrders } from './demo-history-workorders';

export type { HistoryCounts } from './demo-history-kit';

/**
 * A few months of history for the demo company (issue 23.6), so 回款管理's charts, the workbench's
 * sales figures, 通话记录 and the AI reports show something on the first start. Development only
 * (config.demoHistory, never in production; e2e runs without it, DEMO_HISTORY=0).
 *
 * It goes through the real API (app.inject: routes, permissions, services, the approval engine and
 * its effects) with the business clock moved back to each step's moment, so every stamp (orders,
 * approval trails, follow records, receipts, work-order threads and SLAs) is consistent and dated
 * relative to today. Calls cannot be placed in the past, so their records are written like the call
 * module ends them (record, recording file, `call.ended` → follow record and counters), and the AI
 * task's calls like the bot stores them. Deterministic: one seeded generator, no Math.random.
 * Each job has its file: orders and receipts, work orders, agent calls, the AI task.
 */
export const seedDemoHistory = async (app: FastifyInstance, password: string): Promise<HistoryCounts> => {
  const db = app.db;
  const rand = generator(20261128);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

  const realOffset = clockOffsetMs();
  const startMs = now().getTime();
  /** Beijing midnight of today, in ms; a step's moment is today + days + Beijing hours */
  const today = Date.parse(`${formatDateTime(new Date(startMs)).slice(0, 10)}T00:00:00+08:00`);
  const at = (days: number, hour: number) => today + days * DAY + hour * HOUR;
  const dayOf = (ms: number) => formatDateTime(new Date(ms)).slice(0, 10);

  const people = await db
    .select({ id: staff.id, username: staff.username, name: staff.name, tenantId: staff.tenantId })
    .from(staff)
    .where(inArray(staff.username, ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu']));
  const byName = new Map(people.map((p) => [p.username, p]));
  const tenantId = byName.get('admin')?.tenantId as number;
  const tokens = new Map<string, string>();
  for (const u of byName.keys()) {
    const res = await app.inject({ method: 'POST', url: '/api/frontend/login', payload: { username: u, password } });
    const body = res.json() as Envelope<{ token: string }>;
    if (body.code !== 0) throw new Error(`演示历史：${u} 登录失败（${body.msg}）`);
    tokens.set(u, body.data.token);
  }
  const call = async <T>(user: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const res = await app.inject({ method, url, payload, headers: { authorization: tokens.get(user) as string } });
    const body = res.json() as Envelope<T>;
    if (body.code !== 0) throw new Error(`演示历史：${url} → ${body.msg}`);
    return body.data;
  };

  // the sales people's own customers with their first number (orders, calls)
  const owned = await db
    .select({ id: customers.id, name: customers.name, ownerId: customers.ownerId, phone: customerPhones.phone })
    .from(customers)
    .innerJoin(customerPhones, eq(customerPhones.customerId, customers.id))
    .where(and(eq(customers.tenantId, tenantId), isNotNull(customers.ownerId)))
    .orderBy(customers.id);
  const customersOf = (user: string) => {
    const seen = new Set<number>();
    return owned.filter((c) => c.ownerId === byName.get(user)?.id && !seen.has(c.id) && seen.add(c.id));
  };

  const steps: Step[] = [];
  const h: History = {
    app,
    tenantId,
    startMs,
    rand,
    pick,
    between,
    at,
    dayOf,
    call,
    staffIdOf: (username) => byName.get(username)?.id,
    owned,
    customersOf,
    steps,
    counts: { orders: 0, receipts: 0, workOrders: 0, calls: 0, aiCalls: 0 },
    approvedOrders: [],
  };
  await planOrders(h);
  await planWorkOrders(h);

  try {
    // chronological: each step runs at its moment on the business clock; a step may add later steps
    while (steps.length > 0) {
      steps.sort((a, b) => a.at - b.at);
      const step = steps.shift() as Step;
      setClockOffsetMs(Math.min(step.at, startMs) - Date.now());
      await step.run();
    }
  } finally {
    setClockOffsetMs(realOffset);
  }

  h.counts.calls = await seedCalls(app, tenantId, startMs, rand, customersOf);
  h.counts.aiCalls = await seedAiCalls(app, tenantId, startMs, rand, call);

  // the seed's own logins are no one's: their sessions and log lines go
  await db.delete(sessions).where(eq(sessions.tenantId, tenantId)); // before listen: only the seed's own
  await db.delete(loginLogs).where(eq(loginLogs.tenantId, tenantId));
  await db.update(staff).set({ lastLoginAt: null, lastLoginIp: '' }).where(eq(staff.tenantId, tenantId));
  return h.counts;
};
