import { PRODUCT_IMPORT_HEADERS, type Product, type ProductCategory } from '@crm/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { products } from '../../test/orders';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => t.close());

const tree = async (token: string) =>
  (await t.get('/api/frontend/product/categorytree', token)).json().data.list as ProductCategory[];

describe('catalogue', () => {
  it('the demo catalogue: categories, products, two with 版本 × 年限 variants', async () => {
    const cats = await tree(as('lisi'));
    expect(cats.map((c) => c.name)).toEqual(['软件服务', '通信资源', '硬件设备', '实施服务']);
    expect(cats[1].children.map((c) => c.name)).toEqual(['号码']);
    const all = await products(t, as('lisi'));
    expect(all.length).toBeGreaterThanOrEqual(8);
    const withVariants = all.filter((p) => p.detailed.length === 4);
    expect(withVariants.map((p) => p.name).sort()).toEqual(['AI外呼机器人', '云呼CRM系统']);
    expect(withVariants[0].specifications.map((s) => s.name)).toEqual(['版本', '年限']);
    // a category includes its sub-categories; status filter; keyword on name or code
    const telecom = cats[1].id;
    expect((await products(t, as('lisi'), `pcid=${telecom}`)).length).toBe(3);
    expect((await products(t, as('lisi'), 'status=1&limit=50')).every((p) => p.status === 1)).toBe(true);
    expect((await products(t, as('lisi'), 'keyword=HW-')).map((p) => p.code).sort()).toEqual(['HW-H01', 'HW-T31P']);
    expect((await products(t, as('lisi'), 'limit=10')).length).toBe(10);
    const attr = (await t.get(`/api/frontend/product/attrinfo?product_ids=${withVariants[0].id}`, as('lisi'))).json().data;
    expect(attr.attrs.map((a: { name: string }) => a.name)).toContain('签约日期');
    expect(attr.products[0].detailed).toHaveLength(4);
  });

  it('admin only writes; variants must be the combinations of the specifications', async () => {
    const base = { name: '测试产品', code: 'T-001', price: 10_000, cost: 1_000, minimum_price: 8_000 };
    expect((await t.post('/api/frontend/product/create', base, as('lisi'))).statusCode).toBe(403);
    expect((await t.post('/api/frontend/product/create', { ...base, minimum_price: 20_000 }, as('admin'))).json().msg).toBe(
      '最低价不能高于售价',
    );
    expect((await t.post('/api/frontend/product/create', { ...base, code: 'CRM-001' }, as('admin'))).json().msg).toBe(
      '产品编号已存在',
    );
    expect((await t.post('/api/frontend/product/create', { ...base, name: '' }, as('admin'))).json().msg).toBe('请输入产品名称');
    expect((await t.post('/api/frontend/product/create', { ...base, price: 1_000_000_000 }, as('admin'))).json().msg).toBe(
      '售价不能超过999999999',
    );
    const specs = [{ name: '版本', values: ['基础版', '专业版'] }];
    const bad = await t.post(
      '/api/frontend/product/create',
      { ...base, specifications: specs, detailed: [{ values: ['旗舰版'], price: 1, cost: 1, minimum_price: 1 }] },
      as('admin'),
    );
    expect(bad.json().msg).toBe('规格组合填写有误，请为每个组合选择各规格的值');
    const ok = await t.post(
      '/api/frontend/product/create',
      {
        ...base,
        specifications: specs,
        detailed: specs[0].values.map((v, i) => ({ values: [v], price: 10_000 * (i + 1), cost: 1, minimum_price: 1 })),
      },
      as('admin'),
    );
    expect(ok.json()).toMatchObject({ code: 0, msg: '添加成功' });
    const id = ok.json().data.id as number;
    const edited = await t.post('/api/frontend/product/edit', { id, ...base, name: '测试产品2', status: 0 }, as('admin'));
    expect(edited.json().code).toBe(0);
    const p = (await products(t, as('admin'), 'keyword=测试产品2'))[0] as Product;
    expect(p).toMatchObject({ status: 0, status_name: '下架', detailed: [] });
    expect((await t.post('/api/frontend/product/del', { ids: [id] }, as('admin'))).json().code).toBe(0);
    expect((await t.post('/api/frontend/product/del', { ids: [id] }, as('admin'))).json().msg).toBe('产品不存在或已被删除');
  });

  it('category rules', async () => {
    const top = (await t.post('/api/frontend/product/categorycreate', { name: '一级' }, as('admin'))).json().data.id as number;
    const mid = (await t.post('/api/frontend/product/categorycreate', { pid: top, name: '二级' }, as('admin'))).json().data
      .id as number;
    const low = (await t.post('/api/frontend/product/categorycreate', { pid: mid, name: '三级' }, as('admin'))).json().data
      .id as number;
    expect((await t.post('/api/frontend/product/categorycreate', { pid: low, name: '四级' }, as('admin'))).json().msg).toBe(
      '上级分类不存在或层级过深',
    );
    expect((await t.post('/api/frontend/product/categorycreate', { pid: top, name: '二级' }, as('admin'))).json().msg).toBe(
      '同级分类下已存在相同名称',
    );
    expect(
      (await t.post('/api/frontend/product/categoryedit', { id: top, pid: low, name: '一级' }, as('admin'))).json().msg,
    ).toBe('上级分类不存在或层级过深');
    expect((await t.post('/api/frontend/product/categorydel', { id: top }, as('admin'))).json().msg).toBe(
      '该分类下还有子分类，请先删除子分类',
    );
    const software = (await tree(as('admin'))).find((c) => c.name === '软件服务')?.id;
    expect((await t.post('/api/frontend/product/categorydel', { id: software }, as('admin'))).json().msg).toBe(
      '该分类下还有产品，请先调整产品分类',
    );
    expect((await t.post('/api/frontend/product/categorydel', { id: low }, as('admin'))).json().code).toBe(0);
    expect(await tree(as('other_admin'))).toEqual([]);
  });

  it('imports an .xlsx (bounded, ≤ 5,000 rows) and reports refused rows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('产品');
    ws.addRow([...PRODUCT_IMPORT_HEADERS]);
    ws.addRow(['导入产品一', 'IMP-1', '导入分类', '100.5', '20', '90', '上架', '备注']);
    ws.addRow(['导入产品二', 'IMP-1', '', '100', '20', '90', '', '']);
    ws.addRow(['导入产品三', '', '', 'abc', '', '', '', '']);
    ws.addRow(['', 'IMP-4', '', '1', '', '', '', '']);
    const { payload, contentType } = multipart({
      name: '产品.xlsx',
      data: Buffer.from(await wb.xlsx.writeBuffer()),
      type: 'application/octet-stream',
    });
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/frontend/upload/file',
      payload,
      headers: { 'content-type': contentType, authorization: as('admin') },
    });
    const res = await t.post('/api/frontend/product/import', { fileId: up.json().data.id }, as('admin'));
    expect(res.json().data).toEqual({
      added: 1,
      failed: [
        { row: 3, reason: '产品编号已存在' },
        { row: 4, reason: '价格须为0到999999.999之间的数字' },
        { row: 5, reason: '请输入产品名称' },
      ],
    });
    const p = (await products(t, as('admin'), 'keyword=IMP-1'))[0];
    expect(p).toMatchObject({ name: '导入产品一', price: 100_500, category_name: '导入分类' });
  });
});
