import { APPROVAL_SOCKET_MSG_TYPE, type ApprovalTemplate, type JobInfo, type Product } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDeals } from '../../db/schema';
import { staffChannel } from '../../lib/pubsub';
import { multipart, setStrategy } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let product: Product;
let flow: ApprovalTemplate;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
  flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  for (const name of ['张三', '王五', '李四']) ids[name] = await staffIdOf(t, as('admin'), name);
});
afterAll(async () => t.close());

const upload = async (user: string, name: string, data: Buffer, type: string) => {
  const { payload, contentType } = multipart({ name, data, type });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/frontend/upload/file',
    payload,
    headers: { 'content-type': contentType, authorization: as(user) },
  });
  return res.json().data.id as number;
};
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('effects of an approval', () => {
  it('pending orders exempt the customer from recycling; approval records the deal; workbench figures move', async () => {
    const c = await customerOf(t, as('lisi'), '成交效果客户');
    const wb = async (u: string) => (await t.get('/api/frontend/workbench/summary', as(u))).json().data.orders;
    const before = await wb('lisi');
    const todoBefore = (await wb('zhangsan')).pendingApprovals;
    const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 2_000_000, num: 2 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.张三] }), as('lisi'));
    const deal = async () => (await t.database.db.select().from(customerDeals).where(eq(customerDeals.customerId, c)))[0];
    expect((await deal()).pendingOrders).toBe(1);
    expect((await deal()).lastDealAt).toBeNull();
    const mid = await wb('lisi');
    expect(mid.todayOrders).toBe(before.todayOrders + 1);
    expect(mid.todayAmount).toBe(before.todayAmount + 4_000_000);
    expect(mid.monthAmount).toBe(before.monthAmount + 4_000_000);
    expect((await wb('zhangsan')).pendingApprovals).toBe(todoBefore + 1);
    await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'));
    expect(await deal()).toMatchObject({ pendingOrders: 0 });
    expect((await deal()).lastDealAt).not.toBeNull();
    expect((await wb('zhangsan')).pendingApprovals).toBe(todoBefore);
  });

  it('tells the next approver and the submitter over the call socket (msg_type 20)', async () => {
    const seen: { staff: string; frame: { msg_type: number; msg: string; data: { kind: string; docId: number } } }[] = [];
    const bus = t.app.calls.bus;
    const subs = await Promise.all(
      (['张三', '李四', '系统管理员'] as const).map(async (name) => {
        const staffId = name === '系统管理员' ? await staffIdOf(t, as('admin'), name) : ids[name];
        return bus.subscribe(staffChannel(staffId), (m) => seen.push({ staff: name, frame: (m as { frame: never }).frame }));
      }),
    );
    const c = await customerOf(t, as('lisi'), '通知客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 2_000_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.张三] }), as('lisi'));
    await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'));
    for (const off of subs) off();
    const mine = seen.filter((s) => s.frame.data.docId === id);
    expect(mine.every((s) => s.frame.msg_type === APPROVAL_SOCKET_MSG_TYPE)).toBe(true);
    expect(mine.map((s) => [s.staff, s.frame.data.kind, s.frame.msg])).toEqual([
      ['张三', 'todo', '您有一条订单审批待处理'],
      ['系统管理员', 'cc', '订单审批抄送给您'],
      ['李四', 'result', '您提交的订单审批已通过'],
    ]);
  });
});

describe('order details', () => {
  it('images: the caller’s own png/jpg uploads only', async () => {
    const c = await customerOf(t, as('lisi'), '图片客户');
    const mine = await upload('lisi', '合同.png', PNG, 'image/png');
    const other = await upload('wangwu', '别人.png', PNG, 'image/png');
    const text = await upload('lisi', '说明.txt', Buffer.from('hello'), 'text/plain');
    const body = orderBody(c, [{ id: product.id, cost_price: 2_000_000 }]);
    expect((await t.post('/api/frontend/order/store', { ...body, images: [other] }, as('lisi'))).json().msg).toBe(
      '文件格式不正确',
    );
    expect((await t.post('/api/frontend/order/store', { ...body, images: [text] }, as('lisi'))).json().msg).toBe(
      '文件格式不正确',
    );
    const id = await store(t, as('lisi'), { ...body, images: [mine, mine] });
    const d = (await t.get(`/api/frontend/order/auditdetail?order_id=${id}`, as('lisi'))).json().data;
    expect(d.images).toHaveLength(1);
    expect(d.images[0].name).toBe('合同.png');
    expect(d.base.find((b: { key: string }) => b.key === '付款方式').value).toBe('微信');
  });

  it('the contact number follows customer-access masking', async () => {
    const c = await customerOf(t, as('lisi'), '打码客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 2_000_000 }]));
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    const masked = (await t.get(`/api/frontend/order/auditdetail?order_id=${id}`, as('lisi'))).json().data.customer.contact_phone;
    expect(masked).not.toBe('13912345678');
    expect(masked).toMatch(/\*/);
    await setStrategy(t, as('admin'), { phoneEncryp: 0 });
    expect((await t.get(`/api/frontend/order/auditdetail?order_id=${id}`, as('lisi'))).json().data.customer.contact_phone).toBe(
      '13912345678',
    );
  });

  it('the customer tab lists that customer’s orders to who may see the customer', async () => {
    const c = await customerOf(t, as('lisi'), '订单页签客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 2_000_000 }]));
    const tab = (await t.get(`/api/frontend/order/list?customer_id=${c}`, as('lisi'))).json().data;
    expect(tab).toMatchObject({
      count: 1,
      list: [{ id, customer_name: '订单页签客户', verify_status_name: '待提交', product_names: '智能质检模块' }],
    });
    expect((await t.get(`/api/frontend/order/list?customer_id=${c}`, as('wangwu'))).json().msg).toBe('客户不存在或您无权查看');
    const filtered = (await t.get(`/api/frontend/order/list?customer_id=${c}&verify_status=1`, as('lisi'))).json().data;
    expect(filtered.count).toBe(0);
    const byAmount = (
      await t.get(`/api/frontend/order/list?customer_id=${c}&amount_min=2000000&amount_max=2000000`, as('lisi'))
    ).json().data;
    expect(byAmount.count).toBe(1);
    // keyword: the customer's name (bigram index) or a product name; one character still matches
    const kw = async (k: string) =>
      (
        (await t.get(`/api/frontend/order/list?limit=200&keyword=${encodeURIComponent(k)}`, as('lisi'))).json().data.list as {
          id: number;
        }[]
      ).map((r) => r.id);
    expect(await kw('订单页签')).toEqual([id]);
    expect(await kw('质检模块')).toContain(id);
    expect(await kw('签')).toContain(id);
    expect(await kw('没有这个')).toEqual([]);
    expect(await kw('50%_')).toEqual([]);
  });

  it('exports the filtered list as .xlsx (durable job)', async () => {
    const c = await customerOf(t, as('zhangsan'), '导出订单客户');
    await store(t, as('zhangsan'), orderBody(c, [{ id: product.id, cost_price: 1_234_500 }]));
    expect((await t.post('/api/frontend/order/export', {}, as('lisi'))).statusCode).toBe(403);
    const res = await t.post('/api/frontend/order/export', { keyword: '导出订单' }, as('zhangsan'));
    expect(res.json().code).toBe(0);
    let job: JobInfo | undefined;
    for (let i = 0; i < 200; i++) {
      job = (await t.get(`/api/frontend/customer/job?jobId=${res.json().data.jobId}`, as('zhangsan'))).json().data;
      if (job?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job?.status).toBe('done');
    const file = await t.get(job?.fileUrl ?? '', as('zhangsan'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(expect.arrayContaining(['导出订单客户', '智能质检模块', 1234.5, '张三', '待提交']));
  });
});
