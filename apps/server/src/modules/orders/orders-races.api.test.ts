import type { OrderDetail, Product } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store } from '../../test/orders';

/**
 * order/transfer under concurrency (issue 24): the orders are read and changed inside one transaction
 * with their rows locked, so two transfers of the same order run one after the other and the second
 * works on the owner the first left. Each keeps the former owner as collaborator: whoever owned the
 * order along the way is still its owner or a collaborator (before, both read the first owner and the
 * middle owner was lost).
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi']) tokens[u] = await t.login(u);
  for (const [k, name] of [
    ['zhangsan', '张三'],
    ['wangwu', '王五'],
  ])
    ids[k] = await staffIdOf(t, as('admin'), name);
});
afterAll(async () => t.close());

const detail = async (id: number) =>
  (await t.get(`/api/frontend/order/auditdetail?order_id=${id}`, as('admin'))).json().data as OrderDetail;

describe('order transfer races', () => {
  it('two transfers of the same order at once: no owner is lost', async () => {
    const product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
    for (let round = 0; round < 3; round++) {
      const c = await customerOf(t, as('lisi'), `转移并发客户${round}`);
      const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 1_000_000 }]));
      const transfer = (to: number) =>
        t.post(
          '/api/frontend/order/transfer',
          { product_order_ids: [id], transfer_to_staff_id: to, set_cooperator: 1 },
          as('admin'),
        );
      const answers = await Promise.all([transfer(ids.zhangsan), transfer(ids.wangwu)]);
      expect(answers.map((a) => a.json().code)).toEqual([0, 0]);
      const d = await detail(id);
      const people = [d.owner.linkman, ...d.cooperators.map((x) => x.linkman)].sort();
      expect(people, `round ${round}`).toEqual(['张三', '李四', '王五'].sort());
    }
  });
});
