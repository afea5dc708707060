import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from '../chromium';
import { apiLogin, uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';
import { goOnline } from '../fixtures/phone';

// Group calling (人工群呼, issue 15) on the sim line: the admin's group task dials three customers
// for 李四 at once; the first to answer rings 李四's browser and he takes it, the second answers
// while he is busy and hears the abandon message, the third is busy. The admin's live board shows
// the figures. The sim line decides each call by the number's last digit (1, 2 answered; 6 busy).

test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS] } });

test.afterEach(async ({ request }) => {
  const lisi = await apiLogin(request, 'lisi');
  await lisi.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 0 });
});

/** 8 unique digits, then the sim's outcome digit */
const numberEnding = (digit: string) => `13${String(Date.now()).slice(-7)}${Math.floor(Math.random() * 10)}${digit}`;

test('a group task connects one customer to 李四, abandons one, and the board shows the figures', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await apiLogin(request, 'admin');
  const lisi = await apiLogin(request, 'lisi');
  const staff = (await admin.get<{ list: { cmSid: number; username: string }[] }>('/api/frontend/staff/list?page=1&limit=100'))
    .list;
  const lisiId = staff.find((s) => s.username === 'lisi')?.cmSid as number;
  const name = `群呼任务${uniq()}`;
  const { cmStid } = await admin.post<{ cmStid: number }>('/api/frontend/groupcall/create', {
    name,
    numbers: [numberEnding('1'), numberEnding('2'), numberEnding('6')],
    cmSidInfo: [lisiId],
    cmWeeks: [1, 2, 3, 4, 5, 6, 7],
    cmTimes: [{ start: '00:00', end: '23:59' }],
    blackState: 0,
    maxLines: 3,
    maxAttempts: 1,
    wrapUpSeconds: 5,
  });

  // the admin sees the task on 群呼任务 and starts it there
  const adminContext = await browser.newContext();
  const board = await adminContext.newPage();
  await loginAs(board, 'admin');
  await board.goto('/groupcall/Index');
  const row = board.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('未开始');
  await row.getByRole('button', { name: /^开\s?始$/ }).click();
  await board
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /^开\s?始$/ })
    .click();
  await expect(row).toContainText('进行中');

  // 李四 is online and works the task: his browser rings for the first customer who answers
  await loginAs(page, 'lisi');
  await goOnline(page);
  await lisi.post('/api/frontend/groupcall/work', { cmStid });
  const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('call-status') });
  await expect(modal.getByTestId('call-status')).toHaveText('振铃中', { timeout: 20_000 });
  await modal.getByRole('button', { name: '接听' }).click();
  await expect(modal.getByTestId('call-status')).toHaveText('通话中');

  // the live board: one connected, one abandoned of two answered (50%, over the 3% target), one line in use
  await row.getByRole('button', { name: /^看\s?板$/ }).click();
  const live = board.getByTestId('group-board');
  await expect(live.getByTestId('board-connected')).toContainText('1', { timeout: 20_000 });
  await expect(live.getByTestId('board-answered')).toContainText('2');
  await expect(live.getByTestId('board-abandon')).toContainText('50');
  await expect(live.getByTestId('board-lines')).toContainText('1/3');
  await expect(live.getByTestId('board-talking')).toContainText('1');
  await expect(live.getByText('李四 · 通话中')).toBeVisible();

  await modal.getByRole('button', { name: '挂断' }).click();
  await expect(modal).toBeHidden();
  await expect(live.getByTestId('board-lines')).toContainText('0/3', { timeout: 20_000 });
  // each number had its one attempt: the task may have completed on its own (then stop is refused)
  await admin.post('/api/frontend/groupcall/stop', { cmStid }).catch(() => undefined);
  await adminContext.close();
});
