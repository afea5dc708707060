import type { ApprovalTemplate, ContractDetail, Product } from '@crm/contracts';
import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';

/**
 * A contract test app for the API tests beyond contract.api.test.ts: the demo company with its e-sign
 * account, a body template and a seal; lisi's approved orders; contracts sent and signed by the customer.
 */
export type ContractKit = Awaited<ReturnType<typeof contractKit>>;

export const contractKit = async () => {
  const t: TestApp = await createTestApp();
  const tokens: Record<string, string> = {};
  for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);
  const post = (url: string, body: unknown, user: string) => t.post(url, body, tokens[user]);
  const get = (url: string, user: string) => t.get(url, tokens[user]);
  const product = (await products(t, tokens.admin)).find((p) => p.code === 'QC-001') as Product;
  const orderFlow = (await templates(t, tokens.lisi)).find((x) => x.name === '订单审批') as ApprovalTemplate;
  const zhangsan = await staffIdOf(t, tokens.admin, '张三');
  const roles = (await get('/api/frontend/role/list', 'admin')).json().data.list as {
    cmArid: number;
    name: string;
    remark: string;
    dataScope: number;
    menuIds: number[];
    actions: string[];
  }[];
  // the sales roles use the contract pages (menu 181)
  for (const { cmArid, name, remark, dataScope, menuIds, actions } of roles.filter((x) =>
    ['销售', '销售主管'].includes(x.name),
  )) {
    await must(
      post(
        '/api/frontend/role/edit',
        { cmArid, name, remark, dataScope, actions, menuIds: [...new Set([...menuIds, 181])] },
        'admin',
      ),
    );
  }
  for (const u of ['zhangsan', 'lisi']) tokens[u] = await t.login(u);
  await must(
    post(
      '/api/contract/info',
      { company_name: '云呼科技有限公司', credit_code: '91350100M000100Y43', legal_rep: '王总' },
      'admin',
    ),
  );
  const body =
    '# 第一条 合同标的\n甲方向乙方{{customer_name}}提供以下产品：\n{{products}}\n合同金额：{{amount_lower}}（大写：{{amount_upper}}）';
  const templateId = (
    await must<{ id: number }>(post('/api/contract/template/store', { name: '测试合同', kind: 1, body, fields: [] }, 'admin'))
  ).id;
  const sealId = (await must<{ id: number }>(post('/api/contract/seal_sign/store', { name: '合同专用章', kind: 1 }, 'admin'))).id;

  let visitor = 0;
  const pub = (url: string, payload: object) => {
    visitor += 1;
    return t.app.inject({ method: 'POST', url, payload, remoteAddress: `10.26.${visitor >> 8}.${visitor & 255}` });
  };
  /** An approved order of lisi's: 2 × price (1/1000 yuan). */
  const approvedOrder = async (name: string, price: number) => {
    const c = await customerOf(t, tokens.lisi, name);
    const id = await store(t, tokens.lisi, orderBody(c, [{ id: product.id, cost_price: price, num: 2 }]));
    await post('/api/v1/staff/templatecreate', submitBody(orderFlow, id, { 1: [zhangsan] }), 'lisi');
    await must(post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, 'zhangsan'));
    return id;
  };
  const create = (orderId: number, extra: Record<string, unknown> = {}) =>
    post('/api/contract/create', { order_id: orderId, template_id: templateId, seal_id: sealId, ...extra }, 'lisi');
  const detail = (id: number) => must<ContractDetail>(get(`/api/contract/detail?id=${id}`, 'lisi'));
  /** A contract of the order, sent and signed by the customer (one-time code from the sim line's demo view). */
  const signedContract = async (orderId: number, extra: Record<string, unknown> = {}) => {
    const { id } = await must<{ id: number }>(create(orderId, extra));
    const sent = await must<{ sign_path: string }>(post('/api/contract/create/sign', { id }, 'lisi'));
    const token = sent.sign_path.replace('/sign/', '');
    const c = await detail(id);
    const customer = c.signers.find((s) => s.party === 2);
    await must(pub('/api/contract/draft', { token, price: c.amount, name: customer?.name, phone: customer?.phone }));
    const code = (await detail(id)).signers.find((s) => s.party === 2)?.demo_code ?? '';
    await must(pub('/api/contract/sign/submit', { token, code, signature_png: PNG_URL }));
    return id;
  };
  return { t, post, get, approvedOrder, create, detail, signedContract };
};

const PNG_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const must = async <T = Record<string, unknown>>(res: Promise<{ json: () => { code: number; data: unknown } }>) => {
  const json = (await res).json();
  expect(json.code, JSON.stringify(json)).toBe(0);
  return json.data as T;
};
export const codeOf = async (res: Promise<{ json: () => { code: number } }>) => (await res).json().code;
