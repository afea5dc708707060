import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  type ApprovalTemplate,
  amountInCapitals,
  CONTRACT_MSG_TYPE,
  type ContractDetail,
  type ContractRow,
  type Product,
} from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { setClockOffsetMs } from '../../lib/clock';
import { staffChannel } from '../../lib/pubsub';
import { startOfTodayShanghai } from '../../lib/time';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let product: Product;
let orderFlow: ApprovalTemplate;
let templateId = 0;
let sealId = 0;
const ids: Record<string, number> = {};
const MIN = 60_000;
const DAY = 86_400_000;

/** A valid 统一社会信用代码 (GB 32100 check character). */
const CREDIT_CODE = '91350100M000100Y43';
/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PNG_URL = `data:image/png;base64,${PNG.toString('base64')}`;

const post = (url: string, body: unknown, user: string) => t.post(url, body, as(user));
const get = (url: string, user: string) => t.get(url, as(user));
const must = async <T = Record<string, unknown>>(res: Promise<{ json: () => { code: number; data: unknown } }>) => {
  const json = (await res).json();
  expect(json.code, JSON.stringify(json)).toBe(0);
  return json.data as T;
};
const codeOf = async (res: Promise<{ json: () => { code: number } }>) => (await res).json().code;

/** An order of lisi's, approved by zhangsan unless `approve` is false. */
const orderOf = async (name: string, amount: number, approve = true) => {
  const c = await customerOf(t, as('lisi'), name);
  const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: amount, num: 2 }]));
  if (approve) {
    await post('/api/v1/staff/templatecreate', submitBody(orderFlow, id, { 1: [ids.张三] }), 'lisi');
    await must(post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, 'zhangsan'));
  }
  return { customerId: c, orderId: id };
};

const create = (orderId: number, extra: Record<string, unknown> = {}, user = 'lisi') =>
  post('/api/contract/create', { order_id: orderId, template_id: templateId, seal_id: sealId, ...extra }, user);
const mustCreate = async (orderId: number, extra: Record<string, unknown> = {}, user = 'lisi') =>
  must<{ id: number; contract_no: string }>(create(orderId, extra, user));
const detail = (id: number, user = 'lisi') => must<ContractDetail>(get(`/api/contract/detail?id=${id}`, user));
const send = (id: number, extra: Record<string, unknown> = {}, user = 'lisi') =>
  must<{ sign_path: string; status: number; seal_approval: number }>(post('/api/contract/create/sign', { id, ...extra }, user));
const tokenOf = (signPath: string) => signPath.replace('/sign/', '');
/** Public calls come from their own address each (the per-address limit has its own test). */
let visitor = 0;
const nextIp = () => {
  visitor += 1;
  return `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
};
const pub = (method: 'GET' | 'POST', url: string, payload?: object, remoteAddress = nextIp()) =>
  t.app.inject({ method, url, payload, remoteAddress, headers: { 'user-agent': 'Mozilla/5.0 (iPhone) 测试' } });
const view = (token: string) => pub('GET', `/api/contract/sign/view?token=${token}`);
const askCode = (token: string, c: ContractDetail, over: Record<string, unknown> = {}) =>
  pub('POST', '/api/contract/draft', {
    token,
    price: c.amount,
    name: c.signers.find((s) => s.party === 2)?.name,
    phone: c.signers.find((s) => s.party === 2)?.phone,
    ...over,
  });
const demoCode = async (id: number) => (await detail(id)).signers.find((s) => s.party === 2)?.demo_code ?? '';
const submit = (token: string, code: string, over: Record<string, unknown> = {}) =>
  pub('POST', '/api/contract/sign/submit', { token, code, signature_png: PNG_URL, ...over });

/** Sends a fresh contract of a fresh approved order and signs it as the customer; answers the contract id. */
const signedContract = async (name: string, extra: Record<string, unknown> = {}) => {
  const { orderId } = await orderOf(name, 1_500_000);
  const { id } = await mustCreate(orderId, extra);
  const token = tokenOf((await send(id)).sign_path);
  const c = await detail(id);
  await must(askCode(token, c));
  await must(submit(token, await demoCode(id)));
  return { id, token };
};

const multipart = (url: string, file: Buffer, fields: Record<string, string> = {}, token?: string) => {
  const boundary = `----contract${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: nextIp(),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(token ? { authorization: token } : {}) },
  });
};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'other_admin']) tokens[u] = await t.login(u);
  product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
  orderFlow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  for (const name of ['张三', '李四', '王五']) ids[name] = await staffIdOf(t, as('admin'), name);
  // the sales roles use the contract pages (the demo seed grants them once the menus land)
  const roles = (await get('/api/frontend/role/list', 'admin')).json().data.list as {
    cmArid: number;
    name: string;
    remark: string;
    dataScope: number;
    menuIds: number[];
    actions: string[];
  }[];
  for (const r of roles.filter((x) => x.name === '销售' || x.name === '销售主管')) {
    const { cmArid, name, remark, dataScope, menuIds, actions } = r;
    await must(
      post(
        '/api/frontend/role/edit',
        { cmArid, name, remark, dataScope, actions, menuIds: [...new Set([...menuIds, 181])] },
        'admin',
      ),
    );
  }
  for (const u of ['zhangsan', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  await must(
    post('/api/contract/info', { company_name: '云呼科技有限公司', credit_code: CREDIT_CODE, legal_rep: '王总' }, 'admin'),
  );
  templateId = (
    await must<{ id: number }>(
      post(
        '/api/contract/template/store',
        {
          name: '测试销售合同',
          kind: 1,
          body: '# 第一条 合同标的\n甲方向乙方{{customer_name}}提供以下产品：\n{{products}}\n合同金额：{{amount_lower}}（大写：{{amount_upper}}）\n# 第二条 服务期限\n{{service_period}}',
          fields: [{ key: 'service_period', label: '服务期限' }],
        },
        'admin',
      ),
    )
  ).id;
  sealId = (await must<{ id: number }>(post('/api/contract/seal_sign/store', { name: '合同专用章', kind: 1 }, 'admin'))).id;
}, 300_000);
afterAll(async () => t?.close());
afterEach(() => setClockOffsetMs(0));

describe('e-sign account (api/contract/info)', () => {
  it('refuses a credit code whose check character is wrong and keeps the private key out of every answer', async () => {
    expect(
      await codeOf(
        post(
          '/api/contract/info',
          { company_name: '云呼科技有限公司', credit_code: '91350100M000100Y44', legal_rep: '王总' },
          'admin',
        ),
      ),
    ).toBe(118008);
    expect(
      await codeOf(post('/api/contract/info', { company_name: '', credit_code: CREDIT_CODE, legal_rep: '王总' }, 'admin')),
    ).toBe(100001);
    const info = await must<{ credit_code: string; status: number; sms_live: number }>(get('/api/contract/info', 'admin'));
    expect(info).toMatchObject({ credit_code: CREDIT_CODE, status: 1, sms_live: 0 });
    // settings writes need the settings menu
    expect(
      await codeOf(post('/api/contract/info', { company_name: 'x', credit_code: CREDIT_CODE, legal_rep: 'y' }, 'lisi')),
    ).toBe(100003);
  });
});

describe('numbering rule', () => {
  it('takes 3 to 8 sequence digits and shows the next number', async () => {
    for (const seq_digits of [2, 9]) {
      expect(
        await codeOf(post('/api/contract/rule/update', { prefix: 'HT', date_format: 'YYYYMMDD', seq_digits }, 'admin')),
      ).toBe(100001);
    }
    const eight = await must<{ example: string }>(
      post('/api/contract/rule/update', { prefix: 'XS', date_format: '', seq_digits: 8 }, 'admin'),
    );
    expect(eight.example).toBe('XS00000001');
    const rule = await must<{ example: string; reset: string }>(
      post('/api/contract/rule/update', { prefix: 'HT', date_format: 'YYYYMMDD', seq_digits: 3 }, 'admin'),
    );
    expect(rule.reset).toBe('day');
    expect(rule.example).toMatch(/^HT\d{8}\d{3}$/);
  });

  it('gives racing creates distinct consecutive numbers and never gives one twice', async () => {
    const { orderId } = await orderOf('编号并发客户', 1_000_000);
    const made = await Promise.all(Array.from({ length: 8 }, () => mustCreate(orderId)));
    const nos = made.map((m) => m.contract_no);
    expect(new Set(nos).size).toBe(8);
    const seqs = nos.map((n) => Number(n.slice(-3))).sort((a, b) => a - b);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1] + 1);
    // a failed create (no such template) takes no number; the next one follows the last
    expect(await codeOf(create(orderId, { template_id: 999_999 }))).toBe(118002);
    const next = await mustCreate(orderId);
    expect(Number(next.contract_no.slice(-3))).toBe(seqs[7] + 1);
  });
});

describe('templates', () => {
  it('store, list, update, refuse a taken name, preview as an A4 PDF', async () => {
    const body = { name: '模板甲', kind: 1, body: '# 条款\n甲方：{{company_name}}\n{{products}}' };
    const { id } = await must<{ id: number }>(post('/api/contract/template/store', body, 'admin'));
    expect(await codeOf(post('/api/contract/template/store', body, 'admin'))).toBe(118003);
    expect(await codeOf(post('/api/contract/template/store', { ...body, name: '模板乙', body: ' ' }, 'admin'))).toBe(100001);
    await must(post('/api/contract/template/update', { ...body, id, name: '模板甲改', status: 1 }, 'admin'));
    const active = await must<{ list: { id: number }[] }>(get('/api/contract/template', 'lisi'));
    expect(active.list.some((x) => x.id === id)).toBe(false);
    const all = await must<{ list: { id: number; name: string; status: number }[] }>(
      get('/api/contract/template?is_all=1', 'admin'),
    );
    expect(all.list.find((x) => x.id === id)).toMatchObject({ name: '模板甲改', status: 1 });
    // a disabled template makes no contract
    const { orderId } = await orderOf('停用模板客户', 1_000_000);
    expect(await codeOf(create(orderId, { template_id: id }))).toBe(118002);
    const preview = await post('/api/contract/template/preview', body, 'admin');
    expect(preview.statusCode).toBe(200);
    expect(preview.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await must<{ prefix: string }>(get('/api/contract/rule', 'admin'))).prefix).toBe('HT');
  });
});

describe('create from an order', () => {
  it('refuses an order that is not approved', async () => {
    const { orderId } = await orderOf('未审批客户', 1_000_000, false);
    expect(await codeOf(create(orderId))).toBe(118001);
  });

  it('fills the template from the order: customer, contact, products, amount in capitals; a real PDF', async () => {
    const { orderId, customerId } = await orderOf('填充客户', 1_234_560);
    const { id, contract_no } = await mustCreate(orderId, { fields: { service_period: '2027年1月1日至2027年12月31日' } });
    const c = await detail(id);
    expect(c).toMatchObject({ status: 0, status_name: '草稿', order_id: orderId, customer_id: customerId, contract_no });
    expect(c.amount).toBe(2_469_120);
    expect(c.fields.amount_upper).toBe(amountInCapitals(2_469_120));
    expect(c.fields.amount_upper).toBe('贰仟肆佰陆拾玖元壹角贰分');
    expect(c.fields.amount_lower).toBe('¥2,469.12');
    expect(c.fields.customer_name).toBe('填充客户');
    expect(c.fields.contact_phone).toBe('13912345678');
    expect(c.products).toHaveLength(1);
    expect(c.products[0]).toMatchObject({ num: 2, price: 1_234_560, total: 2_469_120 });
    const pdf = await get(`/api/contract/pdf?id=${id}&kind=draft`, 'lisi');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(c.audit.map((a) => a.action)).toEqual(['create']);
    expect(c.audit_ok).toBe(1);
  });
});

describe('data scope and tenant isolation', () => {
  it('a sales user sees only his contracts; another company sees none of them', async () => {
    const { orderId, customerId } = await orderOf('范围客户', 1_000_000);
    const { id } = await mustCreate(orderId);
    const lisiList = await must<{ list: ContractRow[] }>(get('/api/contract/list?limit=200', 'lisi'));
    expect(lisiList.list.some((r) => r.id === id)).toBe(true);
    const wangwu = await must<{ list: ContractRow[]; count: number }>(get('/api/contract/list?limit=200', 'wangwu'));
    expect(wangwu.list.some((r) => r.id === id)).toBe(false);
    expect(await codeOf(get(`/api/contract/detail?id=${id}`, 'wangwu'))).toBe(118000);
    expect(await codeOf(get(`/api/contract/pdf?id=${id}`, 'wangwu'))).toBe(118000);
    expect(
      (await must<{ list: ContractRow[] }>(get(`/api/contract/ofCustomer?customer_id=${customerId}`, 'wangwu'))).list,
    ).toEqual([]);
    expect(
      (await must<{ list: ContractRow[] }>(get(`/api/contract/ofOrder?order_id=${orderId}`, 'lisi'))).list.map((r) => r.id),
    ).toContain(id);
    // another company: every path refuses the id
    for (const res of [
      get(`/api/contract/detail?id=${id}`, 'other_admin'),
      get(`/api/contract/pdf?id=${id}`, 'other_admin'),
      post('/api/contract/create/sign', { id }, 'other_admin'),
      post('/api/contract/placeOnFile', { id }, 'other_admin'),
      post('/api/contract/discard', { id, reason: '测试' }, 'other_admin'),
      post('/api/contract/signer/link', { id }, 'other_admin'),
    ])
      expect(await codeOf(res)).toBe(118000);
    expect(await codeOf(create(orderId, {}, 'other_admin'))).toBe(111048);
    expect(await codeOf(post('/api/contract/seal_sign/destroy', { id: sealId }, 'other_admin'))).toBe(118004);
    expect(
      await codeOf(post('/api/contract/template/update', { id: templateId, name: '改', kind: 1, body: 'x' }, 'other_admin')),
    ).toBe(118002);
    expect((await must<{ count: number }>(get('/api/contract/list', 'other_admin'))).count).toBe(0);
  });

  it('statusInfo counts by status in the caller scope', async () => {
    const { orderId } = await orderOf('统计客户', 1_000_000);
    await mustCreate(orderId);
    const info = await must<{ list: { status: number; count: number }[]; total: number }>(
      get('/api/contract/statusInfo', 'lisi'),
    );
    expect(info.list.map((s) => s.status)).toEqual([0, 1, 2, 3, 4]);
    const list = await must<{ count: number }>(get('/api/contract/list', 'lisi'));
    expect(info.total).toBe(list.count);
    const drafts = await must<{ count: number }>(get('/api/contract/list?status=0', 'lisi'));
    expect(info.list[0].count).toBe(drafts.count);
    expect((await must<{ total: number }>(get('/api/contract/statusInfo', 'wangwu'))).total).toBe(0);
  });
});

describe('signing', () => {
  it('company first: the seal is applied at send, the customer confirms, gets a code and signs; the owner is told', async () => {
    const { orderId } = await orderOf('签署客户', 1_000_000);
    const { id } = await mustCreate(orderId);
    const sent = await send(id);
    expect(sent.status).toBe(1);
    expect(sent.sign_path).toMatch(/^\/sign\/[A-Za-z0-9_-]{32}$/);
    const token = tokenOf(sent.sign_path);
    const page = await must<{ can_sign: number; phone_masked: string; amount_upper: string }>(view(token));
    expect(page).toMatchObject({ can_sign: 1, phone_masked: '139****5678', amount_upper: '贰仟元整' });
    const pdf = await pub('GET', `/api/contract/sign/pdf?token=${token}`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const c = await detail(id);
    expect(c.signers.find((s) => s.party === 1)?.signed_at).not.toBe('');
    // the confirmation must match: amount, name and phone
    expect(await codeOf(askCode(token, c, { price: c.amount + 1 }))).toBe(118024);
    expect(await codeOf(askCode(token, c, { phone: '13900000000' }))).toBe(118024);
    await must(askCode(token, c));
    const code = await demoCode(id);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await codeOf(submit(token, wrong))).toBe(118027);
    expect(await codeOf(submit(token, code, { signature_png: 'data:image/png;base64,AAAA' }))).toBe(118030);
    const seen: { msg_type: number; data: { contractId: number } }[] = [];
    const off = await t.app.calls.bus.subscribe(staffChannel(ids.李四), (m) => seen.push((m as { frame: never }).frame));
    const signed = await must<{ status: number }>(submit(token, code));
    expect(signed.status).toBe(2);
    await off();
    expect(seen.some((f) => f.msg_type === CONTRACT_MSG_TYPE && f.data.contractId === id)).toBe(true);
    // signed once: the same code and link sign nothing more
    expect(await codeOf(submit(token, code))).toBe(118023);
    const after = await detail(id);
    expect(after.signers.find((s) => s.party === 2)).toMatchObject({ state: 2, user_agent: expect.any(String) });
    expect(after.audit.map((a) => a.action)).toEqual(['create', 'send', 'link', 'seal', 'code', 'sign', 'signed']);
    expect(after.audit_ok).toBe(1);
  });

  it('customer first: the company seals only after the customer signed', async () => {
    const { orderId } = await orderOf('客户先签客户', 1_000_000);
    const { id } = await mustCreate(orderId, { sign_order: 2 });
    const token = tokenOf((await send(id)).sign_path);
    let c = await detail(id);
    expect(c.signers.find((s) => s.party === 1)).toMatchObject({ signed_at: '', state: 0 });
    expect(c.signers.find((s) => s.party === 2)?.state).toBe(1);
    await must(askCode(token, c));
    await must(submit(token, await demoCode(id), { signature_png: '', typed_name: '王客户' }));
    c = await detail(id);
    expect(c.status).toBe(2);
    const customerAt = c.signers.find((s) => s.party === 2)?.signed_at ?? '';
    const companyAt = c.signers.find((s) => s.party === 1)?.signed_at ?? '';
    expect(companyAt >= customerAt && companyAt !== '').toBe(true);
    expect(c.audit.map((a) => a.action).slice(-3)).toEqual(['sign', 'seal', 'signed']);
  });

  it('a link stops at its expiry, not before', async () => {
    const { orderId } = await orderOf('链接过期客户', 1_000_000);
    const { id } = await mustCreate(orderId);
    const token = tokenOf((await send(id, { link_days: 1 })).sign_path);
    setClockOffsetMs(DAY - MIN);
    expect((await view(token)).json().code).toBe(0);
    setClockOffsetMs(DAY + 1000);
    const res = await view(token);
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe(118021);
    setClockOffsetMs(0);
    // a new link replaces the old one
    const renewed = await must<{ sign_path: string }>(post('/api/contract/signer/link', { id, link_days: 3 }, 'lisi'));
    expect(await codeOf(view(token))).toBe(118020);
    expect(await codeOf(view(tokenOf(renewed.sign_path)))).toBe(0);
    expect(await codeOf(view('A'.repeat(32)))).toBe(118020);
  });

  it('public writes: ten a minute from one address, the eleventh refused', async () => {
    const ip = '10.250.0.1';
    const bad = { token: 'B'.repeat(32), price: 1, name: '某', phone: '13900000000' };
    for (let i = 0; i < 10; i++) expect((await pub('POST', '/api/contract/draft', bad, ip)).json().code).toBe(118020);
    const limited = await pub('POST', '/api/contract/draft', bad, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe(100006);
    expect((await pub('POST', '/api/contract/draft', bad)).json().code).toBe(118020);
  });

  it('one-time codes: one a minute, ten a day, five minutes valid, five tries', async () => {
    // "a day" is the Shanghai business day: the case runs at 10:00 of it, so its half hour of clock
    // moves never crosses midnight (run at 23:50 Shanghai it did, and the eleventh send passed)
    const tenOClock = startOfTodayShanghai(new Date()).getTime() + 10 * 3_600_000 - Date.now();
    const at = (ms: number) => setClockOffsetMs(tenOClock + ms);
    at(0);
    const { orderId } = await orderOf('验证码客户', 1_000_000);
    const { id } = await mustCreate(orderId);
    const token = tokenOf((await send(id)).sign_path);
    const c = await detail(id);
    await must(askCode(token, c));
    at(59_000);
    expect(await codeOf(askCode(token, c))).toBe(118025);
    at(61_000);
    await must(askCode(token, c));
    const code = await demoCode(id);
    // five minutes valid: just before works for a wrong code count, just after is expired
    at(61_000 + 5 * MIN + 1000);
    expect(await codeOf(submit(token, code))).toBe(118028);
    // a fresh code: four wrong tries are told wrong, the fifth locks it, the right one then fails too
    at(61_000 + 6 * MIN);
    await must(askCode(token, c));
    const fresh = await demoCode(id);
    const wrong = fresh === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) expect(await codeOf(submit(token, wrong))).toBe(118027);
    expect(await codeOf(submit(token, wrong))).toBe(118029);
    expect(await codeOf(submit(token, fresh))).toBe(118029);
    // ten sends a day: 3 so far; 7 more pass, the 11th is refused
    for (let i = 0; i < 7; i++) {
      at(61_000 + (8 + i * 2) * MIN);
      await must(askCode(token, c));
    }
    at(61_000 + 30 * MIN);
    expect(await codeOf(askCode(token, c))).toBe(118026);
  });
});

describe('archive, verify, discard', () => {
  it('archives only once every party signed, with one PAdES signature the verify page accepts; one credit', async () => {
    const { orderId } = await orderOf('未签完客户', 1_000_000);
    const { id: unsigned } = await mustCreate(orderId);
    expect(await codeOf(post('/api/contract/placeOnFile', { id: unsigned }, 'lisi'))).toBe(118011);
    await send(unsigned);
    expect(await codeOf(post('/api/contract/placeOnFile', { id: unsigned }, 'lisi'))).toBe(118011);

    const before = (await must<{ count: number }>(get('/api/contract/account/log', 'admin'))).count;
    const { id, token } = await signedContract('归档客户');
    const [a, b] = await Promise.all([
      post('/api/contract/placeOnFile', { id }, 'lisi'),
      post('/api/contract/placeOnFile', { id }, 'lisi'),
    ]);
    const codes = [a.json().code, b.json().code].sort();
    expect(codes[0]).toBe(0);
    expect(codes[1]).toBe(118012);
    const archived = (a.json().code === 0 ? a : b).json().data as { sha256: string; archived_url: string };
    expect(archived.sha256).toMatch(/^[0-9a-f]{64}$/);
    const log = await must<{ count: number; list: { contract_id: number; credits: number }[] }>(
      get('/api/contract/account/log', 'admin'),
    );
    expect(log.count).toBe(before + 1);
    expect(log.list[0]).toMatchObject({ contract_id: id, credits: 1 });
    expect((await must<{ credits_used: number }>(get('/api/contract/info', 'admin'))).credits_used).toBe(before + 1);
    expect(await codeOf(post('/api/contract/placeOnFile', { id }, 'lisi'))).toBe(118012);

    const file = (await get(archived.archived_url, 'lisi')).rawPayload;
    // the customer's link now serves the archived file itself
    expect((await pub('GET', `/api/contract/sign/pdf?token=${token}`)).rawPayload.equals(file)).toBe(true);
    const ok = await must<{ is_valid: number; company_name: string; contract_no: string }>(
      multipart('/api/contract/verify', file),
    );
    expect(ok).toMatchObject({ is_valid: 1, company_name: '云呼科技有限公司' });
    const tampered = Buffer.from(file);
    const at = tampered.indexOf('/Producer');
    tampered[at > 0 ? at + 3 : 200] ^= 0x01;
    expect((await must<{ is_valid: number }>(multipart('/api/contract/verify', tampered))).is_valid).toBe(0);
    expect(await codeOf(multipart('/api/contract/verify', Buffer.from('not a pdf')))).toBe(118034);
    // archived contracts are read-only: no new link, no second send
    expect(await codeOf(post('/api/contract/create/sign', { id }, 'lisi'))).toBe(118010);
  });

  it('pdfsig reports the archived signature valid, and invalid after one byte changed', async () => {
    let hasPdfsig = true;
    try {
      execFileSync('pdfsig', ['-v'], { stdio: 'ignore' });
    } catch {
      hasPdfsig = false;
    }
    if (!hasPdfsig) return;
    const { id } = await signedContract('pdfsig客户');
    const archived = await must<{ archived_url: string }>(post('/api/contract/placeOnFile', { id }, 'lisi'));
    const file = (await get(archived.archived_url, 'lisi')).rawPayload;
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'contract-sig-'));
    writeFileSync(join(dir, 'ok.pdf'), file);
    const out = execFileSync('pdfsig', [join(dir, 'ok.pdf')], { encoding: 'utf8' });
    expect(out).toMatch(/Signature is Valid/);
    // one byte of the signed content changed (inside the first covered range)
    const tampered = Buffer.from(file);
    tampered[Math.floor(tampered.indexOf('/ByteRange') / 2)] ^= 0x01;
    writeFileSync(join(dir, 'bad.pdf'), tampered);
    let bad = '';
    try {
      bad = execFileSync('pdfsig', [join(dir, 'bad.pdf')], { encoding: 'utf8' });
    } catch (err) {
      bad = String((err as { stdout?: string }).stdout ?? '');
    }
    expect(bad).not.toMatch(/Signature is Valid/);
    // the certificate page and the contract are real Chinese text
    const text = execFileSync('pdftotext', [join(dir, 'ok.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain('pdfsig客户');
  });

  it('discard makes a 已作废 version and keeps the original; its link stops working', async () => {
    const { orderId } = await orderOf('作废客户', 1_000_000);
    const { id } = await mustCreate(orderId);
    const token = tokenOf((await send(id)).sign_path);
    expect(await codeOf(post('/api/contract/discard', { id, reason: '' }, 'lisi'))).toBe(100001);
    const r = await must<{ id: number; discarded_id: number }>(
      post('/api/contract/discard', { id, reason: '客户取消合作' }, 'lisi'),
    );
    expect(r.id).toBe(id);
    const v2 = await detail(r.discarded_id);
    expect(v2).toMatchObject({ status: 4, status_name: '已作废', version: 2, parent_id: id, discard_reason: '客户取消合作' });
    expect(v2.pdf.dismissed).not.toBe('');
    // SPEC §4: the dismissed file is not in the file-URL list; the original's draft is
    expect(v2.file_urls).toEqual([]);
    const pdf = await get(v2.pdf.dismissed, 'lisi');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const original = await detail(id);
    expect(original).toMatchObject({ status: 1, discarded_by_id: r.discarded_id, can_discard: 0, can_send: 0 });
    expect(original.pdf.draft).not.toBe('');
    expect(original.file_urls).toEqual([original.pdf.draft]);
    expect(await codeOf(view(token))).toBe(118020);
    const list = await must<{ list: ContractRow[] }>(get(`/api/contract/list?order_id=${orderId}`, 'lisi'));
    expect(list.list.map((x) => x.id)).toEqual([r.discarded_id]);
    expect(await codeOf(post('/api/contract/discard', { id, reason: '再次' }, 'lisi'))).toBe(118013);
    expect(await codeOf(post('/api/contract/discard', { id: r.discarded_id, reason: '再次' }, 'lisi'))).toBe(118013);
  });
});

describe('seals', () => {
  it('a destroyed seal cannot be chosen but stays on contracts it sealed; who may use a seal is enforced', async () => {
    const { id: other } = await must<{ id: number }>(
      post('/api/contract/seal_sign/store', { name: '公章', kind: 2, staff_ids: [ids.王五] }, 'admin'),
    );
    const { orderId } = await orderOf('印章客户', 1_000_000);
    expect(await codeOf(create(orderId, { seal_id: other }))).toBe(118005);
    const { id: temp } = await must<{ id: number }>(post('/api/contract/seal_sign/store', { name: '临时章', kind: 1 }, 'admin'));
    const { id } = await mustCreate(orderId, { seal_id: temp });
    await must(post('/api/contract/seal_sign/destroy', { id: temp }, 'admin'));
    expect(await codeOf(create(orderId, { seal_id: temp }))).toBe(118004);
    const all = await must<{ list: { id: number; status: number }[] }>(get('/api/contract/seal_sign?with_destroyed=1', 'admin'));
    expect(all.list.find((s) => s.id === temp)?.status).toBe(1);
    expect((await detail(id)).seal_name).toBe('临时章');
    const img = await get(`/api/contract/seal_sign/image?id=${sealId}`, 'lisi');
    expect(img.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // an uploaded seal must be a transparent PNG
    expect(await codeOf(post('/api/contract/seal_sign/store', { name: '上传章', kind: 3 }, 'admin'))).toBe(100001);
  });

  it('a seal needing 用印审批 opens signing only once the flow approves', async () => {
    const add = await post(
      '/api/v1/merchantapp/templateadd',
      { name: '用印审批', isOrder: 3, nodes: [{ type: 0, mode: 1, staffIds: [ids.张三] }] },
      'admin',
    );
    expect(add.json().code, JSON.stringify(add.json())).toBe(0);
    const flow = ((await get('/api/v1/merchantapp/templatelist?isOrder=3', 'admin')).json().data.list as ApprovalTemplate[]).find(
      (x) => x.name === '用印审批',
    ) as ApprovalTemplate;
    const { id: approvalSeal } = await must<{ id: number }>(
      post(
        '/api/contract/seal_sign/store',
        { name: '审批章', kind: 1, needs_approval: 1, approval_template_id: flow.coMatid },
        'admin',
      ),
    );
    const { orderId } = await orderOf('用印客户', 1_000_000);
    const { id } = await mustCreate(orderId, { seal_id: approvalSeal });
    const sent = await send(id);
    expect(sent).toMatchObject({ status: 0, seal_approval: 1 });
    const token = tokenOf(sent.sign_path);
    expect((await must<{ can_sign: number; wait_reason: string }>(view(token))).can_sign).toBe(0);
    expect(await codeOf(askCode(token, await detail(id)))).toBe(118022);
    expect(await codeOf(post('/api/contract/create/sign', { id }, 'lisi'))).toBe(118014);
    const c = await detail(id);
    await must(post('/api/v1/staff/approvalact', { instanceId: c.approval_instance_id, nodeId: 1, status: 1 }, 'zhangsan'));
    const after = await detail(id);
    expect(after).toMatchObject({ status: 1, seal_approval: 2 });
    expect(after.signers.find((s) => s.party === 1)?.signed_at).not.toBe('');
    expect((await must<{ can_sign: number }>(view(token))).can_sign).toBe(1);
    // the approver reads the contract through the flow
    expect((await detail(id, 'zhangsan')).id).toBe(id);
  });
});

describe('files', () => {
  it('api/uploadPdf: A4 kept, another size kept with data.code 1 and a warning, a non-PDF refused', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const a4 = await PDFDocument.create();
    a4.addPage([595.28, 841.89]);
    const ok = await must<{ code: number; pages: number; id: number }>(
      multipart('/api/uploadPdf', Buffer.from(await a4.save()), { scene: 'contract' }, as('admin')),
    );
    expect(ok).toMatchObject({ code: 0, pages: 1 });
    const letter = await PDFDocument.create();
    letter.addPage([612, 792]);
    const warn = await must<{ code: number; msg: string }>(
      multipart('/api/uploadPdf', Buffer.from(await letter.save()), { scene: 'contract' }, as('admin')),
    );
    expect(warn.code).toBe(1);
    expect(warn.msg).toMatch(/A4/);
    expect(await codeOf(multipart('/api/uploadPdf', Buffer.from('hello'), { scene: 'contract' }, as('admin')))).toBe(118017);
    // a PDF template with fields placed on its page
    const tpl = await must<{ id: number }>(
      post(
        '/api/contract/template/store',
        {
          name: '上传PDF模板',
          kind: 2,
          pdf_file_id: ok.id,
          fields: [{ key: 'customer_name', label: '客户名称', page: 1, x: 100, y: 120 }],
          sign_areas: [
            { party: 1, page: 1, x: 80, y: 600 },
            { party: 2, page: 1, x: 350, y: 620 },
          ],
        },
        'admin',
      ),
    );
    const { orderId } = await orderOf('PDF模板客户', 1_000_000);
    const { id } = await mustCreate(orderId, { template_id: tpl.id });
    expect((await get(`/api/contract/pdf?id=${id}`, 'lisi')).rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a field placed on an uploaded PDF lies inside the page: a box ending at each edge is kept, 0.1 pt beyond is refused', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const a4 = await PDFDocument.create();
    a4.addPage([595.28, 841.89]);
    const pdf = await must<{ id: number }>(
      multipart('/api/uploadPdf', Buffer.from(await a4.save()), { scene: 'contract' }, as('admin')),
    );
    const f = { key: 'customer_name', label: '客户名称', page: 1 };
    const tpl = (fields: object[], name = '边界模板') => ({ name, kind: 2, pdf_file_id: pdf.id, fields });
    // the top-left corner, and a box whose right and bottom edges are the page's
    const { id } = await must<{ id: number }>(
      post(
        '/api/contract/template/store',
        tpl([
          { ...f, x: 0, y: 0, width: 200, height: 18 },
          { ...f, x: 395.28, y: 823.89, width: 200, height: 18 },
        ]),
        'admin',
      ),
    );
    const update = async (field: object) =>
      (await post('/api/contract/template/update', { ...tpl([field]), id }, 'admin')).json();
    expect(await update({ ...f, x: 395.38, y: 0, width: 200, height: 18 })).toMatchObject({
      code: 100001,
      msg: '字段“客户名称”超出页面右边缘，请调整X或宽度',
    });
    expect(await update({ ...f, x: 0, y: 823.99, width: 200, height: 18 })).toMatchObject({
      code: 100001,
      msg: '字段“客户名称”超出页面下边缘，请调整Y或高度',
    });
    // without a height the first line must fit: its font size
    expect(await update({ ...f, x: 0, y: 830, font_size: 12 })).toMatchObject({
      code: 100001,
      msg: expect.stringMatching(/下边缘/),
    });
    expect(await update({ ...f, x: 0, y: 829.89, font_size: 12 })).toMatchObject({ code: 0 });
    expect((await update({ ...f, x: -0.1, y: 0 })).code).toBe(100001);
    // store refuses the same; the template keeps its last good fields
    expect(
      await codeOf(post('/api/contract/template/store', tpl([{ ...f, x: 500, y: 0, width: 100 }], '边界模板二'), 'admin')),
    ).toBe(100001);
    const saved = (await must<{ list: { id: number; fields: object[] }[] }>(get('/api/contract/template?is_all=1', 'admin')))
      .list;
    expect(saved.find((x) => x.id === id)?.fields).toEqual([{ ...f, x: 0, y: 829.89, font_size: 12 }]);
  });

  it('batch download streams the chosen PDFs into one zip (a durable job)', async () => {
    const { orderId } = await orderOf('批量下载客户', 1_000_000);
    const made = [await mustCreate(orderId), await mustCreate(orderId)];
    const { jobId } = await must<{ jobId: string }>(post('/api/contract/batchDownload', { ids: made.map((m) => m.id) }, 'lisi'));
    let job: { status: string; fileUrl: string; processed: number; total: number } = {
      status: 'running',
      fileUrl: '',
      processed: 0,
      total: 0,
    };
    for (let i = 0; i < 120 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      job = await must(get(`/api/frontend/customer/job?jobId=${jobId}`, 'lisi'));
    }
    expect(job).toMatchObject({ status: 'done', total: 2 });
    const zip = (await get(job.fileUrl, 'lisi')).rawPayload;
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    for (const m of made) expect(zip.includes(Buffer.from(m.contract_no))).toBe(true);
    // another company's ids: nothing to download
    expect(await codeOf(post('/api/contract/batchDownload', { ids: made.map((m) => m.id) }, 'other_admin'))).toBe(118033);
  });

  it('no answer ever carries the company key', async () => {
    const { id } = await signedContract('密钥客户');
    await must(post('/api/contract/placeOnFile', { id }, 'lisi'));
    const [row] = await queryRows<{ encrypted_key: string }>(
      t.database.db,
      sql`select encrypted_key from contract_accounts where encrypted_key is not null limit 1`,
    );
    expect(row.encrypted_key.length).toBeGreaterThan(20);
    for (const url of [
      '/api/contract/info',
      `/api/contract/detail?id=${id}`,
      '/api/contract/list',
      '/api/contract/account/log',
    ]) {
      const body = (await get(url, 'admin')).body;
      expect(body).not.toContain(row.encrypted_key.slice(0, 40));
      expect(body).not.toContain('PRIVATE KEY');
    }
    const pdf = (await get(`/api/contract/pdf?id=${id}&kind=archived`, 'admin')).rawPayload;
    expect(pdf.includes(Buffer.from('PRIVATE KEY'))).toBe(false);
  });

  it("the list finds a contract by a part of its customer's name, and nothing for another name", async () => {
    const name = `名称筛选${Date.now() % 100000}客户`;
    const { orderId } = await orderOf(name, 1_000_000);
    const { id } = await mustCreate(orderId);
    const byName = async (part: string) =>
      (
        await must<{ list: { id: number }[] }>(get(`/api/contract/list?customer_name=${encodeURIComponent(part)}`, 'lisi'))
      ).list.map((c) => c.id);
    expect(await byName(name.slice(2, 9))).toEqual([id]);
    expect(await byName(`${name}不存在`)).toEqual([]);
    // % and _ are taken as themselves, not as patterns
    expect(await byName('%')).toEqual([]);
  });

  it('a changed audit entry breaks the chain', async () => {
    const { orderId } = await orderOf('审计客户', 1_000_000);
    const { id } = await mustCreate(orderId);
    await send(id);
    expect((await detail(id)).audit_ok).toBe(1);
    await t.database.db.execute(sql`update contract_events set detail = 'changed' where contract_id = ${id} and seq = 1`);
    expect((await detail(id)).audit_ok).toBe(0);
  });
});
