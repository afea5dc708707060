import { expect, test } from '@playwright/test';
import { apiLogin, uniq } from '../fixtures/api';
import { closeOpenedPages, loginAs, openPage } from '../fixtures/login';
import { shot } from '../fixtures/shots';

// Tasks say why they wait (issue 23): a running seat task outside its calling days shows, at
// 1366 × 768, 不在外呼时段 and when it dials next in 坐席任务, in its details and on 李四's
// 坐席工作台 (我的任务). Its only calling day is tomorrow on the server's business clock, so the
// spec holds at any hour without moving the clock.

test.afterEach(closeOpenedPages);

test('a running task outside its days says 不在外呼时段 and its next dial, in the list, the details and the workbench', async ({
  page,
  request,
  browser,
}) => {
  const admin = await apiLogin(request, 'admin');
  const { now } = await admin.get<{ now: string }>('/api/frontend/test/clock');
  // 1 Monday … 7 Sunday of the server's business day (Beijing), and the day after it
  const today = new Date(`${now.slice(0, 10)}T00:00:00Z`).getUTCDay() || 7;
  const tomorrow = (today % 7) + 1;
  const staff = (await admin.get<{ list: { cmSid: number; username: string }[] }>('/api/frontend/staff/list?page=1&limit=100'))
    .list;
  const lisiId = staff.find((s) => s.username === 'lisi')?.cmSid as number;
  const name = `明日任务${uniq()}`;
  const { cmStid } = await admin.post<{ cmStid: number }>('/api/frontend/calltask/create', {
    name,
    numbers: [`137${String(Date.now()).slice(-8)}`],
    cmSidInfo: [lisiId],
    cmWeeks: [tomorrow],
    cmTimes: [{ start: '09:00', end: '12:00' }],
  });
  await admin.post('/api/frontend/calltask/start', { cmStid });
  try {
    await loginAs(page, 'admin');
    await page.goto('/calltask/tasklist');
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row.getByTestId('task-wait')).toHaveText('不在外呼时段下次 明天 09:00');
    await shot(page, 'task-wait-list');
    await row.getByText(name).click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: name });
    await expect(drawer.getByTestId('task-wait')).toContainText('不在外呼时段，下次拨号 明天 09:00');
    await shot(page, 'task-wait-detail');
    await page.keyboard.press('Escape');
    // the create form keeps the default window in sight at its foot
    await page.getByRole('button', { name: '新建任务' }).click();
    await expect(page.getByTestId('task-window-summary')).toContainText('只在 周一至周五 09:00–12:00、14:00–18:00 自动拨号');
    await shot(page, 'task-wait-form');

    const agent = await openPage(browser, 'lisi');
    await agent.goto('/seats/Index');
    const mine = agent.getByRole('row').filter({ hasText: name });
    await expect(mine.getByTestId('task-wait')).toHaveText('不在外呼时段下次 明天 09:00');
    await mine.scrollIntoViewIfNeeded();
    await shot(agent, 'task-wait-workbench');
  } finally {
    await admin.post('/api/frontend/calltask/stop', { cmStid });
  }
});
