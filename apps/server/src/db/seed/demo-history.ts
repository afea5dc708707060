import fs from 'node:fs';
import { CALL_TYPE, type Grade, HANGUP_CAUSE } from '@crm/contracts';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { clockOffsetMs, now, setClockOffsetMs } from '../../lib/clock';
import { deliver, publish } from '../../lib/events/events';
import { formatDateTime } from '../../lib/time';
import { CALL_STATE, insertCall } from '../../modules/calls/calls.repo';
import { storeGeneratedFile } from '../../modules/uploads/uploads.service';
import { simRecording } from '../../telephony/sim/wav';
import {
  aibotFlows,
  aiCalls,
  callTaskNumbers,
  callTasks,
  customerPhones,
  customers,
  loginLogs,
  sessions,
  sipAccounts,
  staff,
  workOrderTypes,
} from '../schema';

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
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** mulberry32: the same history on every fresh start. */
const generator = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A version-4 shaped call uuid from the generator (the same calls, and recordings, on every fresh start). */
const uuidOf = (rand: () => number) => {
  const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16], 16) & 3) | 8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

type Step = { at: number; run: () => Promise<void> };
type Envelope<T> = { code: number; msg: string; data: T };

export type HistoryCounts = { orders: number; receipts: number; workOrders: number; calls: number; aiCalls: number };

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
  const sales = ['lisi', 'wangwu', 'zhaoliu'] as const;
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

  type Line = { id: number; cost_price: number; num: number; specifications_list: number[] };
  type Product = {
    id: number;
    price: number;
    status: number;
    detailed: { price: number; specifications_list: { specifications_value_id: number }[] }[];
  };
  const catalogue = (await call<{ list: Product[] }>('admin', 'GET', '/api/frontend/product/list?limit=50')).list.filter(
    (p) => p.status === 1,
  );
  type Template = {
    coMatid: number;
    name: string;
    templateControls: { coTacid: number; dmType: number }[];
  };
  const flow = (await call<{ list: Template[] }>('lisi', 'GET', '/api/v1/merchantapp/templatelist?isOrder=1')).list.find(
    (t) => t.name === '订单审批',
  ) as Template;
  const supervisor = byName.get('zhangsan')?.id as number;

  const steps: Step[] = [];
  const counts: HistoryCounts = { orders: 0, receipts: 0, workOrders: 0, calls: 0, aiCalls: 0 };
  const approvedOrders: { orderId: number; customerId: number; owner: string; at: number }[] = [];

  // ── orders: 24 over the last four months, approved by 张三 (two rejected, the newest three pending) ──
  const ORDERS = 24;
  for (let i = 0; i < ORDERS; i++) {
    const owner = sales[i % sales.length];
    const mine = customersOf(owner);
    if (mine.length === 0) continue;
    const customer = mine[(i * 7) % mine.length];
    const days = i < ORDERS - 3 ? -118 + Math.floor((i * 116) / (ORDERS - 3)) : -(ORDERS - 1 - i);
    const placedAt = at(days, 9.5 + rand() * 6);
    const lines: Line[] = [];
    for (const p of [pick(catalogue), ...(rand() < 0.4 ? [pick(catalogue)] : [])]) {
      if (lines.some((l) => l.id === p.id)) continue;
      const variant = p.detailed.length > 0 ? pick(p.detailed) : undefined;
      const base = variant?.price ?? p.price;
      const discount = rand() < 0.3 ? 0.9 : 1;
      lines.push({
        id: p.id,
        cost_price: Math.round((base * discount) / 1000) * 1000,
        num: p.price < 1_000_000 ? between(5, 40) : between(1, 10),
        specifications_list: variant ? variant.specifications_list.map((v) => v.specifications_value_id) : [],
      });
    }
    const fate = i === 7 || i === 15 ? 'reject' : i >= ORDERS - 3 ? 'pending' : 'approve';
    steps.push({
      at: placedAt,
      run: async () => {
        const stored = await call<{ order_id: number }>(owner, 'POST', '/api/frontend/order/store', {
          customer_id: customer.id,
          contact_phone: customer.phone,
          attr: { '2': dayOf(placedAt), '5': pick(['公对公转账', '微信', '支付宝', '线下']) },
          product: lines,
          remark: pick(['', '', '客户要求月底前开通', '含首年服务费', '老客户续费']),
          images: [],
        });
        const orderId = stored.order_id;
        counts.orders++;
        await call(owner, 'POST', '/api/v1/staff/templatecreate', {
          isSave: 2,
          coMatid: flow.coMatid,
          templateControls: flow.templateControls
            .filter((c) => c.dmType === 17)
            .map((c) => ({ coTacid: c.coTacid, dmValue: [String(orderId)] })),
          staffApproveNode: [{ nodeId: 1, staffS: [{ id: supervisor }] }],
        });
        if (fate === 'pending') return;
        const decidedAt = placedAt + between(1, 4) * HOUR + between(0, 59) * 60_000;
        steps.push({
          at: decidedAt,
          run: async () => {
            await call('zhangsan', 'POST', '/api/frontend/order/verify', {
              order_id: orderId,
              node_id: 1,
              status: fate === 'approve' ? 1 : 2,
              remark: fate === 'approve' ? pick(['同意', '同意，尽快安排开通', '价格合理，同意']) : '折扣过大，请重新报价',
            });
            if (fate === 'approve') {
              approvedOrders.push({ orderId, customerId: customer.id, owner, at: decidedAt });
              planReceipts(
                orderId,
                owner,
                decidedAt,
                lines.reduce((sum, l) => sum + l.cost_price * l.num, 0),
              );
            }
          },
        });
      },
    });
  }

  // ── receipt plans (one or two instalments) and receipts: mostly on time, some late, some overdue ──
  const planReceipts = (orderId: number, owner: string, approvedAt: number, total: number) => {
    steps.push({
      at: approvedAt + HOUR,
      run: async () => {
        const parts = total >= 10_000_000 ? 2 : 1;
        const share = Math.floor(total / parts / 1000) * 1000;
        const terms = pick([7, 15, 30, 30]); // days to the first instalment; the next one a month later
        for (let k = 0; k < parts; k++) {
          const amount = k === parts - 1 ? total - share * (parts - 1) : share;
          const due = approvedAt + (terms + 30 * k) * DAY;
          const plan = await call<{ id: number }>(owner, 'POST', '/api/frontend/receipt/plancreate', {
            order_id: orderId,
            amount,
            plan_at: dayOf(due),
            remark: parts > 1 ? `第${k + 1}期` : '',
          });
          const roll = rand();
          // 70 % on time (a few days early or on the day), 15 % late, 15 % not paid yet
          const paidAt = roll < 0.7 ? due - between(0, 4) * DAY : roll < 0.85 ? due + between(3, 20) * DAY : null;
          if (paidAt === null || paidAt > startMs) continue;
          steps.push({
            at: paidAt,
            run: async () => {
              await call(owner, 'POST', '/api/frontend/receipt/create', {
                order_id: orderId,
                order_repayment_plan_id: plan.id,
                amount,
                repayment_at: dayOf(paidAt),
                pay_type: pick([1, 2, 3, 4] as const),
                remark: '',
              });
              counts.receipts++;
            },
          });
        }
      },
    });
  };

  // ── work orders of 售后服务 in every stage; one sent back; two past their SLA ──
  const [type] = await db
    .select({ id: workOrderTypes.id })
    .from(workOrderTypes)
    .where(and(eq(workOrderTypes.tenantId, tenantId), eq(workOrderTypes.name, '售后服务')));
  const typeDetail = type
    ? (
        await call<{ list: { id: number; stages: { id: number; name: string }[] }[] }>(
          'admin',
          'GET',
          '/api/frontend/workorder/typelist',
        )
      ).list.find((t) => t.id === type.id)
    : undefined;
  const WORK = [
    { name: '话机无法注册', days: -40, reach: 3, back: false },
    { name: '坐席耳麦更换', days: -33, reach: 3, back: false },
    { name: '外呼线路杂音排查', days: -21, reach: 3, back: true },
    { name: '新增坐席开通', days: -14, reach: 2, back: false },
    { name: 'AI外呼话术调整', days: -9, reach: 1, back: true },
    { name: '录音下载培训', days: -6, reach: 1, back: false },
    { name: '400号码转接设置', days: -4, reach: 0, back: false },
    { name: '发票信息变更', days: -1, reach: 0, back: false },
  ];
  if (typeDetail) {
    const stages = typeDetail.stages;
    WORK.forEach((w, i) => {
      const createdAt = at(w.days, 10 + (i % 5));
      steps.push({
        at: createdAt,
        run: async () => {
          const target = approvedOrders[i % Math.max(1, approvedOrders.length)] ?? null;
          const customerId = target?.customerId ?? owned[i % owned.length].id;
          const created = await call<{ id: number }>('admin', 'POST', '/api/frontend/workorder/create', {
            customer_id: customerId,
            ...(target ? { order_id: target.orderId } : {}),
            workOrderName: w.name,
            type_id: typeDetail.id,
            priority: pick([1, 2, 2, 3] as const),
            description: `客户反馈：${w.name}，请尽快处理。`,
            files: [],
          });
          counts.workOrders++;
          let t = createdAt;
          const move = (stage: number, remark: string) => {
            t += between(4, 30) * HOUR;
            const when = Math.min(t, startMs - HOUR);
            steps.push({
              at: when,
              run: async () => {
                await call('zhangsan', 'POST', '/api/frontend/workorder/transition', {
                  id: created.id,
                  stage_id: stages[stage].id,
                  remark,
                });
              },
            });
          };
          if (w.reach >= 1) move(1, '已联系客户，开始处理');
          if (w.back) {
            move(0, '信息不全，退回受理补充');
            move(1, '资料已补齐，继续处理');
          }
          if (w.reach >= 2) move(2, '处理完成，待回访');
          if (w.reach >= 3) move(3, '回访满意，关闭工单');
        },
      });
    });
  }

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

  counts.calls = await seedCalls(app, tenantId, startMs, rand, customersOf);
  counts.aiCalls = await seedAiCalls(app, tenantId, startMs, rand, call);

  // the seed's own logins are no one's: their sessions and log lines go
  await db.delete(sessions).where(eq(sessions.tenantId, tenantId)); // before listen: only the seed's own
  await db.delete(loginLogs).where(eq(loginLogs.tenantId, tenantId));
  await db.update(staff).set({ lastLoginAt: null, lastLoginIp: '' }).where(eq(staff.tenantId, tenantId));
  return counts;
};

const PHONE_NOTES = ['确认了报价', '约了下周演示', '客户在开会，稍后回电', '介绍了AI外呼', '催了回款', '确认了合同条款'];

/**
 * Agent calls of the last 30 days (通话记录): each sales person and 张三 call their customers; about
 * two in three answered with a generated recording (8 kHz WAV, two voices taking turns), the rest
 * not answered or busy. Written as the call module ends a call: the record, its file, `call.ended`.
 */
const seedCalls = async (
  app: FastifyInstance,
  tenantId: number,
  startMs: number,
  rand: () => number,
  customersOf: (user: string) => { id: number; phone: string }[],
) => {
  const db = app.db;
  const sips = await db
    .select({ id: sipAccounts.id, user: sipAccounts.user, staffId: sipAccounts.staffId })
    .from(sipAccounts)
    .where(and(eq(sipAccounts.tenantId, tenantId), eq(sipAccounts.isDefault, true)));
  const staffRows = await db
    .select({ id: staff.id, departmentId: staff.departmentId, username: staff.username })
    .from(staff)
    .where(eq(staff.tenantId, tenantId));
  let n = 0;
  const CALLS = 40;
  for (let i = 0; i < CALLS; i++) {
    const user = (['lisi', 'wangwu', 'zhaoliu', 'zhangsan'] as const)[i % 4];
    const person = staffRows.find((s) => s.username === user);
    const sip = sips.find((s) => s.staffId === person?.id);
    const mine = customersOf(user === 'zhangsan' ? 'lisi' : user);
    if (!person || !sip || mine.length === 0) continue;
    const customer = mine[(i * 5 + 3) % mine.length];
    const startAt = new Date(startMs - (30 - Math.floor((i * 30) / CALLS)) * 86_400_000 + (9 + rand() * 8) * 3_600_000);
    if (startAt.getTime() > startMs - 3_600_000) continue;
    const answered = rand() < 0.68;
    const ringAt = new Date(startAt.getTime() + 1_500);
    const answerAt = answered ? new Date(ringAt.getTime() + (3 + Math.floor(rand() * 10)) * 1000) : null;
    const billsec = answered ? 15 + Math.floor(rand() * 45) : 0;
    const endAt = new Date((answerAt ?? ringAt).getTime() + (answered ? billsec * 1000 : 30_000));
    const cause = answered ? HANGUP_CAUSE.normal : rand() < 0.7 ? HANGUP_CAUSE.noAnswer : HANGUP_CAUSE.busy;
    const uuid = uuidOf(rand);
    let stored: { id: number; url: string } | undefined;
    if (answered) {
      const actor = { tenantId, staffId: person.id } as Parameters<typeof storeGeneratedFile>[2];
      const stamp = formatDateTime(startAt).replace(/[-: ]/g, '');
      const wav = simRecording(billsec, uuid);
      stored = await storeGeneratedFile(
        db,
        app.config.dataDir,
        actor,
        { originalName: `录音_${stamp}.wav`, ext: 'wav', scene: 'recording' },
        (fullPath) => fs.promises.writeFile(fullPath, wav),
      );
    }
    const eventId = await db.transaction(async (tx) => {
      await insertCall(tx, {
        uuid,
        yearMonth: formatDateTime(startAt).slice(0, 7).replace('-', ''),
        tenantId,
        staffId: person.id,
        departmentId: person.departmentId,
        sipId: sip.id,
        sipUser: sip.user,
        callType: CALL_TYPE.outbound,
        caller: sip.user,
        calledNumber: customer.phone,
        customerId: customer.id,
        state: CALL_STATE.ended,
        startAt,
        ringAt,
        answerAt,
        endAt,
        billsec,
        hangupSide: answered ? (rand() < 0.5 ? 1 : 2) : 3,
        hangupCause: cause,
        recordFileId: stored?.id ?? null,
        recordFile: stored?.url ?? '',
        createdAt: startAt,
      });
      return publish(tx, tenantId, 'call.ended', {
        uuid,
        customerId: customer.id,
        staffId: person.id,
        callType: CALL_TYPE.outbound,
        billsec,
        recordFile: stored?.url ?? '',
        remark: answered
          ? `呼出通话 ${billsec} 秒，${PHONE_NOTES[i % PHONE_NOTES.length]}`
          : `呼出未接通（${cause === HANGUP_CAUSE.busy ? '忙线' : '无人接听'}）`,
        at: endAt.toISOString(),
      });
    });
    await deliver(db, [eventId]);
    n++;
  }
  return n;
};

const AI_TASK_NAME = '老客户回访';
const SAY = {
  open: '您好，我是云呼科技的智能助理，打扰您一分钟，想了解一下您对外呼系统的需求。',
  yes: '有兴趣，你们怎么收费？',
  price: '我们按坐席计费，基础版每坐席每年三千六百元，稍后会有顾问联系您。',
  no: '不需要，谢谢。',
  bye: '好的，不打扰您了，祝您工作顺利，再见。',
  maybe: '先发点资料看看吧。',
  send: '好的，资料会通过短信发给您，有问题随时联系我们。',
};

/**
 * A finished AI task of last week (AI外呼任务 and its 报表): 40 numbers called over three days by the
 * demo 话术, graded A–E as the bot grades them (E: not connected), with their transcripts.
 */
const seedAiCalls = async (
  app: FastifyInstance,
  tenantId: number,
  startMs: number,
  rand: () => number,
  call: <T>(user: string, method: 'GET' | 'POST', url: string, payload?: object) => Promise<T>,
) => {
  const db = app.db;
  const [flow] = await db
    .select({ id: aibotFlows.id, version: aibotFlows.version })
    .from(aibotFlows)
    .where(eq(aibotFlows.tenantId, tenantId))
    .orderBy(aibotFlows.id)
    .limit(1);
  if (!flow) return 0;
  const numbers = Array.from({ length: 40 }, (_, i) => `1390010${String(1000 + i * 37).padStart(4, '0')}`);
  await call('admin', 'POST', '/api/frontend/aicall/create', {
    name: AI_TASK_NAME,
    flowId: flow.id,
    numbers,
    cmWeeks: [1, 2, 3, 4, 5],
    cmTimes: [{ start: '09:00', end: '18:00' }],
    maxLines: 5,
    maxAttempts: 1,
    redialMinutes: 30,
    wrapUpSeconds: 0,
  });
  const [task] = await db
    .select({ id: callTasks.id, creatorId: callTasks.creatorId })
    .from(callTasks)
    .where(and(eq(callTasks.tenantId, tenantId), eq(callTasks.name, AI_TASK_NAME)));
  if (!task) return 0;
  const rows = await db
    .select({ id: callTaskNumbers.id, phone: callTaskNumbers.phone })
    .from(callTaskNumbers)
    .where(eq(callTaskNumbers.taskId, task.id))
    .orderBy(callTaskNumbers.seq, callTaskNumbers.id);
  // the grade split of a typical run: A 4, B 7, C 9, D 8, E 12 (not connected)
  const plan: Grade[] = [];
  for (const [g, k] of [
    ['A', 4],
    ['B', 7],
    ['C', 9],
    ['D', 8],
    ['E', 12],
  ] as const)
    for (let j = 0; j < k; j++) plan.push(g);
  // last week's Monday to Wednesday (the task calls on weekdays)
  const weekAgo = formatDateTime(new Date(startMs - 7 * 86_400_000)).slice(0, 10);
  const monday = Date.parse(`${weekAgo}T00:00:00+08:00`) - ((new Date(`${weekAgo}T12:00:00Z`).getUTCDay() + 6) % 7) * 86_400_000;
  const firstDay = monday;
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const grade = plan[(i * 17) % plan.length];
    const row = rows[i];
    const day = Math.floor((i * 3) / rows.length);
    const startedAt = new Date(
      Date.parse(`${formatDateTime(new Date(firstDay + day * 86_400_000)).slice(0, 10)}T09:30:00+08:00`) +
        (i % 14) * 25 * 60_000 +
        Math.floor(rand() * 600_000),
    );
    const connected = grade !== 'E';
    const answerAt = connected ? new Date(startedAt.getTime() + 8_000) : null;
    const turns = connected ? transcript(grade) : [];
    const duration = connected ? Math.round((turns.at(-1)?.endMs ?? 10_000) / 1000) + 1 : 0;
    const endAt = new Date((answerAt ?? startedAt).getTime() + (connected ? duration * 1000 : 30_000));
    const uuid = uuidOf(rand);
    await db.transaction(async (tx) => {
      await insertCall(tx, {
        uuid,
        yearMonth: formatDateTime(startedAt).slice(0, 7).replace('-', ''),
        tenantId,
        staffId: null,
        callType: CALL_TYPE.outbound,
        calledNumber: row.phone,
        taskId: task.id,
        state: CALL_STATE.ended,
        startAt: startedAt,
        ringAt: new Date(startedAt.getTime() + 1_500),
        answerAt,
        endAt,
        billsec: duration,
        hangupSide: connected ? (grade === 'D' ? 2 : 3) : 3,
        hangupCause: connected ? HANGUP_CAUSE.normal : HANGUP_CAUSE.noAnswer,
        origin: 1,
        createdAt: startedAt,
      });
      await tx.insert(aiCalls).values({
        tenantId,
        source: 1,
        taskId: task.id,
        numberId: row.id,
        callUuid: uuid,
        flowId: flow.id,
        flowVersion: Math.max(1, flow.version),
        startedAt,
        endedAt: endAt,
        duration,
        grade,
        score: { A: 92, B: 75, C: 55, D: 20, E: 0 }[grade],
        rounds: connected ? Math.floor(turns.length / 2) : 0,
        end: connected ? (grade === 'D' ? 'customer_hangup' : 'end') : 'not_connected',
        counters: connected
          ? {
              positive: grade === 'A' || grade === 'B' ? 1 : 0,
              negative: grade === 'D' ? 1 : 0,
              refused: grade === 'D' ? 1 : 0,
              kb: grade === 'A' ? 1 : 0,
              rounds: Math.floor(turns.length / 2),
              talk_seconds: duration,
              no_match: 0,
              silence: 0,
              custom: {},
            }
          : { cause: HANGUP_CAUSE.noAnswer },
        turns,
        staffIds: [task.creatorId],
        createdAt: startedAt,
      });
      await tx
        .update(callTaskNumbers)
        .set({
          state: connected ? 2 : 3,
          attempts: 1,
          lastCallUuid: uuid,
          lastCode: connected ? '' : HANGUP_CAUSE.noAnswer,
          updatedAt: endAt,
        })
        .where(eq(callTaskNumbers.id, row.id));
    });
    n++;
  }
  const first = new Date(firstDay);
  await db
    .update(callTasks)
    .set({
      status: 4,
      createdAt: new Date(first.getTime() - 86_400_000 + 16 * 3_600_000),
      startedAt: new Date(first.getTime() + 9.5 * 3_600_000),
      completedAt: new Date(first.getTime() + (2 * 24 + 17) * 3_600_000),
    })
    .where(eq(callTasks.id, task.id));
  return n;
};

/** A short conversation of the demo 话术 ending in `grade` (no clips: the whole call is not recorded here). */
const transcript = (grade: Grade) => {
  const lines: [boolean, string, string][] =
    grade === 'A'
      ? [
          [true, SAY.open, 'open'],
          [false, SAY.yes, 'open'],
          [true, SAY.price, 'intro'],
          [false, '可以，让顾问今天下午联系我。', 'intro'],
          [true, SAY.bye, 'bye'],
        ]
      : grade === 'B'
        ? [
            [true, SAY.open, 'open'],
            [false, SAY.yes, 'open'],
            [true, SAY.price, 'intro'],
            [false, SAY.maybe, 'intro'],
            [true, SAY.send, 'bye'],
          ]
        : grade === 'C'
          ? [
              [true, SAY.open, 'open'],
              [false, SAY.maybe, 'open'],
              [true, SAY.send, 'bye'],
            ]
          : [
              [true, SAY.open, 'open'],
              [false, SAY.no, 'open'],
              [true, SAY.bye, 'hangup'],
            ];
  let t = 0;
  return lines.map(([isAi, text, node]) => {
    const len = Math.max(1500, text.length * 230);
    const turn = { isAi, text, atMs: t, endMs: t + len, node, match: isAi ? '' : 'keyword', clipFrom: 0, clipLen: 0 };
    t += len + 600;
    return turn;
  });
};
