import { expect, type Page, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from '../chromium';
import { apiLogin, createCustomer, uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';
import { goOnline } from '../fixtures/phone';

// Issue 11, from the walk through the screens: the call above the drawer, the page left mid-call,
// /login taking the extension offline, the missed-call badge and the empty follow-up.
test.use({
  viewport: { width: 1366, height: 768 },
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS] },
});

// lisi's extension goes back offline whatever happens, so other specs find it as seeded.
test.afterEach(async ({ request }) => {
  const lisi = await apiLogin(request, 'lisi');
  await lisi.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 0 });
});

/** A number the sim line answers after 1 s of ringing (last digit 1, telephony/sim). */
const answeringNumber = () => `139${String(Date.now()).slice(-7)}1`;
const inCall = (page: Page) => page.getByRole('dialog').filter({ has: page.getByTestId('call-status') });
const callBar = (page: Page) => page.getByRole('region', { name: '通话条' });
/** The customer detail drawer: the dialog that holds the 跟进记录 tab (the modals over it do not). */
const drawerOf = (page: Page) => page.getByRole('dialog').filter({ has: page.getByRole('tab', { name: '跟进记录' }) });

const dialTyped = async (page: Page, number: string) => {
  await page.getByRole('button', { name: '拨号' }).click();
  const dialler = page.getByRole('dialog', { name: '拨号' });
  await dialler.getByRole('textbox').fill(number);
  await dialler.getByRole('button', { name: /拨\s*打/ }).click();
};
const sipOf = async (request: Parameters<typeof apiLogin>[0], user: string) => {
  const admin = await apiLogin(request, 'admin');
  const { list } = await admin.get<{ list: { cmSipid: number; user: string; registerStatus: number; phoneState: number }[] }>(
    `/api/frontend/call/siplist?user=${user}`,
  );
  return list.find((s) => s.user === user) as (typeof list)[number];
};

test('客户详情 during a call folds the call into a bar above the drawer; the call button brings the modal back on top', async ({
  page,
  request,
}) => {
  const lisi = await apiLogin(request, 'lisi');
  const name = `抽屉通话${uniq()}`;
  const phone = answeringNumber();
  const cmCtid = await createCustomer(lisi, { name, contact: '周经理', phone });

  await loginAs(page, 'lisi');
  await goOnline(page);
  await page.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = drawerOf(page);
  await drawer.getByRole('tab', { name: '联系电话' }).click();
  await drawer.getByRole('row').filter({ hasText: phone }).getByRole('button', { name: '拨打' }).click();
  const modal = inCall(page);
  await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });

  // 客户详情: the drawer shows the customer, the call stays in reach in the bar above it
  await modal.getByRole('button', { name: '客户详情' }).click();
  await expect(modal).toBeHidden();
  await expect(drawer.getByText(name).first()).toBeVisible();
  const bar = callBar(page);
  await expect(bar).toBeVisible();
  await expect(bar).toContainText(phone);
  await expect(bar.getByLabel('通话时长')).toHaveText(/^00:0\d$/);
  await page.screenshot({ path: '.tmp/h11-call-bar-over-drawer.png' });

  // the call button brings the modal back, above the drawer: its buttons take the clicks
  await page.getByRole('button', { name: '通话中' }).click();
  await expect(modal).toBeVisible();
  await expect(bar).toBeHidden();
  await modal.getByRole('button', { name: '键盘' }).click();
  await expect(modal.getByRole('button', { name: '收起键盘' })).toBeVisible();
  await page.screenshot({ path: '.tmp/h11-modal-over-drawer.png' });

  // folded again, 挂断 from the bar ends the call
  await modal.getByRole('button', { name: '客户详情' }).click();
  await page.waitForTimeout(2_000);
  await bar.getByRole('button', { name: '挂断' }).click();
  await expect(bar).toBeHidden();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('button', { name: '拨号' })).toBeVisible();
});

test('a page reloaded mid-call on the sim line ends the call and says so; the next dial goes through', async ({ page }) => {
  await loginAs(page, 'lisi');
  await goOnline(page);
  await dialTyped(page, answeringNumber());
  await expect(inCall(page).getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
  await page.waitForTimeout(2_500);

  await page.reload();
  await expect(page.getByText('离开页面时的通话已由系统挂断')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('extension-area')).toContainText('在线', { timeout: 15_000 });
  await dialTyped(page, answeringNumber());
  await expect(inCall(page).getByTestId('call-status')).toHaveText(/振铃中|通话中/);
  await expect(page.getByText('通话中请勿重复拨打')).toBeHidden();
  await page.waitForTimeout(2_000);
  await inCall(page).getByRole('button', { name: '挂断' }).click();
  await expect(inCall(page)).toBeHidden();
});

test('entering /login takes the extension offline on the server (SPEC §2)', async ({ page, request }) => {
  await loginAs(page, 'lisi');
  await goOnline(page);
  expect(await sipOf(request, '8001')).toMatchObject({ registerStatus: 1, phoneState: 1 });

  await page.goto('/login');
  await expect(page.getByPlaceholder('账号或手机号')).toBeVisible();
  await expect.poll(async () => (await sipOf(request, '8001')).registerStatus, { timeout: 10_000 }).toBe(0);
  expect((await sipOf(request, '8001')).phoneState).toBe(0);
});

test('missed incoming calls badge the call button until the dial panel is opened, across reloads', async ({ page, request }) => {
  const admin = await apiLogin(request, 'admin');
  const { cmSipid } = await sipOf(request, '8001');
  // missed calls another test left unseen must not add to this count
  await (await apiLogin(request, 'lisi')).post('/api/frontend/call/missedseen', {});
  await loginAs(page, 'lisi');
  await goOnline(page);

  const callButton = page.getByRole('button', { name: '拨号' });
  for (const caller of ['13800138011', '13800138012']) {
    await admin.post('/api/frontend/call/simincoming', { cmSipid, callerNumber: caller, ringSeconds: 2 });
    await expect(inCall(page).getByTestId('call-status')).toHaveText('振铃中');
    await expect(inCall(page)).toBeHidden({ timeout: 10_000 });
  }
  // the unread count sits on the call button
  const badge = callButton.getByText('2', { exact: true });
  await expect(badge).toBeVisible();
  await page.screenshot({ path: '.tmp/h11-missed-badge.png' });

  // counted on the server: a reload keeps it
  await page.reload();
  await expect(badge).toBeVisible();
  // the call button opens the dial panel only once the reloaded extension is back online
  await expect(page.getByTestId('extension-area')).toContainText('在线', { timeout: 15_000 });

  // the dial panel shows them seen
  await callButton.click();
  await page
    .getByRole('dialog', { name: '拨号' })
    .getByRole('button', { name: /取\s*消/ })
    .click();
  await expect(badge).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('extension-area')).toContainText('在线', { timeout: 15_000 });
  await expect(callButton.getByText(/^\d+$/)).toHaveCount(0);
});

test('an empty follow-up is refused in the form, before anything is sent', async ({ page, request }) => {
  const lisi = await apiLogin(request, 'lisi');
  const cmCtid = await createCustomer(lisi, { name: `空跟进${uniq()}`, contact: '周经理', phone: answeringNumber() });
  await loginAs(page, 'lisi');
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/followcreate')) sent.push(r.url());
  });
  await page.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = drawerOf(page);
  await drawer.getByLabel('跟进内容').fill('   ');
  await drawer.getByRole('button', { name: '提交跟进' }).click();
  await expect(drawer.getByText('请填写跟进内容')).toBeVisible();
  expect(sent).toEqual([]);
  await drawer.getByLabel('跟进内容').fill('客户说下周再联系');
  await drawer.getByRole('button', { name: '提交跟进' }).click();
  await expect(page.getByText('跟进成功')).toBeVisible();
  expect(sent).toHaveLength(1);
});
