import { type APIRequestContext, expect as baseExpect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from '../chromium';
import { apiLogin, createCustomer, uniq } from '../fixtures/api';
import { closeOpenedPages, openPage } from '../fixtures/login';
import { goOnline } from '../fixtures/phone';
import { shot } from '../fixtures/shots';

// 消费明细 (issue 27) on the sim line: the platform operator gives the demo company a rate plan
// (60/60 at 0.50 元/分钟) and a recharge through its API; 李四 makes a call of a few seconds; the
// admin sees the charge in 消费明细 with the balance going down by exactly ¥0.50, the low-balance
// notice of the threshold the charge crossed, 汇总 totals equal to the sum of their rows, and the
// export job finishing.

// the microphone check before going online needs a (fake) microphone that is allowed
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS] } });

// each step waits longer than the default 10 s: the machine running the suite is often loaded
const expect = baseExpect.configure({ timeout: 30_000 });

/** playwright.config.ts gives the servers this operator token (a test-only value). */
const OPERATOR_TOKEN = 'e2e-operator-token-not-a-secret';
/** 0.50 元/分钟 in 1/10,000 yuan: a 1–60 s answered call on 60/60 costs exactly this. */
const PRICE = 5000;

type Overview = { balance: number; scope: string; is_low: boolean };

const operator =
  (request: APIRequestContext) =>
  async <T>(path: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`/api/operator/billing/${path}`, {
      method: data === undefined ? 'GET' : 'POST',
      data: data as object,
      headers: { 'x-operator-token': OPERATOR_TOKEN },
    });
    const body = (await res.json()) as { code: number; msg: string; data: T };
    if (body.code !== 0) throw new Error(`operator ${path}: ${body.msg}`);
    return body.data;
  };

/** ¥1,234.5678 / -¥0.50 as shown → 1/10,000 yuan, from the digits (no float). */
const unitsOf = (text: string): number => {
  const m = text.trim().match(/^(-?)¥([\d,]+)\.(\d{2,4})$/);
  if (!m) throw new Error(`not an amount: ${text}`);
  const value = Number(m[2].replace(/,/g, '')) * 10_000 + Number(m[3].padEnd(4, '0'));
  return m[1] ? -value : value;
};

/** A number the sim line answers after 1 s of ringing (last digit 1, telephony/sim). */
const answeringNumber = () => `139${String(Date.now()).slice(-7)}1`;

test.afterEach(async ({ request }) => {
  await closeOpenedPages();
  // lisi's extension goes back offline and the thresholds go, so later specs find the company as seeded
  await (await apiLogin(request, 'lisi')).post('/api/frontend/call/sipdefaultphoneState', { phoneState: 0 });
  await (await apiLogin(request, 'admin')).post('/api/frontend/billing/settings', { thresholds: [] });
});

test('a call on the sim line is charged by the plan: 消费明细 shows it with the balance down, 汇总 adds up, the export finishes', async ({
  browser,
  request,
}) => {
  test.setTimeout(420_000);
  const op = operator(request);
  const admin = await apiLogin(request, 'admin');
  const lisi = await apiLogin(request, 'lisi');
  const company = (await admin.get<{ companyName: string }>('/api/frontend/workbench/summary')).companyName;

  // The operator: a 60/60 plan at 0.50 元/分钟 for every kind, assigned to the company, and a recharge of ¥100.
  const part = { connect_fee: 0, first_block: 60, increment: 60, price_per_minute: PRICE, charge_unanswered: false };
  const { id: planId } = await op<{ id: number }>('plans', {
    name: `E2E资费${uniq()}`,
    rates: { manual: part, task: part, group: part, ai: part, inbound: part },
  });
  await op('assign', { company, plan_id: planId, operator: 'e2e' });
  const recharge = await op<{ balance: number; is_new: boolean }>('recharge', {
    company,
    amount: 1_000_000,
    channel: '对公转账',
    ref: `E2E${uniq()}`,
    operator: 'e2e',
  });
  expect(recharge.is_new).toBe(true);
  const before = await admin.get<Overview>('/api/frontend/billing/overview');
  expect(before.scope).toBe('company');
  expect(before.balance).toBe(recharge.balance);
  // a threshold just under the balance: the call's charge crosses it once
  await admin.post('/api/frontend/billing/settings', { thresholds: [before.balance - PRICE / 2] });

  // The admin's 消费明细 before the call: the balance as recorded, the recharge in 充值记录.
  const page = await openPage(browser, 'admin');
  await page.goto('/account/expensedetails');
  const balanceFigure = page.getByTestId('billing-figure-balance').locator('.ant-statistic-content');
  // the first open of the page fetches its chunks: slow on a loaded machine
  await expect(balanceFigure).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => unitsOf((await balanceFigure.textContent()) ?? '')).toBe(before.balance);
  await page.getByRole('tab', { name: '充值记录' }).click();
  await expect(page.getByTestId('billing-recharges').getByRole('row').filter({ hasText: '对公转账' }).first()).toContainText(
    '¥100.00',
  );

  // 李四 calls a customer of his from the phone tab, talks a few seconds and hangs up.
  const name = `计费客户${uniq()}`;
  const phone = answeringNumber();
  const cmCtid = await createCustomer(lisi, { name, contact: '钱经理', phone });
  const agent = await openPage(browser, 'lisi');
  await goOnline(agent);
  await agent.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = agent.locator('.ant-drawer-section');
  await drawer.getByRole('tab', { name: '联系电话' }).click();
  await drawer.getByRole('row').filter({ hasText: phone }).getByRole('button', { name: '拨打' }).click();
  const call = agent.locator('.ant-modal').filter({ has: agent.getByTestId('call-status') });
  await expect(call.getByTestId('call-status')).toHaveText('通话中', { timeout: 15_000 });
  await agent.waitForTimeout(3_000);
  await call.getByRole('button', { name: '挂断' }).click();
  await expect(call).toBeHidden({ timeout: 30_000 });

  // Rated after hang-up on the job queue: the balance goes down by exactly the plan's price.
  await expect
    .poll(async () => (await admin.get<Overview>('/api/frontend/billing/overview')).balance, { timeout: 30_000 })
    .toBe(before.balance - PRICE);

  // The threshold crossed: the admin's notice and the header's mark.
  await expect(page.getByText('余额不足提醒')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('billing-low-balance')).toBeVisible();

  // 消费明细: the charge of 李四's call, the cost and the balance after it.
  await page.reload();
  await expect(balanceFigure).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => unitsOf((await balanceFigure.textContent()) ?? '')).toBe(before.balance - PRICE);
  const charges = page.getByTestId('billing-charges');
  const row = charges.getByRole('row').filter({ hasText: '李四' }).first();
  await expect(row).toContainText('手动外呼');
  await expect(row).toContainText('¥0.50');
  await expect(row).toContainText('60/60秒');
  await expect(row).toContainText('0.50');
  await expect(row).toContainText('00:01:00');
  const cells = row.locator('td');
  const balanceAfter = unitsOf(((await cells.nth(9).textContent()) ?? '').trim());
  expect(balanceAfter).toBe(before.balance - PRICE);
  await expect(row.getByTestId('billing-call-link')).toHaveAttribute('href', /\/call\/record\?uuid=/);
  await shot(page, 'billing-charges');

  // The call id opens 通话记录 with that one call.
  const records = await page.context().newPage();
  await records.goto((await row.getByTestId('billing-call-link').getAttribute('href')) ?? '');
  await expect(records.getByTestId('call-record-uuid')).toBeVisible();
  await expect(records.locator('.ant-table-row')).toHaveCount(1);
  await expect(records.locator('.ant-table-row')).toContainText('李四');
  await records.close();

  // Filtered by the callee's number, the list holds this one call.
  await page.getByPlaceholder('线路/被叫号码').fill(phone.slice(-4));
  await page.getByRole('button', { name: /查\s?询/ }).click();
  await expect(charges.locator('.ant-table-row')).toHaveCount(1);
  await page.getByRole('button', { name: /重\s?置/ }).click();

  // 汇总: each grouping's totals row is the sum of its rows, to the last 1/10,000 yuan.
  await page.getByRole('tab', { name: '汇总' }).click();
  const summary = page.getByTestId('billing-summary');
  for (const group of ['按员工', '按日期', '按线路', '按类型']) {
    await page.getByText(group, { exact: true }).click();
    const total = summary.getByTestId('billing-summary-total');
    await expect(total).toBeVisible();
    await expect(summary.locator('.ant-table-row').first()).toBeVisible();
    await expect(async () => {
      const rows = await summary
        .locator('.ant-table-row')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
      const totalCells = await total.locator('td').allInnerTexts();
      expect(rows.reduce((s, r) => s + Number(r[1]), 0)).toBe(Number(totalCells[1]));
      expect(rows.reduce((s, r) => s + unitsOf(r[3]), 0)).toBe(unitsOf(totalCells[3]));
    }).toPass({ timeout: 30_000 });
    if (group === '按员工') await expect(summary.locator('.ant-table-row').filter({ hasText: '李四' })).toContainText('¥0.50');
  }
  await shot(page, 'billing-summary');

  // 导出: the export job runs to its end and the file downloads.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出' }).click();
  const progress = page.locator('.ant-modal').filter({ hasText: '导出消费明细' });
  await expect(progress.getByText('导出完成')).toBeVisible({ timeout: 30_000 });
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  await progress.getByRole('button', { name: /^完\s?成$/ }).click();

  // The workbench shows the balance and the days left.
  await page.goto('/home/Index');
  const workbenchBalance = page.getByTestId('workbench-billing-balance').locator('.ant-statistic-content');
  await expect.poll(async () => unitsOf((await workbenchBalance.textContent()) ?? '')).toBe(before.balance - PRICE);
  await expect(page.getByTestId('workbench-billing-days')).toBeVisible();
  await shot(page, 'billing-workbench');
});
