import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiLogin, createCustomer, uniq, uniqPhone } from '../fixtures/api';
import { closeOpenedPages, openPage, socketSignedIn } from '../fixtures/login';
import { shot } from '../fixtures/shots';

test.afterEach(closeOpenedPages);

const OK = /确\s?定/;
// A 1×1 PNG: an image attachment of a comment, shown as a thumbnail.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** An antd select by its label: open it, type `search` when given, and pick the option showing `text`. */
const pick = async (page: Page, scope: Locator, label: string, text: string, search?: string) => {
  const box = scope.getByLabel(label, { exact: true });
  const select = box.locator('xpath=ancestor-or-self::*[contains(concat(" ", @class, " "), " ant-select ")][1]');
  await expect(async () => {
    await box.click();
    if (search) await box.fill(search);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .first()
      .click({ timeout: 3000 });
    await expect(select).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
};

test('a work order goes through its stages with a comment and attachments; the thread shows every step', async ({
  browser,
  request,
}) => {
  // two browsers; on a slow evening of these 2 cores the whole scenario took 2.6 min (29 Nov 2026 20:10)
  test.setTimeout(240_000);
  const typeName = `售后${uniq()}`.slice(0, 20);
  const orderName = `空调不制冷${uniq()}`;
  const customer = `工单客户${uniq()}`;
  const lisiApi = await apiLogin(request, 'lisi');
  const cmCtid = await createCustomer(lisiApi, { name: customer, contact: '钱总', phone: uniqPhone() });
  // an order of the customer (8,800.00 yuan) that the work order may follow up
  const products = await lisiApi.get<{ list: { id: number; code: string }[] }>('/api/frontend/product/list?limit=50');
  const product = products.list.find((p) => p.code === 'QC-001') ?? products.list[0];
  await lisiApi.post('/api/frontend/order/store', {
    customer_id: cmCtid,
    contact_phone: '13912345678',
    attr: { '2': new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10), '5': '微信' },
    product: [{ id: product.id, cost_price: 8_800_000, num: 1, specifications_list: [] }],
    remark: '',
    images: [],
  });

  // The admin sets a type with three stages; the middle one may go back.
  const admin = await openPage(browser, 'admin');
  await admin.goto('/set/workorder');
  await admin.getByRole('button', { name: '新建类型' }).first().click();
  const typeWin = admin.getByRole('dialog', { name: '新建工单类型' });
  await typeWin.getByRole('button', { name: OK }).click();
  await expect(typeWin.locator('.ant-form-item-explain-error').filter({ hasText: '请输入类型名称' })).toBeVisible();
  await expect(typeWin.locator('.ant-form-item-explain-error').filter({ hasText: '请选择默认处理人' })).toBeVisible();
  await typeWin.getByLabel('类型名称').fill(typeName);
  await pick(admin, typeWin, '默认处理人', '李四', '李四');
  await typeWin.getByLabel('阶段1名称').fill('待受理');
  await expect(typeWin.getByLabel('阶段2可回退')).toBeChecked();
  await shot(admin, 'workorders-type-window');
  await typeWin.getByRole('button', { name: OK }).click();
  await expect(typeWin).toBeHidden();
  const typeRow = admin.getByRole('row', { name: new RegExp(typeName) });
  await expect(typeRow).toContainText('李四');
  await expect(typeRow).toContainText('待受理');
  await expect(typeRow).toContainText('24 小时');
  await shot(admin, 'workorders-settings');

  // lisi opens a work order on his customer from the drawer's 工单 tab, with an attachment.
  const lisi = await openPage(browser, 'lisi');
  await lisi.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = lisi.getByRole('dialog').filter({ has: lisi.getByRole('tab', { name: '工单' }) });
  await drawer.getByRole('tab', { name: '工单', exact: true }).click();
  await expect(drawer.getByText('暂无工单')).toBeVisible();
  await drawer.getByRole('button', { name: '新建工单' }).click();
  const win = lisi.getByRole('dialog', { name: '新建工单' });
  await win.getByRole('button', { name: OK }).click();
  await expect(win.locator('.ant-form-item-explain-error').filter({ hasText: '请输入工单名称' })).toBeVisible();
  await expect(win.locator('.ant-form-item-explain-error').filter({ hasText: '请选择工单类型' })).toBeVisible();
  await win.getByLabel('工单名称').fill(orderName);
  await pick(lisi, win, '工单类型', typeName);
  await expect(win.getByText('待受理')).toBeVisible();
  // the type's default handler and SLA fill the handler and the due time
  await expect(
    win.getByLabel('处理人', { exact: true }).locator('xpath=ancestor::*[contains(@class,"ant-select")][1]'),
  ).toContainText('李四');
  await expect(win.getByLabel('截止时间')).not.toHaveValue('');
  await pick(lisi, win, '优先级', '高');
  await win.getByLabel('描述').fill('客户反映空调外机不启动，需上门检查。');
  await pick(lisi, win, '关联订单', '8,800.00元');
  await win.locator('input[type=file]').setInputFiles({
    name: '故障说明.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('外机不启动，室内机显示E1'),
  });
  await expect(win.locator('.ant-upload-list-item-done')).toHaveCount(1);
  await expect(win.getByRole('link', { name: '故障说明.txt' })).toBeVisible();
  await shot(lisi, 'workorders-create-window');
  await win.getByRole('button', { name: OK }).click();
  await expect(win).toBeHidden();

  // The new work order's detail opens at its first stage.
  const detail = lisi.getByRole('dialog').filter({ hasText: '处理记录' });
  await expect(detail).toContainText(orderName);
  // its status is 未完结, not a stage name (处理中 is the next stage of this flow)
  await expect(detail.getByTestId('work-status')).toHaveText('未完结');
  await expect(detail.getByTestId('work-stage')).toHaveText('待受理');
  await expect(detail.getByTestId('work-event').first()).toContainText('创建工单');
  await expect(detail.getByRole('link', { name: /故障说明\.txt/ })).toBeVisible();
  await detail.getByText('查看订单').click();
  const orderDrawer = lisi.getByRole('dialog').filter({ hasText: '审批记录' });
  await expect(orderDrawer).toContainText('8,800.00');
  await orderDrawer.locator('.ant-drawer-close').click();
  await expect(orderDrawer).toBeHidden();

  await detail.getByRole('button', { name: '发表评论' }).click();
  await expect(detail.getByText('请输入评论内容或上传附件')).toBeVisible();
  await detail.getByLabel('评论内容').fill('已联系客户，明天上午上门');
  await detail.locator('input[type=file]').setInputFiles({ name: '现场照片.png', mimeType: 'image/png', buffer: PNG });
  await expect(detail.locator('.ant-upload-list-item-done')).toHaveCount(1);
  await detail.getByRole('button', { name: '发表评论' }).click();
  await expect(detail.getByTestId('work-event').filter({ hasText: '已联系客户，明天上午上门' })).toBeVisible();
  await expect(detail.getByTestId('work-event').filter({ hasText: '评论' }).locator('img')).toHaveCount(1);

  const moveTo = async (stage: string, remark: string) => {
    await detail.getByRole('button', { name: `推进到「${stage}」` }).click();
    const win = lisi.getByRole('dialog', { name: '推进工单' });
    await expect(win).toContainText(`推进到「${stage}」`);
    await win.getByPlaceholder('备注（选填）').fill(remark);
    await win.getByRole('button', { name: OK }).click();
    await expect(win).toBeHidden();
    await expect(detail.getByTestId('work-event').filter({ hasText: remark })).toBeVisible();
  };
  // 待受理 cannot go back; 处理中 (可回退) can.
  await expect(detail.getByRole('button', { name: '回退' })).toHaveCount(0);
  await moveTo('处理中', '开始处理');
  await shot(lisi, 'workorders-detail-open');
  await detail.getByRole('button', { name: '回退' }).click();
  const back = lisi.getByRole('dialog', { name: '回退工单' });
  // the stage just before is already chosen
  await expect(back.locator('.ant-select').first()).toContainText('待受理');
  await back.getByLabel('备注').fill('缺少配件型号');
  await back.getByRole('button', { name: OK }).click();
  await expect(back).toBeHidden();
  await expect(detail.getByTestId('work-event').filter({ hasText: '缺少配件型号' })).toContainText('处理中 → 待受理');
  await moveTo('处理中', '配件已确认');
  await moveTo('已完成', '上门维修完毕');
  await expect(detail.getByText('已完结').first()).toBeVisible();
  await expect(detail.getByRole('button', { name: /推进到|回退/ })).toHaveCount(0);
  const events = detail.getByTestId('work-event');
  await expect(events).toHaveCount(6);
  await expect(events.nth(0)).toContainText('创建工单');
  await expect(events.nth(0)).toContainText('故障说明.txt');
  await expect(events.nth(1)).toContainText('评论');
  await expect(events.nth(2)).toContainText('待受理 → 处理中');
  await expect(events.nth(3)).toContainText('回退阶段');
  await expect(events.nth(4)).toContainText('待受理 → 处理中');
  await expect(events.nth(5)).toContainText('处理中 → 已完成');
  await shot(lisi, 'workorders-detail');
  await detail.getByText('处理记录').scrollIntoViewIfNeeded();
  await detail.locator('.ant-drawer-body').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await shot(lisi, 'workorders-detail-thread');

  // Back in the drawer tab the row shows its last stage.
  await detail.locator('.ant-drawer-close').click();
  const row = drawer.getByRole('row', { name: new RegExp(orderName) });
  await expect(row).toContainText('已完成');
  await expect(row).toContainText('李四');
  await shot(lisi, 'workorders-drawer-tab');

  // 工单管理: the admin sees it under 全部 with its customer; the filters narrow by type and status.
  await admin.goto('/workorder/list');
  const listRow = admin.getByRole('row', { name: new RegExp(orderName) });
  await expect(listRow).toContainText(customer);
  await expect(listRow).toContainText('已完结');
  await pick(admin, admin.locator('form'), '工单类型', typeName);
  await admin.getByRole('button', { name: /查\s?询/ }).click();
  await expect(admin.getByTestId('work-stage-chart')).toContainText(`各阶段工单数 · ${typeName}`);
  await expect(admin.getByTestId('work-stage-chart').locator('canvas')).toBeVisible();
  await shot(admin, 'workorders-page-type');
  await pick(admin, admin.locator('form'), '状态', '未完结');
  await admin.getByRole('button', { name: /查\s?询/ }).click();
  await expect(listRow).toBeHidden();
  await admin.getByRole('button', { name: /重\s?置/ }).click();
  await expect(listRow).toBeVisible();
  await shot(admin, 'workorders-page');
  await listRow.click();
  await expect(admin.getByRole('dialog').filter({ hasText: '处理记录' })).toContainText(orderName);
});

test('an overdue work order shows under 已超时; its creator edits it and hands it to 张三, who finds it under 分配给我', async ({
  browser,
  request,
}) => {
  // two browsers; 2.1 min on the same slow evening
  test.setTimeout(240_000);
  const admin = await apiLogin(request, 'admin');
  const lisiApi = await apiLogin(request, 'lisi');
  const staff = await admin.get<{ list: { staff_id: number; linkman: string }[] }>(
    `/api/frontend/staff/search?linkman=${encodeURIComponent('李四')}`,
  );
  const lisiId = (staff.list.find((s) => s.linkman === '李四') as { staff_id: number }).staff_id;
  const { id: typeId } = await admin.post<{ id: number }>('/api/frontend/workorder/typesave', {
    name: `安装${uniq()}`.slice(0, 20),
    default_handler_id: lisiId,
    sla_hours: 4,
    stages: [{ name: '待安装' }, { name: '已安装' }],
  });
  const cmCtid = await createCustomer(lisiApi, { name: `超时客户${uniq()}`, contact: '孙总', phone: uniqPhone() });
  const orderName = `上门安装${uniq()}`;
  // due long ago: overdue at once
  await lisiApi.post('/api/frontend/workorder/create', {
    customer_id: cmCtid,
    type_id: typeId,
    workOrderName: orderName,
    due_at: '2026-01-05 09:00:00',
  });

  const lisi = await openPage(browser, 'lisi');
  await lisi.goto('/workorder/list');
  await lisi.getByRole('tab', { name: /已超时/ }).click();
  const row = lisi.getByRole('row', { name: new RegExp(orderName) });
  await expect(row).toContainText('已超时');
  await expect(lisi.getByRole('tab', { name: /已超时/ }).locator('.ant-badge')).toContainText(/\d+/);
  await row.click();
  const detail = lisi.getByRole('dialog').filter({ hasText: '处理记录' });
  await expect(detail.getByTestId('overdue-tag').first()).toBeVisible();

  await detail.getByRole('button', { name: '编辑' }).click();
  const edit = lisi.getByRole('dialog', { name: '编辑工单' });
  await pick(lisi, edit, '优先级', '紧急');
  await edit.getByLabel('截止时间').click();
  await edit.getByLabel('截止时间').fill('2099-12-31 18:00');
  await edit.getByLabel('截止时间').press('Enter');
  await edit.getByRole('button', { name: OK }).click();
  await expect(edit).toBeHidden();
  await expect(detail.getByTestId('work-event').filter({ hasText: '编辑工单' })).toBeVisible();
  await expect(detail).toContainText('2099-12-31 18:00');
  // the tag goes; the thread may keep an 已超时 event of the SLA cron (every 5 minutes)
  await expect(detail.getByTestId('overdue-tag')).toHaveCount(0);

  // 张三 is signed in elsewhere: the hand-over reaches him as a notice over the socket
  const zhang = await openPage(browser, 'zhangsan');
  const zhangListening = socketSignedIn(zhang);
  await zhang.goto('/workorder/list');
  // the notice goes to his socket as it is then: in one CI try the hand-over came before his page's
  // socket had signed in, and no notice came
  await zhangListening;
  await detail.getByRole('button', { name: '转交' }).click();
  const transfer = lisi.getByRole('dialog', { name: '转交工单' });
  await transfer.getByRole('button', { name: OK }).click();
  await expect(transfer.locator('.ant-form-item-explain-error').filter({ hasText: '请选择处理人' })).toBeVisible();
  await pick(lisi, transfer, '新处理人', '张三', '张三');
  await transfer.getByLabel('备注').fill('张三负责该片区');
  await transfer.getByRole('button', { name: OK }).click();
  await expect(transfer).toBeHidden();
  await expect(detail.getByTestId('work-event').filter({ hasText: '张三负责该片区' })).toContainText('李四 → 张三');
  // no longer its handler: lisi cannot move it on
  await expect(detail.getByRole('button', { name: /推进到/ })).toHaveCount(0);

  const notice = zhang.locator('.ant-notification-notice').filter({ hasText: `工单已转交给您：${orderName}` });
  await expect(notice).toBeVisible();
  await shot(zhang, 'workorders-notice');
  // On a slow evening (29 Nov 2026) Playwright waited 4 min in both tries for this button to stand still
  // ("not stable", then "detached from the DOM"; why the notice moved is not known yet). It is visible;
  // its click is delivered without waiting, and the next steps check the drawer it opens.
  await notice.getByRole('button', { name: '查看工单' }).dispatchEvent('click');
  const fromNotice = zhang.getByRole('dialog').filter({ hasText: '处理记录' });
  await expect(fromNotice).toContainText(orderName);
  await fromNotice.locator('.ant-drawer-close').click();
  await expect(fromNotice).toBeHidden();

  await zhang.getByRole('tab', { name: /分配给我/ }).click();
  await zhang.getByRole('row', { name: new RegExp(orderName) }).click();
  const zDetail = zhang.getByRole('dialog').filter({ hasText: '处理记录' });
  await expect(zDetail.getByRole('button', { name: '推进到「已安装」' })).toBeVisible();
  await zDetail.locator('.ant-drawer-close').click();
  // the supervisor may export (role action frontend/workorder/export); lisi's role may not
  await expect(lisi.getByRole('button', { name: '导出' })).toHaveCount(0);
  const download = zhang.waitForEvent('download');
  await zhang.getByRole('button', { name: '导出' }).click();
  await expect(zhang.getByRole('dialog', { name: '导出工单' }).getByText('导出完成')).toBeVisible({ timeout: 30_000 });
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
});
