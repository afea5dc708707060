import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PlanRow } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractKit, codeOf, contractKit, must } from './contract-test-kit';

/** Issue 26: an archived contract's payment terms (分期) become its order's receipt plans, once. */

let k: ContractKit;
const post = (url: string, body: unknown, user: string) => k.post(url, body, user);
const plansOf = async (orderId: number) =>
  (await must<{ list: PlanRow[] }>(k.get(`/api/frontend/receipt/planlist?order_id=${orderId}&limit=50`, 'lisi'))).list;
const create = (orderId: number, payment_terms: unknown) => k.create(orderId, { payment_terms });

beforeAll(async () => {
  k = await contractKit();
}, 300_000);
afterAll(async () => k?.t.close());

describe('payment terms → receipt plans', () => {
  it('refuses terms above the order amount, unreal days and non-positive amounts (4xx, Chinese)', async () => {
    const orderId = await k.approvedOrder('分期校验客户', 500_000); // order: ¥1,000
    const over = (
      await create(orderId, [
        { amount: 600_000, plan_at: '2026-12-01' },
        { amount: 500_000, plan_at: '2027-01-01' },
      ])
    ).json();
    expect(over.code).toBe(100001);
    expect(over.msg).toContain('超过订单金额');
    expect(await codeOf(create(orderId, [{ amount: 100_000, plan_at: '2026-02-30' }]))).toBe(100001);
    expect(await codeOf(create(orderId, [{ amount: 0, plan_at: '2026-12-01' }]))).toBe(100001);
    expect(await codeOf(create(orderId, [{ amount: 100_000, plan_at: '12/01' }]))).toBe(100001);
  });

  it('the draft PDF shows the terms where the template has {{payment_terms}}; a remark the font cannot draw is refused', async () => {
    const body = '# 第三条 付款方式\n{{payment_terms}}\n付款方式：{{payment_terms}}。';
    const fields = [{ key: 'payment_terms', label: '付款条款' }];
    const tpl = await must<{ id: number }>(
      post('/api/contract/template/store', { name: '分期合同', kind: 1, body, fields }, 'admin'),
    );
    const orderId = await k.approvedOrder('分期合同客户', 1_500_000); // order: ¥3,000
    const terms = [
      { amount: 1_000_000, plan_at: '2026-12-15', remark: '首付款' },
      { amount: 1_500_000, plan_at: '2027-01-15' },
      { amount: 500_000, plan_at: '2027-03-15', remark: '尾款' },
    ];
    const refused = (await k.create(orderId, { template_id: tpl.id, payment_terms: [{ ...terms[0], remark: '首付😀' }] })).json();
    expect(refused.code).toBe(118016);
    expect(refused.msg).toContain('无法显示的字符：😀');

    const { id } = await must<{ id: number }>(
      k.create(orderId, { template_id: tpl.id, payment_terms: terms, fields: { payment_terms: '不算数' } }),
    );
    expect((await k.detail(id)).fields.payment_terms).toBeUndefined();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'contract-terms-')), 'draft.pdf');
    writeFileSync(file, (await k.get(`/api/contract/pdf?id=${id}&kind=draft`, 'lisi')).rawPayload);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    expect(text).toContain('期次金额约定日期备注');
    expect(text).toContain('第1期¥1,000.00（壹仟元整）2026-12-15首付款');
    expect(text).toContain('第2期¥1,500.00（壹仟伍佰元整）2027-01-15-');
    expect(text).toContain('第3期¥500.00（伍佰元整）2027-03-15尾款');
    expect(text).toContain('以上3期款项合计¥3,000.00（叁仟元整）');
    expect(text).toContain('付款方式：分3期支付：第1期于2026-12-15前支付¥1,000.00（壹仟元整），首付款；');
    expect(text).not.toContain('不算数');
  });

  it('makes one plan per instalment when the contract is archived, never twice (racing or repeated archive)', async () => {
    const orderId = await k.approvedOrder('分期归档客户', 1_500_000); // order: ¥3,000
    const terms = [
      { amount: 1_000_000, plan_at: '2026-12-15', remark: '首付款' },
      { amount: 2_000_000, plan_at: '2027-03-15' },
    ];
    const id = await k.signedContract(orderId, { payment_terms: terms });
    expect((await k.detail(id)).payment_terms).toEqual([{ ...terms[0] }, { ...terms[1], remark: '' }]);
    expect(await plansOf(orderId)).toHaveLength(0); // signing alone makes no plan

    const [a, b] = await Promise.all([
      post('/api/contract/placeOnFile', { id }, 'lisi'),
      post('/api/contract/placeOnFile', { id }, 'lisi'),
    ]);
    expect([a.json().code, b.json().code].sort()).toEqual([0, 118012]);
    const won = (a.json().code === 0 ? a : b).json().data as { receipt_plans: number; receipt_plan_msg: string };
    expect(won).toMatchObject({ receipt_plans: 2, receipt_plan_msg: '' });
    expect(await codeOf(post('/api/contract/placeOnFile', { id }, 'lisi'))).toBe(118012);

    const plans = (await plansOf(orderId)).sort((x, y) => x.plan_at.localeCompare(y.plan_at));
    expect(plans.map((p) => [p.amount, p.plan_at])).toEqual([
      [1_000_000, '2026-12-15'],
      [2_000_000, '2027-03-15'],
    ]);
    const c = await k.detail(id);
    expect(plans[0].remark).toBe(`合同${c.contract_no} 第1/2期 首付款`);
    expect(plans[1].remark).toBe(`合同${c.contract_no} 第2/2期`);
    expect([...c.receipt_plan_ids].sort()).toEqual(plans.map((p) => p.id).sort());
    expect(c.audit.filter((e) => e.action === 'receipt_plan').map((e) => e.detail)).toEqual(['付款条款生成回款计划 2 期']);
    expect(c.audit_ok).toBe(1);
  });

  it('still archives when the receipts service refuses the plans, and says why (no plan made)', async () => {
    const orderId = await k.approvedOrder('已有计划客户', 1_000_000); // order: ¥2,000, already fully planned
    const id = await k.signedContract(orderId, { payment_terms: [{ amount: 1_000_000, plan_at: '2026-12-20' }] });
    await must(post('/api/frontend/receipt/plancreate', { order_id: orderId, amount: 2_000_000, plan_at: '2026-12-31' }, 'lisi'));
    const res = await must<{ status: number; receipt_plans: number; receipt_plan_msg: string }>(
      post('/api/contract/placeOnFile', { id }, 'lisi'),
    );
    expect(res.receipt_plans).toBe(0);
    expect(res.receipt_plan_msg).toContain('回款计划未生成：超出订单剩余可计划金额');
    expect(await plansOf(orderId)).toHaveLength(1);
    const c = await k.detail(id);
    expect(c.status).toBe(3);
    expect(c.receipt_plan_ids).toEqual([]);
    expect(c.audit.at(-1)?.detail).toContain('回款计划未生成');
  });
});
