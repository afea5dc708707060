import type { ApprovalTemplate, Product } from '@crm/contracts';
import { expect } from 'vitest';
import { fetchTemplate, mustCreate } from './customers';
import type { TestApp } from './harness';

/** Test helpers for deal orders (issue 13): catalogue, templates, an order and its approval. */
export const products = async (t: TestApp, token: string, query = 'limit=50') => {
  const res = await t.get(`/api/frontend/product/list?${query}`, token);
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data.list as Product[];
};

export const templates = async (t: TestApp, token: string) =>
  (await t.get('/api/v1/merchantapp/templatelist?isOrder=1', token)).json().data.list as ApprovalTemplate[];

export const customerOf = async (t: TestApp, token: string, name: string) =>
  mustCreate(t, token, await fetchTemplate(t, token), name);

export const today = () => {
  const d = new Date(Date.now() + 8 * 3600_000);
  return d.toISOString().slice(0, 10);
};

export const orderBody = (
  customerId: number,
  lines: { id: number; cost_price: number; num?: number; specifications_list?: number[] }[],
) => ({
  customer_id: customerId,
  contact_phone: '13912345678',
  attr: { '2': today(), '5': '微信' },
  product: lines.map((l) => ({ num: 1, specifications_list: [], ...l })),
  remark: '',
  images: [],
});

export const store = async (t: TestApp, token: string, body: unknown) => {
  const res = await t.post('/api/frontend/order/store', body, token);
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data.order_id as number;
};

/** templatecreate with the order id in the template's dmType 17 control. */
export const submitBody = (tpl: ApprovalTemplate, orderId: number, staffByNode: Record<number, number[]> = {}) => ({
  isSave: 2,
  coMatid: tpl.coMatid,
  templateControls: tpl.templateControls
    .filter((c) => c.dmType === 17)
    .map((c) => ({ coTacid: c.coTacid, dmValue: [String(orderId)] })),
  staffApproveNode: Object.entries(staffByNode).map(([nodeId, ids]) => ({
    nodeId: Number(nodeId),
    staffS: ids.map((id) => ({ id })),
  })),
});

export const staffIdOf = async (t: TestApp, token: string, name: string) => {
  const list = (await t.get(`/api/frontend/staff/search?linkman=${encodeURIComponent(name)}`, token)).json().data.list as {
    staff_id: number;
    linkman: string;
  }[];
  const s = list.find((x) => x.linkman === name);
  if (!s) throw new Error(`no staff ${name}`);
  return s.staff_id;
};
