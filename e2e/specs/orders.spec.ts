import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiLogin, createCustomer, uniq, uniqPhone } from '../fixtures/api';
import { closeOpenedPages, openPage } from '../fixtures/login';
import { shot } from '../fixtures/shots';

test.afterEach(closeOpenedPages);

/** A screenshot once modals and tables have finished their animations. */
// a 2×2 red PNG: the order's attached picture
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

type Api = Awaited<ReturnType<typeof apiLogin>>;
type StaffOption = { staff_id: number; linkman: string };

/** An antd select: open it by its label, pick the option showing `text`, until the select shows it. */
const pick = async (page: Page, scope: ReturnType<Page['getByRole']>, label: string, text: string, typed?: string) => {
  const box = scope.getByLabel(label, { exact: true });
  const select = box.locator('xpath=ancestor-or-self::*[contains(concat(" ", @class, " "), " ant-select ")][1]');
  await expect(async () => {
    await box.click();
    if (typed) await box.fill(typed);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .first()
      .click({ timeout: 3000 });
    await expect(select).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
};

/** The catalogue and the flow this spec sells with, made by the admin through the API. */
const seedCatalogue = async (admin: Api, u: string) => {
  const plain = `云呼叫坐席${u}`;
  const variant = `智能外呼系统${u}`;
  await admin.post('/api/frontend/product/create', {
    name: plain,
    code: `ZX${u}`.slice(0, 30),
    status: 1,
    price: 1_200_000,
    cost: 300_000,
    minimum_price: 1_000_000,
  });
  await admin.post('/api/frontend/product/create', {
    name: variant,
    code: `WH${u}`.slice(0, 30),
    status: 1,
    price: 5_000_000,
    cost: 1_000_000,
    minimum_price: 4_000_000,
    specifications: [
      { name: '版本', values: ['基础版', '专业版'] },
      { name: '年限', values: ['1年', '3年'] },
    ],
    detailed: [
      { values: ['基础版', '1年'], price: 5_000_000, cost: 1_000_000, minimum_price: 4_000_000 },
      { values: ['基础版', '3年'], price: 12_000_000, cost: 2_500_000, minimum_price: 10_000_000 },
      { values: ['专业版', '1年'], price: 8_000_000, cost: 1_500_000, minimum_price: 6_500_000 },
      { values: ['专业版', '3年'], price: 19_800_000, cost: 4_000_000, minimum_price: 16_000_000 },
    ],
  });
  const staff = await admin.get<{ list: StaffOption[] }>('/api/frontend/staff/search?linkman=');
  const cc = staff.list.find((s) => s.linkman !== '张三' && s.linkman !== '李四') ?? staff.list[0];
  const flow = `订单审批${u}`;
  await admin.post('/api/v1/merchantapp/templateadd', {
    name: flow,
    isOrder: 1,
    actionState: 0,
    controls: [{ name: '合同说明', dmType: 0, dmDesc: '', dmValue: [], dmMust: 0 }],
    nodes: [
      { name: '主管审批', type: 0, mode: 1, staffIds: [] },
      { name: '财务抄送', type: 1, mode: 1, staffIds: [cc.staff_id] },
    ],
  });
  return { plain, variant, flow };
};

test('lisi sells two products, 张三 approves in 我的审批: the order is 已通过, the customer 成交, the workbench moves', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const u = uniq();
  const admin = await apiLogin(request, 'admin');
  const lisiApi = await apiLogin(request, 'lisi');
  const { plain, variant, flow } = await seedCatalogue(admin, u);
  const customer = `成交测试${u}`;
  const cmCtid = await createCustomer(lisiApi, { name: customer, contact: '王总', phone: uniqPhone() });

  const lisi = await openPage(browser, 'lisi');
  await expect(lisi.getByText('订单与审批')).toBeVisible();
  const amountCard = lisi.getByTestId('order-figure').filter({ hasText: '本月成交金额' });
  const amountBefore = (await amountCard.textContent()) ?? '';
  await shot(lisi, 'workbench-before');

  // The customer drawer: 新建订单.
  await lisi.goto(`/manage/mycustomer?detail=${cmCtid}`);
  await lisi.getByRole('button', { name: '新建订单' }).click();
  const win = lisi.getByRole('dialog', { name: '新建订单' });
  await expect(win.getByText(customer)).toBeVisible();

  // Submitting empty shows the SPEC §5 messages.
  await win.getByLabel('联系方式').fill('');
  await win.getByRole('button', { name: /提\s?交/ }).click();
  await expect(win.getByText('请输入联系方式')).toBeVisible();
  await expect(win.getByText('请选择审批流程').last()).toBeVisible();
  await win.getByLabel('联系方式').fill('13800138000');

  // Two products: one plain, one by specification.
  await win.getByRole('button', { name: '添加产品' }).click();
  const picker = lisi.getByRole('dialog', { name: '添加产品' });
  await picker.getByPlaceholder('产品名称/编号').fill(u);
  await picker.getByPlaceholder('产品名称/编号').press('Enter');
  await expect(picker.getByRole('row', { name: new RegExp(plain) })).toBeVisible();
  await picker
    .getByRole('row', { name: new RegExp(plain) })
    .getByRole('checkbox')
    .check();
  // 售价: the range of the variants' prices until one is chosen, then the chosen variant's price
  const variantRow = picker.getByRole('row', { name: new RegExp(variant) });
  await expect(variantRow).toContainText('5,000.00 ~ 19,800.00');
  await pick(lisi, picker, `${variant}的规格`, '专业版 / 3年');
  await expect(variantRow.getByRole('cell').last()).toHaveText('19,800.00');
  await shot(lisi, 'order-product-picker');
  await picker.getByRole('button', { name: /确\s?定/ }).click();
  await expect(win.getByText('专业版 / 3年')).toBeVisible();
  // 1,200.00 + 19,800.00 at list price; the deal price of the plain one goes below its minimum.
  await expect(win.getByTestId('order-total')).toHaveText('¥21,000.00');
  await win.getByLabel(`${plain}成交价`).fill('900');
  await expect(win.getByText('低于最低价')).toBeVisible();
  await win.getByLabel(`${plain}成交价`).fill('1100');
  await expect(win.getByTestId('order-total')).toHaveText('¥20,900.00');
  await shot(lisi, 'order-window-products');

  // The order form and the flow: 张三 in the free node.
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  await win.getByLabel('签约日期').click();
  await win.getByLabel('签约日期').fill(today);
  await win.getByLabel('签约日期').press('Enter');
  await expect(win.getByLabel('签约日期')).toHaveValue(today);
  await pick(lisi, win, '付款方式', '公对公转账');
  await win.getByLabel('备注').fill('年度合同，含专业版三年服务');
  await win.locator('input[type=file]').setInputFiles({ name: '合同首页.png', mimeType: 'image/png', buffer: PNG });
  await expect(win.getByText('上传图片 1/9')).toBeVisible();
  await pick(lisi, win, '审批流程', flow);
  await expect(win.getByText('主管审批')).toBeVisible();
  await win.getByRole('button', { name: /提\s?交/ }).click();
  await expect(win.getByText('请选择审批人！')).toBeVisible();
  await pick(lisi, win, '主管审批的审批人', '张三', '张三');
  await shot(lisi, 'order-window');
  await win.getByRole('button', { name: /提\s?交/ }).click();
  await expect(lisi.getByText('添加成功')).toBeVisible();
  await expect(win).toBeHidden();

  // The order tab: 待审核.
  const drawer = lisi.getByRole('dialog').filter({ has: lisi.getByRole('tab', { name: '订单' }) });
  await drawer.getByRole('tab', { name: '订单' }).click();
  await expect(drawer.getByRole('row', { name: /待审核/ })).toBeVisible();
  await drawer.getByRole('row', { name: /待审核/ }).click();
  const detail = lisi.getByRole('dialog').filter({ hasText: '订单详情' }).last();
  await expect(detail.getByText('总价')).toBeVisible();
  await expect(detail.getByText('¥20,900.00').first()).toBeVisible();
  await expect(detail.getByRole('img', { name: '合同首页.png' })).toBeVisible();
  await shot(lisi, 'order-detail-pending');
  await detail.getByRole('button', { name: 'Close' }).or(detail.getByLabel('Close')).first().click();

  // 张三 approves in 我的审批.
  const zhang = await openPage(browser, 'zhangsan');
  await zhang.goto('/order/approval');
  const row = zhang.getByRole('row', { name: new RegExp(customer) });
  await expect(row).toBeVisible();
  await shot(zhang, 'my-approvals');
  await row.click();
  const zDetail = zhang.getByRole('dialog').filter({ hasText: '订单详情' });
  await zDetail
    .getByRole('button', { name: /审\s?核/ })
    .first()
    .click();
  const verify = zhang.getByRole('dialog', { name: '审核订单' });
  await verify.getByLabel('审核意见').fill('同意，按合同执行');
  await shot(zhang, 'order-verify');
  await verify.getByRole('button', { name: /确\s?定|OK/ }).click();
  await expect(zhang.getByText('审核成功')).toBeVisible();
  await expect(zDetail.getByText('已通过').first()).toBeVisible();
  await zDetail.getByText('审批记录').scrollIntoViewIfNeeded();
  await expect(zDetail.getByText('意见：同意，按合同执行')).toBeVisible();
  await shot(zhang, 'order-detail-approved');

  // 选择协同人 (销售主管): 王五 then sees the order.
  await zDetail.getByRole('button', { name: '选择协同人' }).click();
  const coop = zhang.getByRole('dialog', { name: '选择协同人' });
  await pick(zhang, coop, '协同人', '王五', '王五');
  await coop.getByText('选择协同人').click(); // closes the multiple select's list
  await shot(zhang, 'order-cooperators');
  await coop.getByRole('button', { name: /确\s?定|OK/ }).click();
  await expect(zhang.getByText('操作成功')).toBeVisible();
  await expect(zDetail.getByText('王五')).toBeVisible();
  const wangwu = await apiLogin(request, 'wangwu');
  const seen = await wangwu.get<{ list: { customer_name: string }[] }>('/api/frontend/order/list?page=1&limit=10');
  expect(seen.list.map((o) => o.customer_name)).toContain(customer);

  // lisi: 已通过 in the drawer, the customer 成交, the workbench figure moved.
  await lisi.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer2 = lisi.getByRole('dialog').filter({ has: lisi.getByRole('tab', { name: '订单' }) });
  // the stage tag beside the customer's name
  await expect(drawer2.locator('.ant-drawer-header').getByText('成交', { exact: true })).toBeVisible();
  await drawer2.getByRole('tab', { name: '订单' }).click();
  await expect(drawer2.getByRole('row', { name: /已通过/ })).toBeVisible();
  await shot(lisi, 'customer-orders-tab');

  // 销售 may not set collaborators or transfer: the buttons are not there.
  await drawer2.getByRole('row', { name: /已通过/ }).click();
  const detail2 = lisi.getByRole('dialog').filter({ hasText: '订单详情' }).last();
  await expect(detail2.getByText('已通过').first()).toBeVisible();
  await expect(detail2.getByRole('button', { name: '选择协同人' })).toHaveCount(0);
  await lisi.goto('/home/Index');
  await expect(amountCard).not.toHaveText(amountBefore);
  await shot(lisi, 'workbench-after');
});

test('the admin screens of the catalogue, the flows and the orders', async ({ browser, request }) => {
  const admin = await openPage(browser, 'admin');
  await admin.goto('/set/product');
  await expect(admin.getByText('产品分类')).toBeVisible();
  const category = `软件${uniq()}`.slice(0, 20);
  await admin.getByRole('button', { name: '添加分类' }).click();
  await admin.getByRole('dialog', { name: '添加分类' }).getByLabel('分类名称').fill(category);
  await admin
    .getByRole('dialog', { name: '添加分类' })
    .getByRole('button', { name: /确\s?定|OK/ })
    .click();
  await expect(admin.getByRole('tree').getByText(category)).toBeVisible();
  await shot(admin, 'products');

  // 导入: one good row, one without a name.
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('产品');
  sheet.addRow(['产品名称', '产品编号', '分类', '售价(元)', '成本价(元)', '最低价(元)', '状态', '备注']);
  const imported = `导入产品${uniq()}`;
  sheet.addRow([imported, '', '', '99.9', '10', '80.5', '上架', '']);
  sheet.addRow(['', '', '', '1', '1', '1', '上架', '']);
  const xlsx = Buffer.from(await book.xlsx.writeBuffer());
  await admin.getByRole('button', { name: '导入' }).click();
  const importer = admin.getByRole('dialog', { name: '导入产品' });
  await importer.locator('input[type=file]').setInputFiles({
    name: '产品.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: xlsx,
  });
  await expect(importer.getByText('导入完成')).toBeVisible();
  await expect(importer.getByText('成功导入 1 个产品，1 行未导入')).toBeVisible();
  await shot(admin, 'products-import');
  await importer.getByRole('button', { name: /完\s?成/ }).click();
  await admin.getByPlaceholder('产品名称/编号').fill(imported);
  await admin.getByRole('button', { name: /查\s?询/ }).click();
  await expect(admin.getByRole('row', { name: new RegExp(imported) })).toContainText('售价 99.90');

  await admin.getByRole('button', { name: '新增产品' }).click();
  const form = admin.getByRole('dialog', { name: '新增产品' });
  // 保存 with invalid fields shows their messages, no uncaught error
  const pageErrors: string[] = [];
  admin.on('pageerror', (e) => pageErrors.push(String(e)));
  await form.getByRole('button', { name: /保\s?存/ }).click();
  await expect(form.getByText('请输入产品名称')).toBeVisible();
  expect(pageErrors).toEqual([]);
  await form.getByRole('button', { name: '添加规格' }).click();
  await form.getByLabel('规格1名称').fill('版本');
  await form.getByLabel('规格1的值').fill('基础版');
  await form.getByLabel('规格1的值').press('Enter');
  await form.getByLabel('规格1的值').fill('专业版');
  await form.getByLabel('规格1的值').press('Enter');
  await expect(form.getByText('专业版').last()).toBeVisible();
  const product = `录入产品${uniq()}`;
  await form.getByLabel('产品名称').fill(product);
  await form.getByLabel('售价(元)').fill('0.1');
  await form.getByLabel('成本价(元)').fill('0.05');
  await form.getByLabel('最低价(元)').fill('0.08');
  for (const v of ['基础版', '专业版']) {
    await form.getByLabel(`${v} 售价`).fill(v === '基础版' ? '1999.99' : '2999.999');
    await form.getByLabel(`${v} 成本价`).fill('500');
    await form.getByLabel(`${v} 最低价`).fill('1500');
  }
  await shot(admin, 'product-form');
  await form.getByRole('button', { name: /保\s?存/ }).click();
  await expect(admin.getByText('添加成功').last()).toBeVisible();
  await admin.getByPlaceholder('产品名称/编号').fill(product);
  await admin.getByRole('button', { name: /查\s?询/ }).click();
  const row = admin.getByRole('row', { name: new RegExp(product) });
  // a product with variants shows their price range
  await expect(row).toContainText('售价 1,999.99 ~ 3,000.00');
  await expect(row).toContainText('版本（2个）');
  // Edit: the stored amounts come back as typed (no float drift), one variant price changes.
  await row.getByRole('button', { name: '编辑' }).click();
  const edit = admin.getByRole('dialog', { name: '编辑产品' });
  await expect(edit.getByLabel('售价(元)')).toHaveValue('0.10');
  await expect(edit.getByLabel('专业版 售价')).toHaveValue('2999.999');
  await edit.getByLabel('基础版 售价').fill('1888');
  await edit.getByRole('button', { name: /保\s?存/ }).click();
  await expect(admin.getByText('操作成功')).toBeVisible();
  const stored = await apiLogin(request, 'admin').then((a) =>
    a.get<{ list: { detailed: { price: number }[] }[] }>(
      `/api/frontend/product/list?page=1&limit=10&keyword=${encodeURIComponent(product)}`,
    ),
  );
  expect(stored.list[0].detailed.map((d) => d.price).sort((x, y) => x - y)).toEqual([1_888_000, 2_999_999]);

  await admin.goto('/set/approval');
  await expect(admin.getByRole('button', { name: '新建审批流程' })).toBeVisible();
  await shot(admin, 'approval-settings');
  await admin.getByRole('row').nth(1).getByRole('button', { name: '编辑' }).click();
  await expect(admin.getByText('保存后将生成新版本')).toBeVisible();
  await shot(admin, 'approval-editor');
  await admin.getByRole('button', { name: /取\s?消/ }).click();

  // A new flow, then an edit: a new version.
  const flowName = `新流程${uniq()}`;
  await admin.getByRole('button', { name: '新建审批流程' }).click();
  const editor = admin.getByRole('dialog', { name: '新建审批流程' });
  await editor.getByLabel('流程名称').fill(flowName);
  await editor.getByRole('button', { name: '添加控件' }).click();
  await editor.getByLabel('控件1名称').fill('折扣原因');
  await editor.getByRole('button', { name: /保\s?存/ }).click();
  await expect(admin.getByText('添加成功')).toBeVisible();
  const flowRow = admin.getByRole('row', { name: new RegExp(flowName) });
  await expect(flowRow).toContainText('v1');
  await flowRow.getByRole('button', { name: '编辑' }).click();
  const editor2 = admin.getByRole('dialog', { name: '编辑审批流程' });
  await editor2.getByRole('button', { name: '添加节点' }).click();
  await editor2.getByRole('button', { name: /保\s?存/ }).click();
  await expect(admin.getByText('保存成功，已生成新版本')).toBeVisible();
  await expect(flowRow).toContainText('v2');
  await expect(flowRow).toContainText('审批：发起人自选 → 审批：发起人自选');

  await admin.goto('/order/list');
  await expect(admin.getByRole('row').nth(1)).toBeVisible();
  await shot(admin, 'orders');
  await admin.getByRole('button', { name: '导出' }).click();
  await expect(admin.getByRole('dialog', { name: '导出订单' }).getByText('导出完成')).toBeVisible({ timeout: 30_000 });
  await shot(admin, 'orders-export');
});

test('an order whose approval cannot start stays 待提交 and is submitted again; the submitter withdraws it', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const u = uniq();
  const admin = await apiLogin(request, 'admin');
  const lisiApi = await apiLogin(request, 'lisi');
  const flow = `临时审批${u}`;
  await admin.post('/api/v1/merchantapp/templateadd', {
    name: flow,
    isOrder: 1,
    actionState: 0,
    controls: [],
    nodes: [{ name: '经理审批', type: 0, mode: 1, staffIds: [] }],
  });
  const templates = await admin.get<{ list: { coMatid: number; name: string }[] }>('/api/v1/merchantapp/templatelist?isAll=1');
  const coMatid = templates.list.find((t) => t.name === flow)?.coMatid as number;
  const customer = `待提交测试${u}`;
  const cmCtid = await createCustomer(lisiApi, { name: customer, contact: '刘总', phone: uniqPhone() });

  const lisi = await openPage(browser, 'lisi');
  await lisi.goto(`/manage/mycustomer?detail=${cmCtid}`);
  await lisi.getByRole('button', { name: '新建订单' }).click();
  const win = lisi.getByRole('dialog', { name: '新建订单' });
  await win.getByRole('button', { name: '添加产品' }).click();
  const picker = lisi.getByRole('dialog', { name: '添加产品' });
  await picker.getByPlaceholder('产品名称/编号').fill('坐席耳麦');
  await picker.getByPlaceholder('产品名称/编号').press('Enter');
  await picker
    .getByRole('row', { name: /坐席耳麦/ })
    .getByRole('checkbox')
    .check();
  await picker.getByRole('button', { name: /确\s?定/ }).click();
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  await win.getByLabel('签约日期').click();
  await win.getByLabel('签约日期').fill(today);
  await win.getByLabel('签约日期').press('Enter');
  await pick(lisi, win, '付款方式', '微信');
  await pick(lisi, win, '审批流程', flow);
  await pick(lisi, win, '经理审批的审批人', '张三', '张三');

  // The flow is deleted meanwhile: the order is stored, its approval cannot start.
  await admin.post('/api/v1/merchantapp/templatedel', { coMatid });
  await win.getByRole('button', { name: /提\s?交/ }).click();
  await expect(win.getByText(/订单已保存为待提交/)).toBeVisible();
  await shot(lisi, 'order-window-draft');
  const orders = await lisiApi.get<{ list: { verify_status_name: string }[] }>(
    `/api/frontend/order/list?customer_id=${cmCtid}&page=1&limit=10`,
  );
  expect(orders.list.map((o) => o.verify_status_name)).toEqual(['待提交']);

  // Another flow, submitted again from the same window.
  await pick(lisi, win, '审批流程', '订单审批');
  // The approver search answers from the server: pick until the select shows him (a click on an option
  // list that was still being replaced by the search results was once lost, and the submit then failed).
  const approver = win.getByTestId('flow-node').first();
  await expect(async () => {
    await approver.getByRole('combobox').click();
    await approver.getByRole('combobox').fill('张三');
    await lisi
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: '张三' })
      .first()
      .click({ timeout: 3000 });
    await expect(approver.locator('.ant-select')).toContainText('张三', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await win.getByRole('button', { name: '重新提交审批' }).click();
  await expect(lisi.getByText('添加成功')).toBeVisible();
  await expect(win).toBeHidden();

  // 撤回 by the submitter: 已撤回, and 提交审批 is offered again.
  const drawer = lisi.getByRole('dialog').filter({ has: lisi.getByRole('tab', { name: '订单' }) });
  await drawer.getByRole('tab', { name: '订单' }).click();
  await drawer.getByRole('row', { name: /待审核/ }).click();
  const detail = lisi.getByRole('dialog').filter({ hasText: '订单详情' }).last();
  await detail.getByRole('button', { name: /撤\s?回/ }).click();
  await lisi
    .getByRole('dialog', { name: '撤回提示' })
    .getByRole('button', { name: /确\s?定|OK/ })
    .click();
  await expect(lisi.getByText('操作成功')).toBeVisible();
  await expect(detail.getByText('已撤回').first()).toBeVisible();
  await expect(detail.getByRole('button', { name: '提交审批' })).toBeVisible();
  await shot(lisi, 'order-detail-withdrawn');

  // 转移订单 by 张三 (销售主管) from 订单管理: 王五 owns it, 李四 stays as collaborator.
  const zhang = await openPage(browser, 'zhangsan');
  await zhang.goto('/order/list');
  await zhang.getByPlaceholder('客户名称').fill(customer);
  await zhang.getByRole('button', { name: /查\s?询/ }).click();
  await zhang.getByRole('row', { name: new RegExp(customer) }).click();
  const zDetail = zhang.getByRole('dialog').filter({ hasText: '订单详情' });
  await zDetail.getByRole('button', { name: '转移订单' }).click();
  const transfer = zhang.getByRole('dialog', { name: '转移订单' });
  await transfer.getByRole('button', { name: /确\s?定|OK/ }).click();
  await expect(transfer.locator('.ant-form-item-explain-error')).toHaveText('请选择负责人');
  await pick(zhang, transfer, '负责人', '王五', '王五');
  await expect(transfer.getByRole('checkbox', { name: '将原负责人设为协同人' })).toBeChecked();
  await shot(zhang, 'order-transfer');
  await transfer.getByRole('button', { name: /确\s?定|OK/ }).click();
  await expect(zhang.getByText('操作成功')).toBeVisible();
  const facts = zDetail.locator('.ant-descriptions').first();
  await expect(facts.getByRole('row', { name: /负责人/ })).toContainText('王五');
  await expect(facts.getByRole('row', { name: /协同人/ })).toContainText('李四');
});
