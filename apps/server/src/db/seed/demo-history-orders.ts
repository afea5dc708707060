import type { History } from './demo-history-kit';
import { DAY, HOUR } from './demo-history-kit';

/** Orders of the demo history through the approval engine, and their receipt plans and receipts. */

type Line = { id: number; cost_price: number; num: number; specifications_list: number[] };
type Product = {
  id: number;
  price: number;
  status: number;
  detailed: { price: number; specifications_list: { specifications_value_id: number }[] }[];
};
type Template = {
  coMatid: number;
  name: string;
  templateControls: { coTacid: number; dmType: number }[];
};

const ORDERS = 24;

/** 24 orders over the last four months, approved by 张三 (two rejected, the newest three pending). */
export const planOrders = async (h: History) => {
  const { call, pick, between, rand, at, dayOf, steps, counts } = h;
  const sales = ['lisi', 'wangwu', 'zhaoliu'] as const;
  const catalogue = (await call<{ list: Product[] }>('admin', 'GET', '/api/frontend/product/list?limit=50')).list.filter(
    (p) => p.status === 1,
  );
  const flow = (await call<{ list: Template[] }>('lisi', 'GET', '/api/v1/merchantapp/templatelist?isOrder=1')).list.find(
    (t) => t.name === '订单审批',
  ) as Template;
  const supervisor = h.staffIdOf('zhangsan') as number;

  for (let i = 0; i < ORDERS; i++) {
    const owner = sales[i % sales.length];
    const mine = h.customersOf(owner);
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
              h.approvedOrders.push({ orderId, customerId: customer.id, owner, at: decidedAt });
              planReceipts(
                h,
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
};

/** Receipt plans (one or two instalments) and receipts of an approved order: mostly on time, some late, some overdue. */
const planReceipts = (h: History, orderId: number, owner: string, approvedAt: number, total: number) => {
  const { call, pick, between, rand, dayOf, steps, counts } = h;
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
        if (paidAt === null || paidAt > h.startMs) continue;
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
