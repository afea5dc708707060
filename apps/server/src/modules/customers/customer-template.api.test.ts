import type { TemplateControl } from '@crm/contracts';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, labels, templateControls } from '../../db/schema';
import {
  controlEditBody,
  createCustomer,
  demoValues,
  fetchTemplate,
  info,
  mustCreate,
  type Template,
  textOf,
  valuesOf,
} from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

const DEMO_CONTROLS = [
  '联系人',
  '手机',
  '座机',
  '微信',
  '地区',
  '行业',
  '客户来源',
  '客户级别',
  '意向产品',
  '预计成交金额',
  '备注',
];
const DEMO_SEARCH = ['联系人', '手机', '座机', '地区', '行业', '客户来源', '客户级别', '意向产品', '预计成交金额'];

let t: TestApp;
let admin: string;
let lisi: string;
let other: string;

const design = () => fetchTemplate(t, admin, '/api/frontend/customer/templatedesign');
const tplInfo = () => fetchTemplate(t, admin);
const names = (list: TemplateControl[]) => list.map((c) => c.name);
const createControl = (body: Record<string, unknown>, token = admin) =>
  t.post('/api/frontend/customer/templatecontrolcreate', body, token);
const mustCreateControl = async (body: Record<string, unknown>) => {
  const res = await createControl(body);
  expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 0, msg: '添加成功' });
  return res.json().data.cbTacid as number;
};
const editControl = (c: TemplateControl, overrides: Record<string, unknown> = {}, token = admin) =>
  t.post('/api/frontend/customer/templatecontroledit', controlEditBody(c, overrides), token);
const delControl = (id: number, token = admin) => t.post('/api/frontend/customer/templatecontroldel', { id }, token);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  lisi = await t.login('lisi');
  other = await t.login('other_admin');
});
afterAll(async () => {
  await t?.close();
});

describe('templateinfo', () => {
  it('returns the demo company template with its controls in order', async () => {
    const res = await t.get('/api/frontend/customer/templateinfo', lisi);
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { isMustName: number; cmAtid: number; templateControls: TemplateControl[] };
    expect(data.isMustName).toBe(0);
    expect(data.cmAtid).toBeGreaterThan(0);
    expect(names(data.templateControls)).toEqual(DEMO_CONTROLS);
    const by = Object.fromEntries(data.templateControls.map((c) => [c.name, c]));
    expect(by.联系人).toMatchObject({
      dmType: 0,
      dmMust: 1,
      isJudge: 0,
      isFollowShow: 1,
      dmDesc: '请输入联系人姓名',
      dmValue: '',
    });
    expect(by.手机).toMatchObject({ dmType: 6, dmMust: 1, isJudge: 1, cmAtid: data.cmAtid });
    expect(by.手机.coTacid).toBe(by.手机.cbTacid);
    expect(by.座机).toMatchObject({ dmType: 6, dmMust: 0, isJudge: 0 });
    expect(by.地区).toMatchObject({ dmType: 11, ctrlList: [] });
    expect(by.行业).toMatchObject({ dmType: 7 });
    expect(by.行业.dmValue).toEqual(['教育培训', '互联网', '制造业', '金融保险', '房产家居', '医疗健康', '零售电商', '其他']);
    expect(by.客户级别.dmValue).toEqual(['A（重点客户）', 'B（意向客户）', 'C（一般客户）', 'D（无意向）']);
    expect(by.意向产品).toMatchObject({ dmType: 8, dmValue: ['云外呼', 'AI外呼', '电销CRM', '号码认证'] });
    expect(by.预计成交金额).toMatchObject({ dmType: 3, dmDesc: '单位：元' });
    expect(by.备注).toMatchObject({ dmType: 1, dmMust: 0 });
    // The admin reads the same template.
    expect((await t.get('/api/frontend/customer/templateinfo', admin)).json().data).toEqual(data);
  });

  it('isSearch=1 keeps only the controls usable as list filters', async () => {
    const res = await t.get('/api/frontend/customer/templateinfo?isSearch=1', lisi);
    expect(names(res.json().data.templateControls)).toEqual(DEMO_SEARCH);
    expect(names((await t.get('/api/frontend/customer/templateinfo?isSearch=0', lisi)).json().data.templateControls)).toEqual(
      DEMO_CONTROLS,
    );
    expect((await t.get('/api/frontend/customer/templateinfo?isSearch=2', lisi)).json().code).toBe(100001);
  });

  it('another company has its own, empty template', async () => {
    const data = (await t.get('/api/frontend/customer/templateinfo', other)).json().data;
    expect(data.templateControls).toEqual([]);
    expect(data.cmAtid).not.toBe((await tplInfo()).cmAtid);
  });

  it('needs a token', async () => {
    const res = await t.get('/api/frontend/customer/templateinfo');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(100002);
  });
});

describe('template design permissions', () => {
  it('a 销售 (no 模板设置 menu) cannot open or change the design', async () => {
    const tpl = await design();
    const calls = [
      await t.get('/api/frontend/customer/templatedesign', lisi),
      await createControl({ name: '偷偷加', dmType: 0 }, lisi),
      await editControl(tpl.byName.微信, { name: '改名' }, lisi),
      await delControl(tpl.byName.微信.cbTacid, lisi),
      await t.post('/api/frontend/customer/templatesort', { ids: [tpl.byName.微信.cbTacid] }, lisi),
      await t.post('/api/frontend/customer/templateset', { isMustName: 1 }, lisi),
    ];
    for (const res of calls) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 100003, msg: '您没有访问该功能的权限，请联系管理员' });
    }
    expect(names((await design()).controls)).toEqual(DEMO_CONTROLS);
    expect((await design()).isMustName).toBe(0);
  });

  it("another company's admin cannot touch the demo company's controls", async () => {
    const tpl = await design();
    const edit = await editControl(tpl.byName.微信, { name: '改名' }, other);
    expect(edit.statusCode).toBe(404);
    expect(edit.json()).toMatchObject({ code: 100005, msg: '控件不存在' });
    expect((await delControl(tpl.byName.微信.cbTacid, other)).json()).toMatchObject({ code: 100005, msg: '控件不存在' });
    // Sorting someone else's ids changes nothing.
    expect((await t.post('/api/frontend/customer/templatesort', { ids: [tpl.byName.备注.cbTacid] }, other)).json().code).toBe(0);
    expect((await design()).byName.备注.sortNum).toBe(tpl.byName.备注.sortNum);
    expect((await design()).byName.微信.name).toBe('微信');
  });
});

describe('template control create', () => {
  const created: Record<string, number> = {};

  it('creates a control of every kind and shows it in the design', async () => {
    const tree = [
      { value: 'a', label: '华东', children: [{ value: 'a1', label: '上海' }] },
      { value: 'b', label: '华南', children: [{ value: 'b1', label: '深圳' }] },
    ];
    const kinds: [string, Record<string, unknown>][] = [
      ['单行', { dmType: 0, dmDesc: '单行提示', isSearch: 1, isJudge: 1 }],
      ['多行', { dmType: 1 }],
      ['员工数', { dmType: 2, isSearch: 1 }],
      ['注册资本', { dmType: 3 }],
      ['成立日期', { dmType: 4, isSearch: 1 }],
      ['拜访时间', { dmType: 5 }],
      ['备用电话', { dmType: 6, isSearch: 1 }],
      ['规模', { dmType: 7, options: ['小', '中', '大'], isSearch: 1 }],
      ['渠道', { dmType: 8, options: ['线上', '线下'] }],
      ['办公地址', { dmType: 11 }],
      ['附件', { dmType: 12, isSearch: 1 }],
      ['说明', { dmType: 14, staticText: '请如实填写', dmMust: 1 }],
      ['区域', { dmType: 15, tree, isSearch: 1 }],
      ['付款方式', { dmType: 18, options: ['月结', '预付'] }],
      ['客户标签', { dmType: 19 }],
      ['关联企业', { dmType: 20, isSearch: 1 }],
      ['产品线', { dmType: 24, tree }],
      ['联系地址', { dmType: 99, isSearch: 1 }],
    ];
    // The designer sends a sortNum after the existing controls.
    for (const [i, [name, body]] of kinds.entries())
      created[name] = await mustCreateControl({ name, sortNum: 200 + i * 10, ...body });
    created.门牌号 = await mustCreateControl({ name: '门牌号', dmType: 0, pid: created.联系地址, isSearch: 1, sortNum: 10 });

    const tpl = await design();
    expect(names(tpl.controls.filter((c) => c.pid === 0)).slice(DEMO_CONTROLS.length)).toEqual(kinds.map(([n]) => n));
    const by = tpl.byName;
    expect(by.单行).toMatchObject({
      dmType: 0,
      dmDesc: '单行提示',
      isSearch: 1,
      isJudge: 1,
      dmValue: '',
      actionState: 0,
      pid: 0,
    });
    expect(by.规模).toMatchObject({ dmType: 7, dmValue: ['小', '中', '大'] });
    expect(by.付款方式).toMatchObject({ dmType: 18, dmValue: ['月结', '预付'] });
    expect(by.说明).toMatchObject({ dmType: 14, dmValue: '请如实填写', dmMust: 0 });
    expect(by.区域).toMatchObject({ dmType: 15, ctrlList: tree });
    expect(by.产品线).toMatchObject({ dmType: 24, ctrlList: tree, isSearch: 0 });
    // Kinds that cannot be a filter never get isSearch.
    expect(by.附件.isSearch).toBe(0);
    expect(by.关联企业.isSearch).toBe(0);
    expect(by.联系地址.isSearch).toBe(0);
    // Options of a non-option kind are dropped.
    const odd = await mustCreateControl({ name: '奇怪', dmType: 0, options: ['x'], tree });
    expect((await design()).byName.奇怪).toMatchObject({ dmValue: '', ctrlList: [] });
    expect((await delControl(odd)).json()).toMatchObject({ code: 0, msg: '删除成功' });

    // The group holds its child.
    const group = (await t.get('/api/frontend/customer/templatedesign', admin))
      .json()
      .data.templateControls.find((c: TemplateControl) => c.name === '联系地址');
    expect(names(group.children)).toEqual(['门牌号']);
    expect(group.children[0]).toMatchObject({ pid: created.联系地址, dmType: 0 });

    // templateinfo?isSearch=1 now has the searchable new ones (and the group, for its searchable child).
    const search = (await t.get('/api/frontend/customer/templateinfo?isSearch=1', admin)).json().data.templateControls;
    expect(names(search)).toEqual([...DEMO_SEARCH, '单行', '员工数', '成立日期', '备用电话', '规模', '区域', '联系地址']);
  });

  it.each([
    [{ name: '', dmType: 0 }, '请输入控件名称'],
    [{ name: '   ', dmType: 0 }, '请输入控件名称'],
    [{ name: '一二三四五六七八九十一二三四五六七八九十一', dmType: 0 }, '控件名称最多20个字符'],
    [{ name: '类型', dmType: 9 }, '不支持的控件类型'],
    [{ name: '下拉', dmType: 7 }, '请至少添加一个选项'],
    [{ name: '多选', dmType: 8, options: [] }, '请至少添加一个选项'],
    [{ name: '文字下拉', dmType: 18 }, '请至少添加一个选项'],
    [{ name: '下拉', dmType: 7, options: ['甲', '甲'] }, '选项不能重复'],
    [{ name: '下拉', dmType: 7, options: ['甲', ' '] }, '选项不能为空'],
    [{ name: '级联', dmType: 15 }, '请至少添加一个级联选项'],
    [{ name: '级联', dmType: 24, tree: [] }, '请至少添加一个级联选项'],
    [{ name: '级联', dmType: 24, tree: [{ value: 'x', label: ' ' }] }, '选项名称不能为空'],
    [{ name: '分组', dmType: 99, pid: 1 }, '分组控件不能放在分组内'],
    [{ name: '提示', dmType: 0, dmDesc: 'x'.repeat(51) }, '提示文字最多50个字符'],
  ])('refuses %j with “%s”', async (body, msg) => {
    const before = (await design()).controls.length;
    const res = await createControl(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 100001, msg });
    expect((await design()).controls.length).toBe(before);
  });

  it('isJudge (the duplicate check) is only for text, number and phone kinds', async () => {
    for (const dmType of [1, 4, 5, 7, 8, 11, 12, 15, 19, 20]) {
      const res = await createControl({
        name: `查重${dmType}`,
        dmType,
        options: ['a'],
        tree: [{ value: 'a', label: 'A' }],
        isJudge: 1,
      });
      expect(res.json(), `dmType ${dmType}`).toMatchObject({ code: 100001, msg: '只有文本、数字和电话控件可以设置查重' });
    }
    for (const dmType of [0, 2, 3, 6]) {
      const id = await mustCreateControl({ name: `查重${dmType}`, dmType, isJudge: 1 });
      expect((await design()).byName[`查重${dmType}`].isJudge).toBe(1);
      expect((await delControl(id)).json().code).toBe(0);
    }
  });

  it('a child must go into an existing group of the company', async () => {
    const tpl = await design();
    const notGroup = await createControl({ name: '子控件', dmType: 0, pid: tpl.byName.微信.cbTacid });
    expect(notGroup.statusCode).toBe(404);
    expect(notGroup.json()).toMatchObject({ code: 100005, msg: '所属分组不存在' });
    expect((await createControl({ name: '子控件', dmType: 0, pid: 999999 })).json()).toMatchObject({
      code: 100005,
      msg: '所属分组不存在',
    });
    // Another company cannot hang a control in the demo company's group.
    expect((await createControl({ name: '子控件', dmType: 0, pid: created.联系地址 }, other)).json().code).toBe(100005);
  });

  it('customer values of the new kinds are checked and shown', async () => {
    const tpl = await tplInfo();
    const [label] = await t.database.db
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.name, '高意向'), ne(labels.pid, 0)));
    const company = await mustCreate(t, lisi, tpl, '被关联的企业');
    const bad: [Record<string, string[] | string>, string][] = [
      [{ 单行: 'x'.repeat(51) }, '单行最多50个字符'],
      [{ 员工数: '1.5' }, '员工数必须是整数'],
      [{ 员工数: '1'.repeat(21) }, '员工数最多20位'],
      [{ 注册资本: '一百万' }, '注册资本必须是数字'],
      [{ 成立日期: '2025-02-30' }, '成立日期日期格式不正确'],
      [{ 成立日期: '2025/01/01' }, '成立日期日期格式不正确'],
      [{ 拜访时间: '2025-01-01' }, '拜访时间时间格式不正确'],
      [{ 备用电话: '12345678901' }, '备用电话“12345678901”不是有效的电话号码'],
      [{ 规模: '特大' }, '规模的选项“特大”不存在'],
      [{ 渠道: ['线上', '电话'] }, '渠道的选项“电话”不存在'],
      [{ 付款方式: '现金' }, '付款方式的选项“现金”不存在'],
      [{ 区域: ['a', 'b1'] }, '区域的选项无效'],
      [{ 产品线: ['z'] }, '产品线的选项无效'],
      [{ 客户标签: ['abc'] }, '客户标签的标签无效'],
      [{ 客户标签: ['999999'] }, '所选标签不存在或已禁用'],
      [{ 关联企业: 'abc' }, '请选择关联企业'],
      [{ 关联企业: '999999' }, '所选企业不存在'],
      [{ 附件: '999999' }, '数据不存在或已被删除'],
      [{ 门牌号: 'x'.repeat(51) }, '门牌号最多50个字符'],
    ];
    for (const [values, msg] of bad) {
      const res = await createCustomer(t, lisi, tpl, '新类型客户', demoValues(values));
      expect(res.json().msg, JSON.stringify(values)).toBe(msg);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
    // A tag group is not a tag.
    const [group] = await t.database.db
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.name, '客户意向'), eq(labels.pid, 0)));
    expect((await createCustomer(t, lisi, tpl, '新类型客户', demoValues({ 客户标签: [String(group.id)] }))).json()).toMatchObject(
      {
        code: 100005,
        msg: '所选标签不存在或已禁用',
      },
    );
    const id = await mustCreate(
      t,
      lisi,
      tpl,
      '新类型客户',
      demoValues({
        单行: ' 唯一值 ',
        员工数: '-12',
        注册资本: '100.5',
        成立日期: '2020-02-29',
        拜访时间: '2025-01-01 09:30',
        备用电话: '(0755)26681234',
        规模: '大',
        渠道: ['线上', '线下', '线上'],
        付款方式: '预付',
        区域: ['b', 'b1'],
        产品线: ['a'],
        客户标签: [String(label.id)],
        关联企业: String(company),
        门牌号: '8栋',
        说明: '不会保存',
      }),
    );
    const row = (await info(t, lisi, id)).json().data;
    expect(valuesOf(row, '单行')).toEqual(['唯一值']);
    expect(valuesOf(row, '员工数')).toEqual(['-12']);
    expect(valuesOf(row, '注册资本')).toEqual(['100.5']);
    expect(valuesOf(row, '成立日期')).toEqual(['2020-02-29']);
    expect(valuesOf(row, '拜访时间')).toEqual(['2025-01-01 09:30:00']);
    expect(valuesOf(row, '备用电话')).toEqual(['075526681234']);
    expect(valuesOf(row, '渠道')).toEqual(['线上', '线下']);
    expect(valuesOf(row, '区域')).toEqual(['b', 'b1']);
    expect(textOf(row, '区域')).toEqual(['华南', '深圳']);
    expect(textOf(row, '产品线')).toEqual(['华东']);
    expect(textOf(row, '客户标签')).toEqual(['高意向']);
    expect(textOf(row, '关联企业')).toEqual(['被关联的企业']);
    expect(valuesOf(row, '门牌号')).toEqual(['8栋']);
    expect(row.templateControls.find((c: { name: string }) => c.name === '说明')).toBeUndefined();

    // isJudge on a text control: the same value again is refused and names the owner.
    const dup = await createCustomer(t, admin, tpl, '另一个', demoValues({ 单行: '唯一值' }));
    expect(dup.json()).toMatchObject({ code: 106004, msg: '单行“唯一值”已存在，归属于李四（客户：新类型客户）' });
  });

  it('a required select, date or group child gives the SPEC messages', async () => {
    const tpl = await design();
    expect((await editControl(tpl.byName.客户级别, { dmMust: 1 })).json()).toMatchObject({ code: 0, msg: '保存成功' });
    const info1 = await tplInfo();
    expect(info1.byName.客户级别.dmMust).toBe(1);
    const noLevel = await createCustomer(t, lisi, info1, '缺级别', demoValues());
    expect(noLevel.statusCode).toBe(400);
    expect(noLevel.json()).toMatchObject({ code: 106006, msg: '请选择客户级别' });
    expect((await createCustomer(t, lisi, info1, '缺级别', demoValues({ 客户级别: [] }))).json().msg).toBe('请选择客户级别');
    expect((await createCustomer(t, lisi, info1, '缺级别', demoValues({ 客户级别: ['  '] }))).json().msg).toBe('请选择客户级别');
    await mustCreate(t, lisi, info1, '有级别', demoValues({ 客户级别: 'A（重点客户）' }));
    expect((await editControl(tpl.byName.客户级别, { dmMust: 0 })).json().code).toBe(0);

    for (const [name, msg] of [
      ['成立日期', '请选择日期'],
      ['拜访时间', '请选择日期'],
      ['意向产品', '请选择意向产品'],
      ['地区', '请选择地区'],
      ['区域', '请选择区域'],
      ['附件', '请上传附件'],
      ['关联企业', '请选择关联企业'],
      ['门牌号', '门牌号不能为空'],
      ['员工数', '员工数不能为空'],
    ]) {
      expect((await editControl(tpl.byName[name], { dmMust: 1 })).json().code).toBe(0);
      const res = await createCustomer(t, lisi, await tplInfo(), '缺值', demoValues());
      expect(res.json(), name).toMatchObject({ code: 106006, msg });
      expect((await editControl(tpl.byName[name], { dmMust: 0 })).json().code).toBe(0);
    }
    // The demo's own required controls.
    const now = await tplInfo();
    expect((await createCustomer(t, lisi, now, '缺联系人', { 手机: '13912000001' })).json()).toMatchObject({
      code: 106006,
      msg: '联系人不能为空',
    });
    expect((await createCustomer(t, lisi, now, '缺手机', { 联系人: '王先生' })).json()).toMatchObject({
      code: 106006,
      msg: '手机不能为空',
    });
  });
});

describe('template control edit, order, disable, delete', () => {
  it('templatesort reorders the controls', async () => {
    const tpl = await design();
    const top = tpl.controls.filter((c) => c.pid === 0);
    const moved = [tpl.byName.备注, tpl.byName.联系人, ...top.filter((c) => c.name !== '备注' && c.name !== '联系人')];
    const res = await t.post('/api/frontend/customer/templatesort', { ids: moved.map((c) => c.cbTacid) }, admin);
    expect(res.json()).toMatchObject({ code: 0, msg: '排序已保存' });
    const after = await tplInfo();
    expect(names(after.controls.filter((c) => c.pid === 0)).slice(0, 3)).toEqual(['备注', '联系人', '手机']);
    expect(after.byName.备注.sortNum).toBe(10);
    expect(after.byName.联系人.sortNum).toBe(20);
    expect((await t.post('/api/frontend/customer/templatesort', { ids: [] }, admin)).json().code).toBe(100001);
  });

  it('edits a control: name, options, placeholder', async () => {
    const tpl = await design();
    const res = await editControl(tpl.byName.客户来源, {
      name: '线索来源',
      options: ['电话营销', '网络推广', '老客户介绍', '展会', '自主开拓', '抖音'],
      dmDesc: '来源',
    });
    expect(res.json()).toMatchObject({ code: 0, msg: '保存成功' });
    const after = (await tplInfo()).byName.线索来源;
    expect(after).toMatchObject({ cbTacid: tpl.byName.客户来源.cbTacid, dmDesc: '来源' });
    expect(after.dmValue).toContain('抖音');
    // The same validation as create.
    expect((await editControl(after, { options: [] })).json()).toMatchObject({ code: 100001, msg: '请至少添加一个选项' });
    expect((await editControl(after, { isJudge: 1 })).json()).toMatchObject({
      code: 100001,
      msg: '只有文本、数字和电话控件可以设置查重',
    });
    expect((await editControl(after, { cbTacid: 999999 })).json()).toMatchObject({ code: 100005, msg: '控件不存在' });
    const group = tpl.byName.联系地址;
    expect((await editControl(tpl.byName.微信, { pid: tpl.byName.微信.cbTacid })).json()).toMatchObject({
      code: 100001,
      msg: '控件不能放在自己里面',
    });
    expect((await editControl(tpl.byName.微信, { pid: group.cbTacid })).json().code).toBe(0);
    expect((await design()).byName.微信.pid).toBe(group.cbTacid);
    expect((await editControl(tpl.byName.微信, { pid: 0 })).json().code).toBe(0);
    // A used control cannot change its kind, an unused one can.
    const used = await editControl(tpl.byName.微信, { dmType: 1 });
    expect(used.statusCode).toBe(400);
    expect(used.json()).toMatchObject({ code: 106001, msg: '该控件已有客户数据，不能修改控件类型' });
    expect((await editControl(tpl.byName.多行, { dmType: 0 })).json().code).toBe(0);
    expect((await design()).byName.多行.dmType).toBe(0);
  });

  it('a group that holds controls cannot become another kind', async () => {
    const group = (await design()).byName.联系地址;
    try {
      const res = await editControl(group, { dmType: 0 });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).not.toBe(0);
      const after = (await design()).byName.联系地址;
      expect(after.dmType).toBe(99);
      expect(names(after.children)).toEqual(['门牌号']);
    } finally {
      // Put it back if the server let it through, so the later tests see a group.
      await editControl(group, { dmType: 99 });
    }
  });

  it('a disabled control leaves templateinfo but keeps its stored values', async () => {
    const tpl = await tplInfo();
    const id = await mustCreate(t, lisi, tpl, '有微信的客户', demoValues({ 微信: 'wx_keep' }));
    const wechat = (await design()).byName.微信;
    expect((await editControl(wechat, { actionState: 1 })).json().code).toBe(0);

    const after = await tplInfo();
    expect(after.byName.微信).toBeUndefined();
    expect(
      names((await t.get('/api/frontend/customer/templateinfo?isSearch=1', admin)).json().data.templateControls),
    ).not.toContain('微信');
    expect((await design()).byName.微信.actionState).toBe(1);
    // The disabled value is not shown, not accepted, and survives an edit.
    expect(valuesOf((await info(t, lisi, id)).json().data, '微信')).toEqual([]);
    const row = (await info(t, lisi, id)).json().data;
    const edit = await t.post(
      '/api/frontend/customer/edit',
      {
        cmCtid: id,
        name: '有微信的客户',
        templateControls: [
          { cbTacid: after.byName.联系人.cbTacid, dmValue: valuesOf(row, '联系人') },
          { cbTacid: after.byName.手机.cbTacid, dmValue: valuesOf(row, '手机') },
          { cbTacid: wechat.cbTacid, dmValue: ['wx_changed'] },
        ],
      },
      lisi,
    );
    expect(edit.json().code).toBe(0);
    const [stored] = await t.database.db.select({ vals: customers.vals }).from(customers).where(eq(customers.id, id));
    expect(stored.vals[String(wechat.cbTacid)]).toEqual(['wx_keep']);

    // Disabling a group hides its children too.
    const group = (await design()).byName.联系地址;
    expect((await editControl(group, { actionState: 1 })).json().code).toBe(0);
    const hidden = await tplInfo();
    expect(hidden.byName.联系地址).toBeUndefined();
    expect(hidden.byName.门牌号).toBeUndefined();
    expect((await editControl(group, { actionState: 0 })).json().code).toBe(0);

    // Enabled again, the old value is back.
    expect((await editControl(wechat, { actionState: 0 })).json().code).toBe(0);
    expect(valuesOf((await info(t, lisi, id)).json().data, '微信')).toEqual(['wx_keep']);
  });

  it('deletes an unused control, refuses one a customer holds a value for (106001)', async () => {
    const unused = await mustCreateControl({ name: '临时控件', dmType: 0 });
    expect((await delControl(unused)).json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await design()).byName.临时控件).toBeUndefined();
    expect((await delControl(unused)).json()).toMatchObject({ code: 100005, msg: '控件不存在' });

    const tpl = await design();
    const res = await delControl(tpl.byName.微信.cbTacid);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 106001, msg: '该控件已有客户数据，请改为禁用' });
    expect((await delControl(tpl.byName.联系地址.cbTacid)).json()).toMatchObject({ code: 106001, msg: '请先删除分组内的控件' });

    // A control whose only value sits on a deleted customer is still in use (the customer may come back).
    const used = await mustCreateControl({ name: '一次性', dmType: 0 });
    const withValue = await mustCreate(t, admin, await tplInfo(), '一次性客户', demoValues({ 一次性: '值' }));
    expect((await t.post('/api/frontend/customer/del', { cmCtids: [withValue] }, admin)).json().code).toBe(0);
    expect((await delControl(used)).json().code).toBe(106001);

    // A group can go once its children are gone.
    const g = await mustCreateControl({ name: '空分组', dmType: 99 });
    const child = await mustCreateControl({ name: '空分组子项', dmType: 0, pid: g });
    expect((await delControl(g)).json().code).toBe(106001);
    expect((await delControl(child)).json().code).toBe(0);
    expect((await delControl(g)).json().code).toBe(0);
    const rows = await t.database.db.select().from(templateControls).where(eq(templateControls.id, g));
    expect(rows).toEqual([]);
  });
});

describe('templateset isMustName', () => {
  let tpl: Template;
  beforeAll(async () => {
    tpl = await tplInfo();
  });

  it('makes the customer name required (106002) and back', async () => {
    const set = await t.post('/api/frontend/customer/templateset', { isMustName: 1 }, admin);
    expect(set.json()).toMatchObject({ code: 0, msg: '保存成功' });
    expect((await t.get('/api/frontend/customer/templateinfo', lisi)).json().data.isMustName).toBe(1);

    for (const name of ['', '   ']) {
      const res = await createCustomer(t, lisi, tpl, name, demoValues());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 106002, msg: '客户名称不能为空' });
    }
    const id = await mustCreate(t, lisi, tpl, '  有名字的客户  ');
    expect((await info(t, lisi, id)).json().data.name).toBe('有名字的客户');
    // Editing away the name is refused too.
    const row = (await info(t, lisi, id)).json().data;
    const edit = await t.post(
      '/api/frontend/customer/edit',
      {
        cmCtid: id,
        name: '',
        templateControls: [
          { cbTacid: tpl.byName.联系人.cbTacid, dmValue: valuesOf(row, '联系人') },
          { cbTacid: tpl.byName.手机.cbTacid, dmValue: valuesOf(row, '手机') },
        ],
      },
      lisi,
    );
    expect(edit.json()).toMatchObject({ code: 106002, msg: '客户名称不能为空' });

    expect((await t.post('/api/frontend/customer/templateset', { isMustName: 0 }, admin)).json().code).toBe(0);
    const unnamed = await mustCreate(t, lisi, tpl, '');
    expect((await info(t, lisi, unnamed)).json().data.name).toBe('');
    expect((await t.post('/api/frontend/customer/templateset', { isMustName: 2 }, admin)).json().code).toBe(100001);
  });

  it('a name over 50 characters is refused', async () => {
    const res = await createCustomer(t, lisi, tpl, '名'.repeat(51), demoValues());
    expect(res.json()).toMatchObject({ code: 100001, msg: '客户名称最多50个字符' });
    await mustCreate(t, lisi, tpl, '名'.repeat(50));
  });
});
