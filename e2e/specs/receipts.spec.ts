import { expect, type Page, test } from '@playwright/test';
import { apiLogin, createCustomer, uniq, uniqPhone } from '../fixtures/api';
import { closeOpenedPages, openPage } from '../fixtures/login';
import { shot } from '../fixtures/shots';

test.afterEach(closeOpenedPages);

type Api = Awaited<ReturnType<typeof apiLogin>>;
type Template = { coMatid: number; name: string; templateControls: { coTacid: number; dmType: number }[] };

/** An antd select by its label: open it and pick the option showing `text`. */
const pick = async (page: Page, scope: ReturnType<Page['getByRole']>, label: string, text: string | RegExp) => {
  const box = scope.getByLabel(label, { exact: true });
  const select = box.locator('xpath=ancestor-or-self::*[contains(concat(" ", @class, " "), " ant-select ")][1]');
  await expect(async () => {
    await box.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .first()
      .click({ timeout: 3000 });
    await expect(select).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
};

/** lisi's order of 10,000.00 yuan for a new customer, approved by 张三 through the API. */
const approvedOrder = async (lisi: Api, zhangsan: Api, customer: string) => {
  const cmCtid = await createCustomer(lisi, { name: customer, contact: '赵总', phone: uniqPhone() });
  const products = await lisi.get<{ list: { id: number; code: string }[] }>('/api/frontend/product/list?limit=50');
  const product = products.list.find((p) => p.code === 'QC-001') ?? products.list[0];
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const { order_id } = await lisi.post<{ order_id: number }>('/api/frontend/order/store', {
    customer_id: cmCtid,
    contact_phone: '13912345678',
    attr: { '2': today, '5': '微信' },
    product: [{ id: product.id, cost_price: 10_000_000, num: 1, specifications_list: [] }],
    remark: '',
    images: [],
  });
  const flows = await lisi.get<{ list: Template[] }>('/api/v1/merchantapp/templatelist?isOrder=1');
  const flow = flows.list.find((x) => x.name === '订单审批') as Template;
  const staff = await lisi.get<{ list: { staff_id: number; linkman: string }[] }>(
    `/api/frontend/staff/search?linkman=${encodeURIComponent('张三')}`,
  );
  const zhang = staff.list.find((s) => s.linkman === '张三') as { staff_id: number };
  await lisi.post('/api/v1/staff/templatecreate', {
    isSave: 2,
    coMatid: flow.coMatid,
    templateControls: flow.templateControls
      .filter((c) => c.dmType === 17)
      .map((c) => ({ coTacid: c.coTacid, dmValue: [String(order_id)] })),
    staffApproveNode: [{ nodeId: 1, staffS: [{ id: zhang.staff_id }] }],
  });
  await zhangsan.post('/api/frontend/order/verify', { order_id, node_id: 1, status: 1 });
  return cmCtid;
};

test('lisi plans a receipt of an approved order and records it in the drawer: the totals move', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const customer = `回款客户${uniq()}`;
  const cmCtid = await approvedOrder(await apiLogin(request, 'lisi'), await apiLogin(request, 'zhangsan'), customer);

  const lisi = await openPage(browser, 'lisi');
  await lisi.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = lisi.getByRole('dialog').filter({ has: lisi.getByRole('tab', { name: '订单' }) });
  await drawer.getByRole('tab', { name: '回款', exact: true }).click();
  await expect(drawer.getByText('暂无回款计划')).toBeVisible();

  await drawer.getByRole('button', { name: '新建回款计划' }).click();
  const planWin = lisi.getByRole('dialog', { name: '新建回款计划' });
  await planWin.getByRole('button', { name: /确\s?定/ }).click();
  await expect(planWin.locator('.ant-form-item-explain-error').filter({ hasText: '请选择订单' })).toBeVisible();
  await expect(planWin.locator('.ant-form-item-explain-error').filter({ hasText: '请输入金额' })).toBeVisible();
  await pick(lisi, planWin, '订单', '10,000.00');
  await expect(planWin.getByText('该订单尚可计划 ¥10,000.00')).toBeVisible();
  await planWin.getByLabel('回款金额(元)').fill('6000');
  await planWin.getByLabel('计划回款日期').fill('2026-12-20');
  await planWin.getByLabel('计划回款日期').press('Enter');
  await planWin.getByLabel('备注').fill('首期');
  await shot(lisi, 'receipts-plan-window');
  await planWin.getByRole('button', { name: /确\s?定/ }).click();
  await expect(planWin).toBeHidden();
  const plan = drawer.getByTestId('receipt-plan');
  await expect(plan).toContainText('未回款');
  await expect(drawer.locator('.ant-statistic').filter({ hasText: '计划回款' })).toContainText('6,000.00');

  await drawer.getByRole('button', { name: /新建回款$/ }).click();
  const win = lisi.getByRole('dialog', { name: '新建回款', exact: true });
  await pick(lisi, win, '订单', '10,000.00');
  await pick(lisi, win, '回款计划', '待回款 ¥6,000.00');
  await win.getByLabel('回款金额(元)').fill('2500.5');
  await pick(lisi, win, '付款方式', '支付宝');
  await shot(lisi, 'receipts-receipt-window');
  await win.getByRole('button', { name: /确\s?定/ }).click();
  await expect(win).toBeHidden();
  await expect(plan).toContainText('部分回款');
  await expect(plan.getByRole('row', { name: /2,500\.50/ })).toContainText('支付宝');
  await expect(drawer.locator('.ant-statistic').filter({ hasText: '已回款' })).toContainText('2,500.50');
  await expect(drawer.locator('.ant-statistic').filter({ hasText: '待回款' })).toContainText('3,499.50');
  await shot(lisi, 'receipts-drawer-tab');

  // The approved order's detail shows the same plan.
  await drawer.getByRole('tab', { name: '订单', exact: true }).click();
  await drawer.getByRole('row', { name: /10,000\.00/ }).click();
  const orderDrawer = lisi.getByRole('dialog').filter({ hasText: '审批记录' });
  await expect(orderDrawer.getByTestId('receipt-plan')).toContainText('部分回款');
  await orderDrawer.getByText('审批记录').scrollIntoViewIfNeeded();
  await shot(lisi, 'receipts-order-detail');

  await lisi.goto('/order/receipt');
  await expect(lisi.getByRole('row', { name: new RegExp(customer) })).toContainText('部分回款');
  await shot(lisi, 'receipts-page-plans');
  await lisi.getByRole('tab', { name: '回款记录' }).click();
  await expect(lisi.getByRole('row', { name: new RegExp(customer) })).toContainText('2,500.50');
  await shot(lisi, 'receipts-page-receipts');
  await lisi.goto('/home/Index');
  await expect(lisi.getByTestId('receipt-figure').first()).toBeVisible();
  await shot(lisi, 'receipts-workbench');
});
