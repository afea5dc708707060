import { expect, test } from '@playwright/test';
import { loginAs } from '../fixtures/login';

const SAVE = /保\s?存/;

test('admin sets 外呼设置 (a bad caller number is refused) and a 试呼 on a sim number is answered, plays and ends', async ({
  page,
}) => {
  await loginAs(page, 'admin');
  await page
    .getByRole('menuitem', { name: '人工坐席' })
    .or(page.getByText('人工坐席', { exact: true }))
    .first()
    .click();
  const sider = page.getByRole('complementary');
  await sider.getByText('外呼设置').click();
  await expect(page).toHaveURL(/\/call\/setting$/);

  const settings = page.locator('form[id="callSettingsForm"]');
  await settings.getByLabel('外显号码').fill('123');
  await settings.getByRole('button', { name: SAVE }).click();
  await expect(settings.getByText('请输入正确的外显号码')).toBeVisible();
  await settings.getByLabel('外显号码').fill('057188886666');
  // the test runs at any hour: the company may call around the clock (the demo company's seed says so already)
  if (!(await settings.getByRole('checkbox', { name: '全天' }).isChecked())) await settings.getByText('全天').click();
  await settings.getByRole('button', { name: SAVE }).click();
  await expect(page.getByText('保存成功')).toBeVisible();

  const testForm = page.locator('form[id="testCallForm"]');
  // sim line: a number ending in 1 answers after a few seconds
  await testForm.getByLabel('测试号码').fill(`1390000${String(Date.now()).slice(-3)}1`);
  await testForm.getByLabel('提示语').fill('您好，线路测试');
  await testForm.getByRole('button', { name: /试\s?呼/ }).click();
  const progress = page.getByTestId('test-call-progress');
  await expect(progress.getByText('已接通', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(progress.getByText('播放提示语')).toBeVisible();
  await expect(progress.getByText('已结束', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(progress.getByText('提示语播放完毕')).toBeVisible();
  await expect(progress.getByText('已结束（正常挂断）')).toBeVisible();

  // the test call is in 通话记录 like every server call, from the caller number just saved
  await sider.getByText('通话记录').click();
  await expect(page.getByRole('row', { name: /057188886666/ }).first()).toBeVisible();
});
