import { expect, type Page, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from '../chromium';
import { apiLogin, createCustomer, uniq } from '../fixtures/api';
import { loginAs, logoutByMenu } from '../fixtures/login';
import { goOnline } from '../fixtures/phone';

// SPEC §5: 挂断 is refused in a call's first 2 s (no request sent); the timer runs from the answer,
// after the start, so 00:02 on it means the click is taken
const HANGUP_ALLOWED = /^00:(0[2-9]|[1-5]\d)$/;

// Seat tasks, the agent's side (issue 15): 李四 works a task from 坐席工作台; the server dials each
// number as soon as he is free and his wrap-up is over, the in-call modal pops for each call, and
// the counters on his panel equal the task's figures. The sim line decides each call by the
// number's last digit (4: answered, the customer hangs up at 8 s; 6: busy; 7: 空号; 1: answered).

test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS] } });

// lisi's extension goes back offline whatever happens, so other specs find it as seeded.
test.afterEach(async ({ request }) => {
  const lisi = await apiLogin(request, 'lisi');
  await lisi.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 0 });
});

type Api = Awaited<ReturnType<typeof apiLogin>>;
type Detail = {
  status: number;
  totalNum: number;
  zcallNum: number;
  zcallCnum: number;
  zcallWnum: number;
  zcallBnum: number;
  zcallBillsec: number;
  leftNum: number;
  agents: { cmSid: number; zcallNum: number; zcallCnum: number; isWorking: number }[];
};

const WRAP_UP_SECONDS = 3;
/** 8 unique digits, then the sim's outcome digit */
// unique within a run: two numbers made in the same millisecond with the same random digit were one
// number to the import (a task of 5 got 4; the 3 numbers of the leaving test could be fewer)
let made = 0;
const numberEnding = (digit: string) => {
  made += 1;
  return `13${String(Date.now()).slice(-6)}${String(made % 100).padStart(2, '0')}${digit}`;
};

/** A running task of the given numbers for 李四, created and started by the admin through the API. */
const seedTask = async (admin: Api, name: string, numbers: string[]) => {
  const staff = (await admin.get<{ list: { cmSid: number; username: string }[] }>('/api/frontend/staff/list?page=1&limit=100'))
    .list;
  const lisiId = staff.find((s) => s.username === 'lisi')?.cmSid as number;
  const { cmStid } = await admin.post<{ cmStid: number }>('/api/frontend/calltask/create', {
    name,
    numbers,
    cmSidInfo: [lisiId],
    cmWeeks: [1, 2, 3, 4, 5, 6, 7],
    cmTimes: [{ start: '00:00', end: '23:59' }],
    blackState: 0,
    maxAttempts: 1,
    wrapUpSeconds: WRAP_UP_SECONDS,
  });
  await admin.post('/api/frontend/calltask/start', { cmStid });
  return { cmStid, lisiId };
};

const inCall = (page: Page) => page.locator('.ant-modal').filter({ has: page.getByTestId('call-status') });

/** Records in the page every number the call window shows, in turn (a window open for a few ms included). */
const recordCallNumbers = (page: Page) =>
  page.evaluate(() => {
    const shown: string[] = [];
    (window as unknown as { callNumbersShown: string[] }).callNumbersShown = shown;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="call-number"]')?.textContent;
      if (text && shown.at(-1) !== text) shown.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
const callNumbersShown = (page: Page) =>
  page.evaluate(() => (window as unknown as { callNumbersShown: string[] }).callNumbersShown);

const openPanel = async (page: Page, taskName: string) => {
  await loginAs(page, 'lisi');
  await goOnline(page);
  await page.goto('/seats/Index');
  const row = page.getByRole('row').filter({ hasText: taskName });
  await expect(row).toContainText('进行中');
  return row;
};

test('李四 works a 5-number task: each next call starts by itself after the wrap-up; the counters match', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await apiLogin(request, 'admin');
  const lisi = await apiLogin(request, 'lisi');
  const numbers = [numberEnding('4'), numberEnding('6'), numberEnding('7'), numberEnding('1'), numberEnding('4')];
  const customerName = `任务客户${uniq()}`;
  await createCustomer(lisi, { name: customerName, contact: '王经理', phone: numbers[0] });
  const name = `外呼任务${uniq()}`;
  const { cmStid, lisiId } = await seedTask(admin, name, numbers);

  const row = await openPanel(page, name);
  await expect(row).toContainText('已呼 0 · 接通 0 · 剩余 5 / 共 5');
  await recordCallNumbers(page);
  await row.getByRole('button', { name: '开始工作' }).click();

  const modal = inCall(page);
  const strip = page.getByTestId('task-work-strip');
  // 1: the task's customer, answered; the customer hangs up after 8 s
  await expect(modal.getByTestId('call-number')).toHaveText(numbers[0]);
  await expect(modal.getByText(customerName)).toBeVisible();
  await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
  await expect(strip).toContainText(`工作中：${name} · 通话中`);
  await expect(modal).toBeHidden({ timeout: 15_000 });
  const firstEnded = Date.now();
  await expect(strip).toContainText(/整理中 [1-3] 秒/);
  await expect(strip.getByRole('button', { name: '立即下一个' })).toBeVisible();

  // 2: nobody clicks; after the wrap-up the next number rings by itself (busy), a number without a customer
  await expect(modal.getByTestId('call-number')).toHaveText(numbers[1], { timeout: 15_000 });
  expect(Date.now() - firstEnded).toBeGreaterThanOrEqual((WRAP_UP_SECONDS - 1) * 1000);
  await expect(modal.getByText('暂无客户信息')).toBeVisible();
  await expect(strip).toContainText('呼叫中');
  await expect(modal).toBeHidden({ timeout: 15_000 });

  // 3: 空号, then 4: answered; 李四 marks it 已接通 and hangs up. The 空号 call fails at once and the
  // next starts without a wrap-up, so its window can be gone between two polls of an expect: the page's
  // own record of the numbers shown says it was there, in turn.
  await expect(modal.getByTestId('call-number')).toHaveText(numbers[3], { timeout: 35_000 });
  expect(await callNumbersShown(page)).toEqual(numbers.slice(0, 4));
  await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
  const outcome = page.getByTestId('task-outcome');
  await expect(outcome).toContainText(`本次通话：${numbers[3]}`);
  await modal.getByRole('button', { name: '关闭' }).click();
  await outcome.getByRole('button', { name: '已接通' }).click();
  await expect(page.getByText('已标记为已接通')).toBeVisible();
  await page.getByRole('button', { name: '通话中' }).click();
  await page.waitForTimeout(2_500);
  await modal.getByRole('button', { name: '挂断' }).click();
  await expect(modal).toBeHidden();

  // 5: answered, the customer hangs up; then the task is done
  await expect(modal.getByTestId('call-number')).toHaveText(numbers[4], { timeout: 15_000 });
  await expect(modal).toBeHidden({ timeout: 20_000 });
  await expect(strip).toContainText(`任务已完成：${name} · 已呼 5 个 · 接通 3 个`, { timeout: 15_000 });

  // the task's figures (counted from the call records) are the panel's
  const detail = await admin.get<Detail>(`/api/frontend/calltask/detail?cmStid=${cmStid}`);
  expect(detail).toMatchObject({ status: 4, totalNum: 5, zcallNum: 5, zcallCnum: 3, zcallWnum: 2, zcallBnum: 0, leftNum: 0 });
  expect(detail.zcallBillsec).toBeGreaterThanOrEqual(12);
  expect(detail.agents).toEqual([expect.objectContaining({ cmSid: lisiId, zcallNum: 5, zcallCnum: 3, isWorking: 0 })]);
  await page.getByText('全部', { exact: true }).click();
  await expect(row).toContainText('已完成');
  await expect(row).toContainText('已呼 5 · 接通 3 · 剩余 0 / 共 5');
  await strip.getByRole('button', { name: /关\s?闭/ }).click();
  await expect(strip).toBeHidden();

  // the manager's 坐席任务 page shows the same figures: the list, the detail's counters and the
  // per-agent figures its chart draws; the number-state chart counts 3 done, 1 not connected, 1 空号
  const managerPage = await browser.newPage();
  await loginAs(managerPage, 'admin');
  await managerPage.goto('/calltask/tasklist');
  const taskRow = managerPage.getByRole('row').filter({ hasText: name });
  await expect(taskRow).toContainText('已完成');
  await taskRow.getByRole('button', { name: '详情' }).click();
  const drawer = managerPage.locator('.ant-drawer-section');
  const stat = (title: string) =>
    drawer
      .locator('.ant-card')
      .filter({ has: managerPage.getByText(title, { exact: true }) })
      .locator('.ant-statistic-content');
  await expect(stat('总数')).toHaveText('5');
  await expect(stat('已呼')).toHaveText('5');
  await expect(stat('接通')).toHaveText('3');
  await expect(stat('未接通')).toHaveText('2');
  await expect(stat('待拨打')).toHaveText('0');
  await expect(drawer.getByText('坐席外呼统计')).toBeVisible();
  const agentRow = drawer.getByRole('row').filter({ hasText: '李四' });
  await expect(agentRow.getByRole('cell')).toContainText(['李四', '5', '3', '2']);
  const stateCount = async (state: number) =>
    (await admin.post<{ count: number }>('/api/frontend/calltask/numbers', { cmStid, state, page: 1, limit: 1 })).count;
  expect([await stateCount(2), await stateCount(3), await stateCount(5)]).toEqual([3, 1, 1]);
  await managerPage.close();
});

test('拒绝 puts the task number on the 禁拨 list after a confirmation', async ({ page, request }) => {
  test.setTimeout(90_000);
  const admin = await apiLogin(request, 'admin');
  const phone = numberEnding('1');
  const name = `拒绝任务${uniq()}`;
  await seedTask(admin, name, [phone]);

  const row = await openPanel(page, name);
  await row.getByRole('button', { name: '开始工作' }).click();
  const modal = inCall(page);
  await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
  await modal.getByRole('button', { name: '关闭' }).click();
  await page.getByTestId('task-outcome').getByRole('button', { name: '拒绝' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '客户拒绝' });
  await expect(confirm).toContainText('加入禁拨名单');
  await confirm.getByRole('button', { name: '加入禁拨名单' }).click();
  await expect(page.getByText('已标记为拒绝')).toBeVisible();
  await page.getByRole('button', { name: '通话中' }).click();
  await modal.getByRole('button', { name: '挂断' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('task-work-strip')).toContainText('任务已完成', { timeout: 15_000 });

  await expect
    .poll(async () => (await admin.get<{ list: { phone: string }[] }>(`/api/frontend/dnc/list?phone=${phone}`)).list.length)
    .toBe(1);
  // a manual dial of the number is refused too
  const lisi = await apiLogin(request, 'lisi');
  await lisi.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 1 });
  await expect(lisi.post('/api/frontend/call/dial', { dstNumber: phone })).rejects.toThrow(/禁拨名单/);
});

test('拒绝 after a call names the number and holds the next dial until the confirmation is answered', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await apiLogin(request, 'admin');
  const numbers = [numberEnding('1'), numberEnding('1')];
  const name = `拒绝确认${uniq()}`;
  const { cmStid } = await seedTask(admin, name, numbers);
  const zcallNum = async () => (await admin.get<Detail>(`/api/frontend/calltask/detail?cmStid=${cmStid}`)).zcallNum;

  const row = await openPanel(page, name);
  await row.getByRole('button', { name: '开始工作' }).click();
  const modal = inCall(page);
  await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
  await expect(modal.getByTestId('call-timer')).toHaveText(HANGUP_ALLOWED, { timeout: 5_000 });
  await modal.getByRole('button', { name: '挂断' }).click();
  await expect(modal).toBeHidden();
  const outcome = page.getByTestId('task-outcome');
  await expect(outcome).toContainText(`上一通电话：${numbers[0]}`);

  // in the wrap-up he rejects the call he just ended: the window says which number, and no next
  // call starts behind it, even well past the wrap-up
  await outcome.getByRole('button', { name: '拒绝' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '客户拒绝' });
  await expect(confirm).toContainText(`客户拒绝：${numbers[0]}`);
  await expect(confirm).toContainText(`号码 ${numbers[0]}（暂无客户信息）将加入禁拨名单`);
  await expect(confirm).toContainText('确认或取消之前不会拨打下一个号码');
  await page.waitForTimeout((WRAP_UP_SECONDS + 3) * 1000);
  await expect(modal).toBeHidden();
  expect(await zcallNum()).toBe(1);

  await confirm.getByRole('button', { name: '加入禁拨名单' }).click();
  await expect(page.getByText('已标记为拒绝')).toBeVisible();
  // answered: the next number is dialled (his wrap-up is long over)
  await expect(modal.getByTestId('call-number')).toHaveText(numbers[1], { timeout: 15_000 });
  await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
  await expect(modal.getByTestId('call-timer')).toHaveText(HANGUP_ALLOWED, { timeout: 5_000 });
  await modal.getByRole('button', { name: '挂断' }).click();
  await expect(page.getByTestId('task-work-strip')).toContainText('任务已完成', { timeout: 15_000 });
  await expect
    .poll(async () => (await admin.get<{ list: { phone: string }[] }>(`/api/frontend/dnc/list?phone=${numbers[0]}`)).list.length)
    .toBe(1);
});

// The number rings for 30 s (no answer): the agent folds the call window, logs out while it rings,
// and the task's last number is never dialled. (It was once skipped: the click on the header waited
// behind the call window until the calls had ended and the next number was dialled.)
test('leaving the page or logging out stops working: no number is dialled for an agent who is gone', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await apiLogin(request, 'admin');
  const name = `离开任务${uniq()}`;
  const { cmStid, lisiId } = await seedTask(admin, name, [numberEnding('9'), numberEnding('9'), numberEnding('9')]);
  const row = await openPanel(page, name);
  await row.getByRole('button', { name: '开始工作' }).click();
  await expect(inCall(page).getByTestId('call-status')).toHaveText('振铃中');
  const isWorking = async () =>
    (await admin.get<Detail>(`/api/frontend/calltask/detail?cmStid=${cmStid}`)).agents.find((a) => a.cmSid === lisiId)?.isWorking;
  expect(await isWorking()).toBe(1);

  await page.reload();
  await expect.poll(isWorking).toBe(0);
  await page.waitForTimeout((WRAP_UP_SECONDS + 3) * 1000);
  expect((await admin.get<Detail>(`/api/frontend/calltask/detail?cmStid=${cmStid}`)).zcallNum).toBe(1);

  // working again, then 安全退出: he stops working before the session ends
  await goOnline(page);
  await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '开始工作' }).click();
  await expect(inCall(page).getByTestId('call-status')).toHaveText('振铃中');
  expect(await isWorking()).toBe(1);
  // the ringing call's window is folded first (it is a modal above the header), then 安全退出
  await logoutByMenu(page, '李四');
  await expect.poll(isWorking, { timeout: 5_000 }).toBe(0);
  // past the wrap-up, the last number is still not dialled
  await page.waitForTimeout((WRAP_UP_SECONDS + 3) * 1000);
  expect((await admin.get<Detail>(`/api/frontend/calltask/detail?cmStid=${cmStid}`)).zcallNum).toBe(2);
});
