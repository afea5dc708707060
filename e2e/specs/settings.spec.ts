import { expect, type Page, test } from '@playwright/test';
import { uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';

const OK = /确\s?定/;

/** Confirms the one delete dialog of the product (删除提示 / 确定要删除吗？). */
const confirmDelete = async (page: Page) => {
  const dialog = page.getByRole('dialog', { name: '删除提示' });
  await expect(dialog).toContainText('确定要删除吗？');
  await dialog.getByRole('button', { name: OK }).click();
};

test('admin adds a stage, renames it and deletes it after the confirm shows 删除成功', async ({ page }) => {
  const name = `阶段${uniq()}`;
  const renamed = `改名${uniq()}`;

  await loginAs(page, 'admin');
  // the menu entry appears now that the page exists
  // the side menu (antd's Sider is an <aside>: role complementary)
  const sider = page.getByRole('complementary');
  await sider.getByText('客户设置').click();
  await sider.getByText('阶段设置').click();
  await expect(page).toHaveURL(/\/set\/node$/);
  // the demo stages are listed in their order
  await expect(page.getByRole('row', { name: /初步接触/ })).toBeVisible();

  await page
    .getByRole('button', { name: /添加阶段/ })
    .first()
    .click();
  let dialog = page.getByRole('dialog', { name: '添加阶段' });
  await dialog.getByRole('button', { name: OK }).click();
  await expect(dialog.getByText('请输入阶段名称')).toBeVisible();
  await dialog.getByLabel('阶段名称').fill(name);
  await dialog.getByRole('button', { name: OK }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');

  await row.getByRole('button', { name: '编辑' }).click();
  dialog = page.getByRole('dialog', { name: '编辑阶段' });
  await expect(dialog.getByLabel('阶段名称')).toHaveValue(name);
  await dialog.getByLabel('阶段名称').fill(renamed);
  await dialog.getByRole('button', { name: OK }).click();
  await expect(page.getByText('操作成功')).toBeVisible();
  const renamedRow = page.getByRole('row', { name: new RegExp(renamed) });
  await expect(renamedRow).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);

  await renamedRow.getByRole('button', { name: '删除' }).click();
  await confirmDelete(page);
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(renamedRow).toHaveCount(0);
});

test('admin adds a tag group and a tag, disables the tag, and cannot delete the group while it has the tag', async ({ page }) => {
  const groupName = `分组${uniq()}`;
  const tagName = `标签${uniq()}`;

  await loginAs(page, 'admin');
  await page.goto('/set/label');
  await expect(page.getByRole('region', { name: '标签分组 客户意向' })).toBeVisible();

  await page
    .getByRole('button', { name: /添加分组/ })
    .first()
    .click();
  let dialog = page.getByRole('dialog', { name: '添加分组' });
  await dialog.getByLabel('分组名称').fill(groupName);
  await dialog.getByRole('button', { name: OK }).click();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  const group = page.getByRole('region', { name: `标签分组 ${groupName}` });
  await expect(group.getByText('该分组下还没有标签')).toBeVisible();

  await group.getByRole('button', { name: /添加标签/ }).click();
  dialog = page.getByRole('dialog', { name: '添加标签' });
  await expect(dialog.getByText(groupName)).toBeVisible(); // 所属分组 is the group the button sits in
  await dialog.getByLabel('标签名称').fill(tagName);
  await dialog.getByRole('button', { name: OK }).click();
  const tag = group.getByRole('row', { name: new RegExp(tagName) });
  await expect(tag).toBeVisible();

  const tagSwitch = tag.getByRole('switch');
  await expect(tagSwitch).toHaveAttribute('aria-checked', 'true');
  await tagSwitch.click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(tagSwitch).toHaveAttribute('aria-checked', 'false');
  await page.reload();
  await expect(group.getByRole('row', { name: new RegExp(tagName) }).getByRole('switch')).toHaveAttribute(
    'aria-checked',
    'false',
  );

  await group.getByRole('button', { name: '删除分组' }).click();
  await confirmDelete(page);
  await expect(page.getByText('该分组下还有标签，请先删除分组内的标签')).toBeVisible();
  await expect(page.getByText('删除成功')).toHaveCount(0);
  await expect(group).toBeVisible();
});
