import { expect, type Page, test } from '@playwright/test';
import { apiLogin, createCustomer, uniq, uniqPhone } from '../fixtures/api';
import { loginAs } from '../fixtures/login';

const STRATEGY = {
  recycleRemind: 3,
  maxCustomer: 0,
  mustCustomerName: 0,
  repeatCustomerName: 0,
  seaPhoneEncryp: 1,
  phoneEncryp: 0,
  decryptPhoneNum: 20,
};

/** The customer detail drawer: the dialog that holds the 跟进记录 tab (the modals over it do not). */
const drawerOf = (page: Page) => page.getByRole('dialog').filter({ has: page.getByRole('tab', { name: '跟进记录' }) });

// Whatever happens in a test, the shared e2e server gets its clock and strategy back.
test.afterEach(async ({ request }) => {
  await request.post('/api/frontend/test/clock', { data: { offsetSeconds: 0 } });
  const admin = await apiLogin(request, 'admin');
  await admin.post('/api/frontend/customerset/strategyset', STRATEGY);
});

test('a sales user follows a customer up from its detail: stage, follow-up, appointment, tags, masked number', async ({
  page,
  request,
}) => {
  const admin = await apiLogin(request, 'admin');
  const lisi = await apiLogin(request, 'lisi');
  const name = `详情测试${uniq()}`;
  const phone = uniqPhone();
  await createCustomer(lisi, { name, contact: '周经理', phone });
  // Numbers are masked for staff in this company (SPEC §6), with 5 reveals a day.
  await admin.post('/api/frontend/customerset/strategyset', { ...STRATEGY, phoneEncryp: 1, decryptPhoneNum: 5 });

  await loginAs(page, 'lisi');
  await page.goto('/manage/mycustomer');
  await page.getByRole('link', { name }).click();
  const drawer = drawerOf(page);
  await expect(drawer.getByText(name).first()).toBeVisible();
  await expect(page).toHaveURL(/detail=\d+/);

  // Stage bar: move the customer to 需求确认.
  // each stage of the bar is a button (a clickable step)
  await drawer.getByRole('button', { name: /需求确认/ }).click();
  await expect(page.getByText('客户阶段已改为「需求确认」')).toBeVisible();

  // Write a follow-up with an appointment tomorrow at 10:00.
  const remark = `客户对方案感兴趣，约明天上午详谈 ${uniq()}`;
  await drawer.getByLabel('跟进内容').fill(remark);
  const tomorrow = new Date(Date.now() + 8 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
  const picker = drawer.getByPlaceholder('请选择下次跟进时间');
  await picker.click();
  await picker.fill(`${tomorrow} 10:00`);
  await picker.press('Enter');
  await drawer.getByRole('button', { name: '提交跟进' }).click();
  await expect(page.getByText('跟进成功')).toBeVisible();

  // It is on top of the timeline, under 全部 and under 写跟进.
  const items = drawer.getByTestId('follow-item');
  await expect(items.first()).toContainText(remark);
  await expect(items.first()).toContainText(`下次跟进：${tomorrow} 10:00:00`);
  await drawer.getByRole('tab', { name: '写跟进', exact: true }).click();
  await expect(items.first()).toContainText(remark);
  await drawer.getByRole('tab', { name: '电话', exact: true }).click();
  await expect(drawer.getByText('暂无跟进记录')).toBeVisible();
  await drawer.getByRole('tab', { name: '全部', exact: true }).click();
  await expect(items).toHaveCount(2); // the follow-up and the stage change
  // 销售 has no frontend/customer/followdel: no delete button, and the server refuses too.
  await expect(items.first().getByRole('button', { name: '删除' })).toHaveCount(0);
  const cmCtid = Number(new URL(page.url()).searchParams.get('detail'));
  const history = await lisi.get<{ list: { cmCtfid: number }[] }>(`/api/frontend/customer/followlist?cmCtid=${cmCtid}`);
  await expect(lisi.post('/api/frontend/customer/followdel', { cmCtfid: history.list[0].cmCtfid })).rejects.toThrow(
    '您没有执行该操作的权限',
  );

  // Two tags from two groups, through edit mode and the tag window.
  await drawer.getByRole('button', { name: /编辑$/ }).click();
  await drawer.getByRole('button', { name: '添加标签' }).click();
  const tagWindow = page.getByRole('dialog', { name: '添加标签' });
  await tagWindow.getByText('高意向').click();
  await tagWindow.getByText('决策人').click();
  await tagWindow.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(drawer.getByText('高意向', { exact: true })).toBeVisible();
  await expect(drawer.getByText('决策人', { exact: true })).toBeVisible();

  // The phone tab shows the number masked; the eye reveals it once.
  await drawer.getByRole('tab', { name: '联系电话' }).click();
  const masked = `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  await expect(drawer.getByText(masked)).toBeVisible();
  await expect(drawer.getByText(phone)).toHaveCount(0);
  await drawer.getByRole('button', { name: '查看完整号码' }).first().click();
  await expect(drawer.getByText(phone)).toBeVisible();
  await expect(page.getByText('今日还可查看 4 次')).toBeVisible();

  // The next day (the server's clock moved, not slept) the customer is in 今日预约.
  await page.request.post('/api/frontend/test/clock', { data: { offsetSeconds: 86_400 } });
  await page.goto('/manage/subscribe');
  await expect(page.getByRole('link', { name })).toBeVisible();
});

test('the detail opens from a link and keeps to the data scope', async ({ page, request }) => {
  const lisi = await apiLogin(request, 'lisi');
  const name = `链接测试${uniq()}`;
  const cmCtid = await createCustomer(lisi, { name, contact: '钱女士', phone: uniqPhone() });
  await loginAs(page, 'lisi');
  await page.goto(`/manage/mycustomer?detail=${cmCtid}`);
  await expect(drawerOf(page).getByText(name).first()).toBeVisible();
  await drawerOf(page).getByRole('tab', { name: '基本信息' }).click();
  await expect(drawerOf(page).getByText('钱女士')).toBeVisible();

  // wangwu (销售, scope own) cannot open lisi's customer by its link.
  await page.context().clearCookies();
  await loginAs(page, 'wangwu');
  await page.goto(`/manage/mycustomer?detail=${cmCtid}`);
  await expect(page.getByText('无法查看该客户')).toBeVisible();
  await expect(page.getByText('客户不存在或您无权查看')).toBeVisible();
});
