import type { ApprovalTemplate } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, today } from '../../test/orders';

/** Issue 23 (SPEC §4 control kinds of order forms): 11 address cascader and 24 cascader in approval forms. */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];
let zhangsan = 0;

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi']) tokens[u] = await t.login(u);
  zhangsan = await staffIdOf(t, as('admin'), '张三');
});
afterAll(async () => t.close());

describe('address (11) and cascader (24) controls', () => {
  it('a template holds them; a cascader needs its option paths, kept with their levels trimmed', async () => {
    const noOptions = await t.post(
      '/api/v1/merchantapp/templateadd',
      { name: '级联无选项', nodes: [{ type: 0, staffIds: [zhangsan] }], controls: [{ name: '区域', dmType: 24 }] },
      as('admin'),
    );
    expect(noOptions.statusCode).toBe(400);
    expect(noOptions.json().msg).toContain('请为级联选择添加选项');
  });

  it('an instance takes a region path and one of the option paths, and refuses anything else', async () => {
    const created = await t.post(
      '/api/v1/merchantapp/templateadd',
      {
        name: `地区级联流程${Date.now()}`,
        nodes: [{ type: 0, staffIds: [zhangsan] }],
        controls: [
          { name: '交付地区', dmType: 11, dmMust: 1 },
          { name: '销售区域', dmType: 24, dmMust: 1, dmValue: ['华东 / 上海', '华东/杭州', '华南/广州'] },
        ],
      },
      as('admin'),
    );
    expect(created.json().code, created.body).toBe(0);
    const tpl = (await t.get(`/api/v1/merchantapp/templateinfo?id=${created.json().data.coMatid}`, as('lisi'))).json()
      .data as ApprovalTemplate;
    const [address, cascader] = tpl.templateControls.filter((c) => c.dmType === 11 || c.dmType === 24);
    expect([address.dmType, cascader.dmType]).toEqual([11, 24]);
    expect(cascader.dmValue).toEqual(['华东/上海', '华东/杭州', '华南/广州']);

    const productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
    const customer = await customerOf(t, as('lisi'), '地区级联客户');
    const submit = async (addressValue: string[], cascaderValue: string[]) => {
      const orderId = await store(t, as('lisi'), orderBody(customer, [{ id: productId, cost_price: 1_000_000 }]));
      const body = submitBody(tpl, orderId);
      body.templateControls.push(
        { coTacid: address.coTacid, dmValue: addressValue },
        { coTacid: cascader.coTacid, dmValue: cascaderValue },
      );
      return (await t.post('/api/v1/staff/templatecreate', body, as('lisi'))).json();
    };
    expect(await submit([], ['华东', '上海'])).toMatchObject({ msg: '请选择交付地区' });
    expect(await submit(['浙江省', '杭州市'], [])).toMatchObject({ msg: '请选择销售区域' });
    expect(await submit(['杭州市'], ['华东', '上海'])).toMatchObject({ msg: '请选择交付地区' });
    expect(await submit(['浙江省', '杭州市', '西湖区'], ['华东', '广州'])).toMatchObject({ msg: '请选择销售区域' });
    expect(await submit(['浙江省', '杭州市', '西湖区'], ['华东', '上海'])).toMatchObject({ code: 0 });
  });

  it('the deal form takes 30 characters in a text input and 20 in integer, number and phone inputs (SPEC §5)', async () => {
    const created = await t.post(
      '/api/v1/merchantapp/templateadd',
      {
        name: `长度流程${Date.now()}`,
        nodes: [{ type: 0, staffIds: [zhangsan] }],
        controls: [
          { name: '折扣原因', dmType: 0 },
          { name: '折扣点数', dmType: 2 },
          { name: '对方电话', dmType: 6 },
        ],
      },
      as('admin'),
    );
    const tpl = (await t.get(`/api/v1/merchantapp/templateinfo?id=${created.json().data.coMatid}`, as('lisi'))).json()
      .data as ApprovalTemplate;
    const byName = Object.fromEntries(tpl.templateControls.map((c) => [c.name, c.coTacid]));
    const productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
    const customer = await customerOf(t, as('lisi'), '长度客户');
    const submit = async (values: Record<string, string>) => {
      const orderId = await store(t, as('lisi'), orderBody(customer, [{ id: productId, cost_price: 1_000_000 }]));
      const body = submitBody(tpl, orderId);
      for (const [name, v] of Object.entries(values)) body.templateControls.push({ coTacid: byName[name], dmValue: [v] });
      return (await t.post('/api/v1/staff/templatecreate', body, as('lisi'))).json();
    };
    expect(await submit({ 折扣原因: 'x'.repeat(31) })).toMatchObject({ msg: '折扣原因最多30个字符' });
    expect(await submit({ 折扣点数: '1'.repeat(21) })).toMatchObject({ msg: '折扣点数最多20个字符' });
    expect(await submit({ 对方电话: '1'.repeat(21) })).toMatchObject({ msg: '对方电话最多20个字符' });
    expect(await submit({ 折扣原因: 'x'.repeat(30), 折扣点数: '1'.repeat(20), 对方电话: '1'.repeat(20) })).toMatchObject({
      code: 0,
    });
    // the order's own text attribute (合同编号) too, by its contract
    const long = await t.post(
      '/api/frontend/order/store',
      {
        ...orderBody(customer, [{ id: productId, cost_price: 1_000_000 }]),
        attr: { '1': 'C'.repeat(31), '2': today(), '5': '微信' },
      },
      as('lisi'),
    );
    expect(long.json()).toMatchObject({ code: 100001, msg: '内容最多30个字符' });
  });
});
