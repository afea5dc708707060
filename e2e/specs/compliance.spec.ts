import { expect, test } from '@playwright/test';
import { apiLogin, uniqPhone } from '../fixtures/api';
import { loginAs } from '../fixtures/login';

// Calling compliance (issue 15): the admin puts a number on the 禁拨 list, an agent's dial to it is
// refused and logged in 外呼拦截记录, and the admin deletes the entry after confirming.

test('禁拨名单: add, a dial refused and logged, delete after confirming', async ({ page, request }) => {
  const phone = uniqPhone();
  await loginAs(page, 'admin');
  await page.goto('/blacklist/dnc');
  await expect(page.getByText('禁拨名单').first()).toBeVisible();
  await page.getByRole('button', { name: /添加号码/ }).click();
  const modal = page.getByRole('dialog', { name: '添加禁拨号码' });
  await modal.getByLabel('号码').fill(phone);
  await modal.getByLabel('原因').fill('客户明确拒绝');
  await modal.getByRole('button', { name: /添\s?加/ }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: phone });
  await expect(row).toContainText('客户明确拒绝');
  await expect(row).toContainText('手动添加');

  // 李四 dials it: refused with the reason, and the refusal is in the log
  const lisi = await apiLogin(request, 'lisi');
  await lisi.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 1 });
  await expect(lisi.post('/api/frontend/call/dial', { dstNumber: phone })).rejects.toThrow(
    '该号码已在禁拨名单中（客户明确拒绝），不能拨打',
  );
  await page.goto('/blacklist/refusals');
  const refusal = page.getByRole('row').filter({ hasText: phone });
  await expect(refusal).toContainText('李四');
  await expect(refusal).toContainText('禁拨名单');

  await page.goto('/blacklist/dnc');
  await page.getByRole('row').filter({ hasText: phone }).getByRole('button', { name: '删除' }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /删\s?除/ })
    .click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: phone })).toHaveCount(0);
});
