import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiLogin, uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';
import { shot } from '../fixtures/shots';

// AI外呼 (issue 16) on the sim line: the admin creates an AI task of 20 numbers on the demo
// (published) 话术 in the form, starts it, watches the progress, reads the report and opens an AI
// call's detail, where a turn's clip plays and starting another pauses the first (SPEC §2); the
// customer the call made has a type 4 follow whose 查看详情 opens the same detail (SPEC §4).
// The sim line decides each call by the number's last digit (1–4 answered; 6 busy, 7 空号, 8 关机,
// 0 rejected) and the sim customer's script by the one before (0 interested, 1 refuses, 2 silent,
// 3 presses 1, 4 off the point).

const DEMO_FLOW = '云呼CRM推广（示例）';
const ANSWERED = 14;

/** 20 numbers: 14 answered over the five scripts, then 6 that never connect. */
const taskNumbers = () => {
  const stamp = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  return Array.from({ length: 20 }, (_, i) => {
    const outcome = i < ANSWERED ? (i % 4) + 1 : [6, 7, 8, 0, 6, 7][i - ANSWERED];
    return `13${stamp}${String(i).padStart(2, '0')}${i % 5}${outcome}`;
  });
};

/** Picks an option of an antd Select by its label (the dropdown lives in the page's body). */
const pick = async (page: Page, select: Locator, option: string | RegExp) => {
  await select.click();
  await page.locator('.ant-select-dropdown:visible').getByText(option).first().click();
};

/** Sets a time range picker by typing: the start, Enter (the end input takes the focus), the end, Enter. */
const typeRange = async (page: Page, start: Locator, from: string, to: string) => {
  await start.click();
  await start.fill(from);
  await start.press('Enter');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(to);
  await page.keyboard.press('Enter');
};

const isPaused = (audio: Locator) => audio.evaluate((el) => (el as HTMLAudioElement).paused);

test('an AI task of 20 numbers runs on the demo flow: progress, report, an AI call detail that plays one clip at a time, and the AI follow that opens it', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await loginAs(page, 'admin');
  await page.goto('/aicall/Index');
  await expect(page.getByRole('menuitem', { name: 'AI外呼任务' })).toBeVisible();

  // 新建任务: the seat-task form with the bot's section
  const name = `AI任务${uniq()}`;
  await page.getByRole('button', { name: '新建任务' }).click();
  const form = page.locator('.ant-modal').filter({ hasText: '新建AI外呼任务' });
  await form.getByLabel('任务名称').fill(name);
  await pick(page, form.getByLabel('话术'), new RegExp(`${DEMO_FLOW}（v\\d+）`));
  await form.getByLabel('并发线路数').fill('10');
  await form.getByRole('tab', { name: '导入号码' }).click();
  await form.getByRole('textbox', { name: '导入号码' }).fill(taskNumbers().join('\n'));
  await form.getByText('周六', { exact: true }).click();
  await form.getByText('周日', { exact: true }).click();
  await form.getByRole('button', { name: '删除时段' }).first().click();
  await typeRange(page, form.getByLabel('外呼时段1').first(), '00:00', '23:55');
  await expect(form.getByLabel('外呼时段1').last()).toHaveValue('23:55');
  await form.getByRole('button', { name: '创建任务' }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  await expect(form).toBeHidden();

  // start it (with its confirmation) and watch the progress
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(DEMO_FLOW);
  await expect(row).toContainText('未开始');
  await expect(row.getByTestId('lines')).toHaveText('0/10');
  await row.getByRole('button', { name: /^开\s?始$/ }).click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /^开\s?始$/ })
    .click();
  await expect(page.getByText('任务已开始')).toBeVisible();
  await expect(row).toContainText('进行中');
  await expect(row.getByTestId('grade-E')).toBeVisible({ timeout: 60_000 });
  await expect(row).toContainText('已完成', { timeout: 150_000 });
  await expect(row).toContainText(`${((ANSWERED / 20) * 100).toFixed(1)}%`);
  await expect(row.getByTestId('grade-E')).toHaveText(`E ${20 - ANSWERED}`);

  // the report
  await row.getByRole('button', { name: /^详\s?情$/ }).click();
  const drawer = page.locator('.ant-drawer').filter({ hasText: 'AI通话记录' });
  await expect(drawer.getByTestId('report-已呼')).toContainText('20');
  await expect(drawer.getByTestId('report-接通')).toContainText(String(ANSWERED));
  await expect(drawer.getByTestId('report-接通率')).toContainText('70');
  await expect(drawer.getByText('意向等级分布')).toBeVisible();
  await expect(drawer.getByText('每日外呼')).toBeVisible();
  await expect(drawer.locator('canvas')).toHaveCount(2);
  await expect(drawer.getByText(`共 20 条`)).toBeVisible();
  await drawer.getByRole('button', { name: '导出' }).click();
  const exporting = page.locator('.ant-modal').filter({ hasText: '导出AI通话' });
  await expect(exporting.getByText('导出完成')).toBeVisible({ timeout: 20_000 });
  await expect(exporting).toContainText('共导出 20 条');
  await exporting.getByRole('button', { name: /^完\s?成$/ }).click();
  await expect(exporting).toBeHidden();

  // an AI call of an interested customer (script 0: 有兴趣, 多少钱 (a knowledge-base answer), then 好的 → 转人工
  // on the demo flow, A or B by its rules; its turns are spoken, so each has a clip — a keypad call's key press
  // has none): its detail and its clips
  // matched on the number's own cell: the row's whole text runs the customer's name (客户 + the
  // number's last four digits) into the number, where a pattern over the row found a script-3 row
  const interested = drawer
    .getByRole('row')
    .filter({ hasText: /[AB] · \d+分/ })
    .filter({ has: page.getByRole('cell', { name: /^13\d{7}0[1-4]$/ }) });
  const phone = (await interested.first().getByRole('cell').nth(2).textContent())?.trim() ?? '';
  await interested
    .first()
    .getByRole('button', { name: /^详\s?情$/ })
    .click();
  const dialog = page.locator('.ant-modal').filter({ hasText: 'AI通话详情' });
  await expect(dialog.getByText(DEMO_FLOW)).toBeVisible();
  const turns = dialog.getByTestId('ai-turn');
  await expect(turns.first()).toContainText('机器人');
  expect(await turns.count()).toBeGreaterThanOrEqual(2);
  // the node as the admin named it (the starter's 开场白), not its key; the customer the call made is named
  await expect(turns.first()).toContainText('开场白');
  await expect(dialog.getByText('暂无客户信息')).toHaveCount(0);
  // the whole recording: labelled by its start and length, offered for download (once the call record holds it)
  const recording = dialog.getByTestId('call-recording-label');
  if (await recording.isVisible()) {
    await expect(recording).toContainText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} · /);
    await expect(dialog.getByRole('link', { name: /下\s?载/ })).toHaveAttribute('download', /^AI通话录音_\d+_\d{8}_\d{6}\.wav$/);
  }
  await shot(page, 'aicall-detail');
  const clips = dialog.getByTestId('turn-audio');
  await dialog.getByRole('button', { name: '播放第1句' }).click();
  await expect.poll(() => isPaused(clips.nth(0))).toBe(false);
  await expect(dialog.getByRole('button', { name: '暂停第1句' })).toBeVisible();
  await dialog.getByRole('button', { name: '播放第2句' }).click();
  await expect.poll(() => isPaused(clips.nth(1))).toBe(false);
  expect(await isPaused(clips.nth(0))).toBe(true);
  await expect(dialog.getByRole('button', { name: '播放第1句' })).toBeVisible();
  await dialog.getByRole('button', { name: '暂停第2句' }).click();
  await expect.poll(() => isPaused(clips.nth(1))).toBe(true);

  await dialog.locator('.ant-modal-close').click();
  await expect(dialog).toBeHidden();

  // the customer it made (A/B go into the CRM, to the task's creator): its AI follow opens the same detail
  const admin = await apiLogin(request, 'admin');
  const found = await admin.post<{ list: { cmCtid: number }[] }>('/api/frontend/customer/minelist', {
    page: 1,
    limit: 10,
    contactPhone: phone,
  });
  expect(found.list).toHaveLength(1);
  await page.goto(`/manage/mycustomer?detail=${found.list[0].cmCtid}`);
  const customer = page.getByRole('dialog').filter({ has: page.getByRole('tab', { name: '跟进记录' }) });
  await customer.getByRole('tab', { name: '跟进记录' }).click();
  const follow = customer.getByTestId('follow-item').filter({ hasText: 'AI跟进' });
  await expect(follow).toContainText(/[AB]级/);
  await follow.getByTestId('ai-follow-detail').click();
  await expect(dialog.getByText(phone)).toBeVisible();
  await expect(dialog.getByTestId('ai-turn').first()).toContainText('机器人');
});

test('AI接待: a reception number is added on the demo flow, edited and deleted after the confirmation', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await loginAs(page, 'admin');
  await page.goto('/aireception/Index');
  await expect(page.getByRole('tab', { name: '接待记录' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: '接待设置' }).click();
  const number = `400${String(Date.now()).slice(-7)}`;

  await page.getByRole('button', { name: '新增接待号码' }).click();
  const form = page.locator('.ant-modal').filter({ hasText: '新增接待号码' });
  await form.getByLabel('接待号码').fill('40-0');
  await form.getByRole('button', { name: /^确\s?定$/ }).click();
  await expect(form.getByText('请输入正确的接待号码')).toBeVisible();
  await expect(form.getByText('请选择话术')).toBeVisible();
  await form.getByLabel('接待号码').fill(number);
  await pick(page, form.getByLabel('话术'), new RegExp(`${DEMO_FLOW}（v\\d+）`));
  await form.getByRole('button', { name: /^确\s?定$/ }).click();
  await expect(page.getByText('添加成功')).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: number });
  await expect(row).toContainText(DEMO_FLOW);
  await expect(row).toContainText('09:00–18:00');
  await expect(row).toContainText('不转人工');
  await expect(row).toContainText('启用');

  await row.getByRole('button', { name: /^编\s?辑$/ }).click();
  const edit = page.locator('.ant-modal').filter({ hasText: '编辑接待号码' });
  await expect(edit.getByLabel('接待号码')).toHaveValue(number);
  await typeRange(page, edit.getByPlaceholder('开始时间'), '08:00', '20:00');
  await edit.getByLabel('启用').click();
  await edit.getByRole('button', { name: /^确\s?定$/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(row).toContainText('08:00–20:00');
  await expect(row).toContainText('停用');

  await row.getByRole('button', { name: /^删\s?除$/ }).click();
  const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '删除提示' });
  await expect(confirm).toContainText(`确定删除接待号码 ${number} 吗？`);
  await confirm.getByRole('button', { name: /^确\s?定$/ }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('AI接待 模拟来电: a refusing caller rings the demo number; the bot answers and the call is in 接待记录', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await loginAs(page, 'admin');
  await page.goto('/aireception/Index');
  await page.getByRole('tab', { name: '接待设置' }).click();
  const row = page.getByRole('row').filter({ hasText: '4006001000' });
  await expect(row).toContainText('00:00–24:00');
  await row.getByRole('button', { name: '模拟来电' }).click();
  const modal = page.locator('.ant-modal').filter({ hasText: '模拟来电 · 4006001000' });
  await expect(modal.getByLabel('来电号码')).toHaveValue('13800130001');
  // a bad number is refused in the form
  await modal.getByLabel('来电号码').fill('12a');
  await modal.getByRole('button', { name: /^呼\s?叫$/ }).click();
  await expect(modal.getByText('请正确输入来电号码')).toBeVisible();
  // the refusing caller (script 1), on a number of this run
  await pick(page, modal.getByLabel('模拟客户'), /^拒绝的客户/);
  await expect(modal.getByLabel('来电号码')).toHaveValue('13800130011');
  const caller = `1380${String(Date.now()).slice(-5)}11`;
  await modal.getByLabel('来电号码').fill(caller);
  await modal.getByRole('button', { name: /^呼\s?叫$/ }).click();
  await expect(page.getByText('来电已发起，通话结束后可在接待记录中查看')).toBeVisible();
  await expect(modal).toBeHidden();

  await page.getByRole('tab', { name: '接待记录' }).click();
  const record = page.getByRole('row').filter({ hasText: caller });
  await expect(record).toContainText(DEMO_FLOW, { timeout: 40_000 });
  await expect(record).toContainText(/D · \d+分/);
  await record.getByRole('button', { name: /^详\s?情$/ }).click();
  const dialog = page.locator('.ant-modal').filter({ hasText: 'AI通话详情' });
  await expect(dialog.getByTestId('ai-turn').first()).toContainText('开场白');
  await expect(dialog.getByText('不需要')).toBeVisible();
});
