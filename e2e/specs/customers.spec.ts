import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiLogin, uniq, uniqPhone } from '../fixtures/api';
import { loginAs } from '../fixtures/login';

type RoleRow = { cmArid: number; name: string; remark: string; dataScope: number; menuIds: number[]; actions: string[] };

const EXPORT_ACTION = 'frontend/customer/export';

/**
 * The demo 销售 role cannot export; the scenario is the export itself, not the role editor, so the
 * permission is granted through the API and the role is put back as it was afterwards.
 */
const grantSalesExport = async (request: APIRequestContext) => {
  const admin = await apiLogin(request, 'admin');
  const roles = await admin.get<{ list: RoleRow[] }>('/api/frontend/role/list');
  const role = roles.list.find((r) => r.name === '销售');
  if (!role) throw new Error('no 销售 role');
  const save = (actions: string[]) =>
    admin.post('/api/frontend/role/edit', {
      cmArid: role.cmArid,
      name: role.name,
      remark: role.remark,
      dataScope: role.dataScope,
      menuIds: role.menuIds,
      actions,
    });
  if (!role.actions.includes(EXPORT_ACTION)) await save([...role.actions, EXPORT_ACTION]);
  return () => save(role.actions);
};

/** Picks a path in the (open) cascader dropdown, one column per level. */
const pickCascader = async (page: Page, path: string[]) => {
  const menus = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu');
  for (const [level, label] of path.entries()) {
    // The dropdown may still be sliding in with the modal: retry until the next column opens.
    await expect(async () => {
      await menus.nth(level).getByTitle(label, { exact: true }).click({ timeout: 2000 });
      if (level < path.length - 1) await expect(menus.nth(level + 1)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
  }
};

const tableRows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');

/** The table shows exactly this one customer. */
const expectOnlyRow = async (page: Page, name: string) => {
  await expect(tableRows(page)).toHaveCount(1);
  await expect(tableRows(page).first()).toContainText(name);
  await expect(page.getByText('共 1 条')).toBeVisible();
};

const okButton = (dialog: Locator) => dialog.getByRole('button', { name: /确\s?定/ });

test('a new phone control is filled in on a new customer, who is found, edited and exported', async ({ page, request }) => {
  const suffix = uniq();
  const controlName = `备用电话${suffix}`.slice(0, 20);
  const spare = uniqPhone();
  const mobile = `137${spare.slice(3)}`;
  const name = `e2e客户${suffix}`;
  const renamed = `${name}改`;
  const contact = `联系人${suffix}`.slice(0, 20);

  // 1. admin adds a phone control to the customer template.
  await loginAs(page, 'admin');
  await page.goto('/client/clienttemplate');
  const controlsCard = page.locator('.ant-card').filter({ hasText: '模板控件' });
  const previewCard = page.locator('.ant-card').filter({ hasText: '实时预览' });
  await expect(controlsCard.getByRole('row').filter({ hasText: '手机' }).first()).toBeVisible();
  await page.getByRole('button', { name: '添加控件' }).click();
  const addControl = page.getByRole('dialog', { name: '添加控件' });
  await addControl.getByLabel('控件名称').fill(controlName);
  // The kind select is searchable: type the kind and take the one match with Enter.
  const kind = addControl.getByLabel('控件类型');
  await kind.click();
  await kind.fill('电话');
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveText(['电话']);
  await kind.press('Enter');
  await expect(addControl.getByText('手机号或座机号，可设置查重')).toBeVisible();
  await okButton(addControl).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  await expect(addControl).toBeHidden();
  const controlRow = controlsCard.getByRole('row').filter({ hasText: controlName });
  await expect(controlRow).toBeVisible();
  await expect(controlRow).toContainText('电话');
  await expect(previewCard.getByLabel(controlName)).toBeVisible();

  // lisi's role may export for the duration of this test.
  const restoreRole = await grantSalesExport(request);
  try {
    // 2. lisi adds a customer with the new control and a region.
    await loginAs(page, 'lisi');
    await page.goto('/manage/mycustomer');
    await expect(tableRows(page).first()).toBeVisible();
    await page.getByRole('button', { name: '新增客户' }).click();
    const addDialog = page.getByRole('dialog', { name: '新增客户' });
    await expect(addDialog).toHaveCSS('width', '600px');
    await expect(addDialog.getByLabel(controlName)).toBeVisible();
    await addDialog.getByLabel('客户名称').fill(name);
    await addDialog.getByLabel('联系人').fill(contact);
    await addDialog.getByLabel('手机', { exact: true }).fill(mobile);
    await addDialog.getByLabel(controlName).fill(spare);
    await addDialog.getByLabel('地区').click();
    await pickCascader(page, ['北京市', '北京市', '海淀区']);
    await expect(addDialog.getByTitle('北京市 / 北京市 / 海淀区')).toBeVisible();
    await okButton(addDialog).click();
    await expect(page.getByText('提交成功')).toBeVisible();
    await expect(addDialog).toBeHidden();
    await expect(tableRows(page).filter({ hasText: name })).toHaveCount(1);
    expect(await tableRows(page).count()).toBeGreaterThan(1);

    // 3. Found by the number of the new control, then by region alone.
    await page.getByPlaceholder('联系电话').fill(spare);
    await page.getByRole('button', { name: /查\s?询/ }).click();
    await expectOnlyRow(page, name);

    await page.getByRole('button', { name: /重\s?置/ }).click();
    await expect(page.getByPlaceholder('联系电话')).toHaveValue('');
    await expect.poll(() => tableRows(page).count()).toBeGreaterThan(1);
    await page.getByRole('button', { name: /更多筛选/ }).click();
    const regionFilter = page.locator('form[id^="customerSearch"] .ant-cascader').filter({ hasText: '地区' });
    await regionFilter.click();
    await pickCascader(page, ['北京市', '北京市', '海淀区']);
    await page.getByRole('button', { name: /查\s?询/ }).click();
    await expectOnlyRow(page, name);

    // 4. Edit: the stored values are shown; the new name reaches the table.
    await tableRows(page).filter({ hasText: name }).getByRole('button', { name: '编辑' }).click();
    const editDialog = page.getByRole('dialog', { name: '编辑客户' });
    await expect(editDialog.getByLabel('客户名称')).toHaveValue(name);
    await expect(editDialog.getByLabel('联系人')).toHaveValue(contact);
    await expect(editDialog.getByLabel('手机', { exact: true })).toHaveValue(mobile);
    await expect(editDialog.getByLabel(controlName)).toHaveValue(spare);
    await expect(editDialog.getByTitle('北京市 / 北京市 / 海淀区')).toBeVisible();
    await editDialog.getByLabel('客户名称').fill(renamed);
    // The add's message has gone, so the one below is the edit's.
    await expect(page.getByText('提交成功')).toBeHidden();
    await okButton(editDialog).click();
    await expect(page.getByText('提交成功')).toBeVisible();
    await expect(editDialog).toBeHidden();
    await expectOnlyRow(page, renamed);

    // 5. Export the (filtered) list: a background job, then an .xlsx download.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: '导出' }).click();
    const exportDialog = page.getByRole('dialog', { name: '导出客户' });
    await expect(exportDialog.getByText('导出完成')).toBeVisible();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const cells: string[] = [];
    for (const sheet of workbook.worksheets) {
      sheet.eachRow((row) => {
        row.eachCell((cell) => {
          cells.push(cell.text);
        });
      });
    }
    expect(cells).toContain(renamed);
    expect(cells).toContain(spare);
    expect(cells).not.toContain(name);
    await exportDialog.getByRole('button', { name: /完\s?成/ }).click();
    await expect(exportDialog).toBeHidden();
  } finally {
    await restoreRole();
  }
});

test('a required control left empty shows its message and nothing is saved', async ({ page }) => {
  const name = `e2e未保存${uniq()}`;
  await loginAs(page, 'lisi');
  await page.goto('/manage/mycustomer');
  await expect(tableRows(page).first()).toBeVisible();
  await page.getByRole('button', { name: '新增客户' }).click();
  const dialog = page.getByRole('dialog', { name: '新增客户' });
  await dialog.getByLabel('客户名称').fill(name);
  await dialog.getByLabel('手机', { exact: true }).fill(uniqPhone());
  await okButton(dialog).click();
  await expect(dialog.getByText('联系人不能为空')).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /取\s?消/ }).click();
  await expect(dialog).toBeHidden();

  await page.getByPlaceholder('客户名称', { exact: true }).fill(name);
  await page.getByRole('button', { name: /查\s?询/ }).click();
  await expect(page.getByText('暂无客户')).toBeVisible();
  await expect(tableRows(page)).toHaveCount(0);
});
