import { expect, type Page, test } from '@playwright/test';
import { apiLogin, createCustomer, uniq, uniqPhone } from '../fixtures/api';
import { loginAs } from '../fixtures/login';

type Staff = { cmSid: number; username: string; cmDid: number };

/** The customer detail drawer: the dialog that holds the 跟进记录 tab (the modals over it do not). */
const drawerOf = (page: Page) => page.getByRole('dialog').filter({ has: page.getByRole('tab', { name: '跟进记录' }) });
const rules = (recycle: Record<string, unknown> = {}) => ({
  recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [], ...recycle },
  claim: { dailyMax: 0, cooldownDays: 3 },
});

test.afterEach(async ({ request }) => {
  await request.post('/api/frontend/test/clock', { data: { offsetSeconds: 0 } });
});

test('discard with 其他, claim by a colleague with a masked number, cooldown for the former owner, and 系统回收', async ({
  page,
  request,
}) => {
  const admin = await apiLogin(request, 'admin');
  const lisi = await apiLogin(request, 'lisi');
  const suffix = uniq();
  const poolName = `E2E公海${suffix}`;
  const name = `公海测试${suffix}`;
  const phone = uniqPhone();

  // Setup through the API: a pool for 销售一部 with a 3-day cooldown, and a tag that limits recycling to this customer.
  const staff = (await admin.get<{ list: Staff[] }>('/api/frontend/staff/list?page=1&limit=100')).list;
  const dept1 = staff.find((s) => s.username === 'lisi')?.cmDid as number;
  const group = await admin.post<{ cmClid: number }>('/api/frontend/customerset/labelcreate', {
    pid: 0,
    name: `回收组${suffix}`,
  });
  const tag = await admin.post<{ cmClid: number }>('/api/frontend/customerset/labelcreate', {
    pid: group.cmClid,
    name: `回收${suffix}`,
  });
  const { cmHsid } = await admin.post<{ cmHsid: number }>('/api/frontend/customerset/highseasdcreate', {
    name: poolName,
    useCmDids: [dept1],
    useRules: rules({ cmClids: [tag.cmClid] }),
  });
  const cmCtid = await createCustomer(lisi, { name, contact: '钱经理', phone });
  await admin.post('/api/frontend/customer/label', { cmCtids: [cmCtid], cmClids: [tag.cmClid] });

  // 李四 discards from the detail drawer: pool, then 其他 with a text.
  await loginAs(page, 'lisi');
  await page.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = drawerOf(page);
  await drawer.getByRole('button', { name: '丢入公海' }).click();
  const dialog = page.getByRole('dialog', { name: '丢入公海' });
  await dialog.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByText('请选择目标公海！')).toBeVisible();
  await dialog.getByText(poolName).click();
  await dialog.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByText('请选择丢弃理由！')).toBeVisible();
  await dialog.getByText('其他', { exact: true }).click();
  await dialog.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByText('请填写丢弃理由！')).toBeVisible();
  await dialog.getByLabel('其他理由').fill('客户预算下季度才批');
  await page.screenshot({ path: '.tmp/pools-discard-dialog.png' });
  await dialog.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByText('丢弃成功！')).toBeVisible();

  // The former owner finds it in 公海客户 but may not take it back during the cooldown.
  await page.goto('/manage/seascustomer');
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByText('客户预算下季度才批')).toBeVisible();
  await row.getByRole('button', { name: '领取' }).click();
  await expect(page.getByText(/之前不能重新领取/)).toBeVisible();

  // 王五 (same department) sees the masked number and claims it.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginAs(page, 'wangwu');
  await page.goto('/manage/seascustomer');
  const wRow = page.getByRole('row', { name: new RegExp(name) });
  const masked = `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  await expect(wRow.getByText(masked)).toBeVisible();
  await expect(wRow.getByText(phone)).toHaveCount(0);
  await page.screenshot({ path: '.tmp/pools-seas.png', fullPage: true });
  await wRow.getByRole('button', { name: '领取' }).click();
  await expect(page.getByText('领取成功')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);

  // The admin turns on a 1-day no-follow-up rule, moves the clock and runs the sweep.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginAs(page, 'admin');
  await page.goto('/set/highseas');
  await page
    .getByRole('row', { name: new RegExp(poolName) })
    .getByRole('button', { name: '编辑' })
    .click();
  const form = page.getByRole('dialog', { name: '编辑公海' });
  await form.getByLabel('开启自动回收').click();
  await form.getByRole('spinbutton', { name: '未跟进天数' }).fill('1');
  await page.screenshot({ path: '.tmp/pools-form.png' });
  await form.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(poolName) }).getByText('回收：1天未跟进')).toBeVisible();
  await request.post('/api/frontend/test/clock', { data: { offsetSeconds: 2 * 86_400 } });
  await page.getByRole('button', { name: '立即回收' }).click();
  await expect(page.getByText(/回收完成，共回收\d+个客户/)).toBeVisible();
  await page.screenshot({ path: '.tmp/pools-settings.png', fullPage: true });

  await page.goto(`/manage/seascustomer?detail=${cmCtid}`);
  const seasDrawer = drawerOf(page);
  await seasDrawer.getByRole('tab', { name: '跟进记录' }).click();
  await expect(seasDrawer.getByText(/系统回收/).first()).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) }).getByText('系统回收')).toBeVisible();

  // leave the shared e2e server as it was
  await admin.post('/api/frontend/customerset/highseasedit', {
    cmHsid,
    name: poolName,
    useCmDids: [dept1],
    useRules: rules({ cmClids: [tag.cmClid] }),
    actionState: 1,
  });
});
