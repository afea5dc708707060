import { expect, test } from '@playwright/test';
import { apiLogin, DEMO_PASSWORD, uniq, uniqPhone } from '../fixtures/api';
import { loginAs, logoutByMenu } from '../fixtures/login';

test('with no token any route lands on /login', async ({ page }) => {
  await page.goto('/account/staff');
  await expect(page).toHaveURL(/\/login\?redirect=%2Faccount%2Fstaff/);
  await expect(page.getByText('账号登录')).toBeVisible();
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('抱歉，您访问的页面不存在。')).toBeVisible();
});

test('a wrong password shows the server message', async ({ page }) => {
  await page.goto('/login');
  await page.getByPlaceholder('账号或手机号').fill('wangwu');
  await page.getByPlaceholder('密码').fill('wrong-password-1');
  await page.getByRole('button', { name: /登\s?录/ }).click();
  await expect(page.getByText('账号或密码错误')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('admin creates a 销售 staff member who then sees only the menus of that role', async ({ page, request }) => {
  const username = `e2e${uniq()}`.slice(0, 20);
  const phone = uniqPhone();

  await loginAs(page, 'admin');
  // the side menu (antd's Sider is an <aside>: role complementary)
  await expect(page.getByRole('complementary').getByText('账户管理')).toBeVisible();
  await page.goto('/account/staff');
  await page.getByRole('button', { name: /新增员工/ }).click();
  const dialog = page.getByRole('dialog', { name: '新增员工' });
  await dialog.getByLabel('账号', { exact: true }).fill(username);
  await dialog.getByLabel('初始密码').fill('Welcome123');
  await dialog.getByLabel('姓名').fill('测试销售');
  await dialog.getByLabel('手机号').fill(phone);
  await dialog.getByLabel('部门').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('销售一部').click();
  await dialog.getByLabel('角色').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('销售', { exact: true }).click();
  await dialog.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  await expect(page.getByRole('cell', { name: username })).toBeVisible();

  // Log out through the user menu with its confirmation.
  await logoutByMenu(page, '系统管理员');

  // The new staff member logs in and sees only what the 销售 role grants.
  await loginAs(page, username, 'Welcome123');
  await expect(page.getByText('测试销售').first()).toBeVisible();
  const sider = page.getByRole('complementary');
  await expect(sider.getByText('工作台')).toBeVisible();
  await expect(sider.getByText('系统设置')).toBeVisible();
  await expect(sider.getByText('账户管理')).toHaveCount(0);
  await page.goto('/account/staff');
  await expect(page.getByText('抱歉，您的角色没有访问该页面的权限，请联系管理员。')).toBeVisible();

  // The server agrees with the menu: the role has no staff management.
  const api = await apiLogin(request, username, 'Welcome123');
  await expect(api.get('/api/frontend/staff/list')).rejects.toThrow('您没有访问该功能的权限');
  // and the demo password did not change for anyone else
  await apiLogin(request, 'lisi', DEMO_PASSWORD);
});
