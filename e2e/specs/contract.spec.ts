import { expect, test } from '@playwright/test';
import { apiLogin, createCustomer, uniq, uniqPhone } from '../fixtures/api';
import { closeOpenedPages, openPage } from '../fixtures/login';
import { shot } from '../fixtures/shots';

test.afterEach(closeOpenedPages);

type Api = Awaited<ReturnType<typeof apiLogin>>;
type Template = { coMatid: number; name: string; templateControls: { coTacid: number; dmType: number }[] };

const SIGNER_PHONE = '13912345678';

/** lisi's order of 10,000.00 yuan for a new customer (contact 赵总, 13912345678), approved by 张三 through the API. */
const approvedOrder = async (lisi: Api, zhangsan: Api, customer: string) => {
  const cmCtid = await createCustomer(lisi, { name: customer, contact: '赵总', phone: uniqPhone() });
  const products = await lisi.get<{ list: { id: number; code: string }[] }>('/api/frontend/product/list?limit=50');
  const product = products.list.find((p) => p.code === 'QC-001') ?? products.list[0];
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const { order_id } = await lisi.post<{ order_id: number }>('/api/frontend/order/store', {
    customer_id: cmCtid,
    contact_phone: SIGNER_PHONE,
    attr: { '2': today, '5': '微信' },
    product: [{ id: product.id, cost_price: 10_000_000, num: 1, specifications_list: [] }],
    remark: '',
    images: [],
  });
  const flows = await lisi.get<{ list: Template[] }>('/api/v1/merchantapp/templatelist?isOrder=1');
  const flow = flows.list.find((x) => x.name === '订单审批') as Template;
  const staff = await lisi.get<{ list: { staff_id: number; linkman: string }[] }>(
    `/api/frontend/staff/search?linkman=${encodeURIComponent('张三')}`,
  );
  const zhang = staff.list.find((s) => s.linkman === '张三') as { staff_id: number };
  await lisi.post('/api/v1/staff/templatecreate', {
    isSave: 2,
    coMatid: flow.coMatid,
    templateControls: flow.templateControls
      .filter((c) => c.dmType === 17)
      .map((c) => ({ coTacid: c.coTacid, dmValue: [String(order_id)] })),
    staffApproveNode: [{ nodeId: 1, staffS: [{ id: zhang.staff_id }] }],
  });
  await zhangsan.post('/api/frontend/order/verify', { order_id, node_id: 1, status: 1 });
  return { cmCtid, orderId: order_id };
};

test('lisi makes a contract of an approved order, the customer signs it on a phone with the one-time code, lisi archives and downloads it, the verify page accepts it', async ({
  browser,
  request,
}, testInfo) => {
  // the machine runs several servers at once: making, signing and archiving a PDF can take a while under load
  test.setTimeout(900_000);
  const customer = `合同客户${uniq()}`;
  const { cmCtid } = await approvedOrder(await apiLogin(request, 'lisi'), await apiLogin(request, 'zhangsan'), customer);

  // lisi: the order drawer of the approved order has a 合同 card with 生成合同
  const lisi = await openPage(browser, 'lisi');
  await lisi.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = lisi.getByRole('dialog').filter({ has: lisi.getByRole('tab', { name: '订单' }) });
  await drawer.getByRole('tab', { name: '订单' }).click();
  await drawer.getByRole('row', { name: /已通过/ }).click();
  const order = lisi.getByRole('dialog').filter({ hasText: '订单详情' }).last();
  const card = order.locator('.ant-card').filter({ hasText: '生成合同' });
  // first use under load: the card's code and its list may take a while
  await expect(card.getByText('暂无合同')).toBeVisible({ timeout: 30_000 });
  await card.getByRole('button', { name: '生成合同' }).click();

  const createWin = lisi.getByRole('dialog', { name: '生成合同' });
  await expect(createWin.getByLabel('合同模板')).toBeVisible({ timeout: 20_000 });
  // the demo company has one template and one seal: both are chosen already
  await expect(createWin).toContainText('标准销售合同');
  await expect(createWin).toContainText('合同专用章（合同专用章）');
  // fields the order does not give (服务期限, 收款账户 …): typed by lisi
  for (const input of await createWin.locator('input[id^="fields_"]').all()) await input.fill('自签约之日起一年');
  await shot(lisi, 'contract-create');
  await createWin.getByRole('button', { name: '生成合同' }).click();
  await expect(lisi.getByText(/合同 .+ 已生成/)).toBeVisible({ timeout: 150_000 });

  // the contract's details open: 草稿, the parties, the PDF; 发起签署 gives the customer's link
  const detail = lisi.getByRole('dialog').filter({ hasText: '合同详情' }).last();
  await expect(detail.getByText('草稿').first()).toBeVisible();
  await expect(detail.getByText(customer).first()).toBeVisible();
  await shot(lisi, 'contract-detail-draft');
  await detail.getByRole('tab', { name: '合同文件' }).click();
  await expect(detail.getByTestId('pdf-pages')).toHaveAttribute('data-pages', /\d+/, { timeout: 30_000 });
  await shot(lisi, 'contract-detail-pdf');
  await detail.getByRole('tab', { name: '合同信息' }).click();
  await detail.getByRole('button', { name: '发起签署' }).click();
  const sendWin = lisi.getByRole('dialog', { name: '发起签署' });
  await sendWin.getByRole('button', { name: '发起签署' }).click();
  const linkBox = sendWin.getByLabel('签署链接');
  await expect(linkBox).toHaveValue(/\/sign\//, { timeout: 150_000 });
  const link = await linkBox.inputValue();
  await shot(lisi, 'contract-send-link');
  await sendWin.getByRole('button', { name: /完\s?成/ }).click();
  await expect(detail.getByText('签署中').first()).toBeVisible();

  // the customer: a phone-sized browser of his own, no login
  const phoneContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    acceptDownloads: true,
  });
  try {
    const phone = await phoneContext.newPage();
    await phone.goto(new URL(link).pathname);
    await expect(phone.getByText('第一步：阅读合同全文')).toBeVisible({ timeout: 30_000 });
    await expect(phone.getByText(customer).first()).toBeVisible();
    await expect(phone.getByTestId('pdf-pages')).toHaveAttribute('data-pages', /\d+/, { timeout: 30_000 });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'contract-sign-phone-read');
    await phone.getByRole('checkbox').check();
    await phone.getByLabel(/手机号/).fill('13900000000');
    await phone.getByRole('button', { name: '获取验证码' }).click();
    await expect(phone.getByRole('alert')).toContainText('不一致', { timeout: 30_000 });
    await phone.getByLabel(/手机号/).fill(SIGNER_PHONE);
    await phone.getByRole('button', { name: /获取验证码|重新获取/ }).click();
    await expect(phone.getByText(/验证码已发送至/)).toBeVisible({ timeout: 30_000 });

    // the sim line has no SMS: the code shows in lisi's view of the contract
    const demoCode = detail.getByTestId('demo-code');
    await expect(demoCode).toBeVisible({ timeout: 20_000 });
    const code = ((await demoCode.textContent()) ?? '').replace(/\D/g, '');
    expect(code).toMatch(/^\d{6}$/);
    await shot(lisi, 'contract-detail-demo-code');

    // a wrong code first: refused in Chinese
    await phone.getByLabel('验证码').fill(code === '000000' ? '111111' : '000000');
    const pad = phone.getByLabel('签名区域');
    await pad.scrollIntoViewIfNeeded();
    const box = await pad.boundingBox();
    if (!box) throw new Error('no signature pad');
    await phone.mouse.move(box.x + 30, box.y + 100);
    await phone.mouse.down();
    for (let i = 1; i <= 12; i++) await phone.mouse.move(box.x + 30 + i * 22, box.y + 100 + Math.sin(i) * 40);
    await phone.mouse.up();
    await phone.getByRole('button', { name: '确认签署' }).click();
    await expect(phone.getByRole('alert')).toContainText('验证码错误', { timeout: 30_000 });
    await phone.getByLabel('验证码').fill(code);
    await shot(phone, 'contract-sign-phone-ready');
    await phone.getByRole('button', { name: '确认签署' }).click();
    await expect(phone.getByText('签署完成')).toBeVisible({ timeout: 150_000 });
    await shot(phone, 'contract-sign-phone-done');

    // lisi: 已签署 → 归档 → 已归档, then 下载
    await expect(detail.getByText('已签署').first()).toBeVisible({ timeout: 20_000 });
    await detail.getByRole('button', { name: /^归\s?档$/ }).click();
    await lisi.getByRole('dialog', { name: '归档合同' }).getByRole('button', { name: '确定归档' }).click();
    await expect(lisi.getByText('归档成功')).toBeVisible({ timeout: 150_000 });
    await expect(detail.getByText('已归档').first()).toBeVisible();
    await detail.getByRole('tab', { name: '操作记录' }).click();
    await shot(lisi, 'contract-detail-audit');
    const [download] = await Promise.all([
      lisi.waitForEvent('download'),
      detail.getByRole('button', { name: /^下\s?载$/ }).click(),
    ]);
    const pdfPath = testInfo.outputPath('archived.pdf');
    await download.saveAs(pdfPath);

    // the list: the contract 已归档, the status tabs count it
    await lisi.goto('/contract/list');
    await expect(lisi.getByRole('row', { name: new RegExp(customer) })).toContainText('已归档');
    await shot(lisi, 'contract-list');

    // anyone: the verify page accepts the downloaded PDF
    await phone.goto('/verify');
    await phone.locator('input[type=file]').setInputFiles(pdfPath);
    await expect(phone.getByText('验证通过：合同真实有效')).toBeVisible({ timeout: 30_000 });
    await expect(phone.getByTestId('verify-result')).toContainText('演示科技有限公司');
    await shot(phone, 'contract-verify-phone');

    // and the signing link, used up, says so
    await phone.goto(new URL(link).pathname);
    await expect(phone.getByText(/签署完成|无法打开签署链接|已过期/)).toBeVisible();
  } finally {
    await phoneContext.close();
  }
});

test('a signing link that does not exist says so in Chinese; the verify page refuses a file that is not an archived contract', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    await page.goto('/sign/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await expect(page.getByText('无法打开签署链接')).toBeVisible();
    await expect(page.getByText(/签署链接无效或已失效/)).toBeVisible();
    await shot(page, 'contract-sign-invalid');
    const fake = testInfo.outputPath('fake.pdf');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(fake, '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    await page.goto('/verify');
    await page.locator('input[type=file]').setInputFiles(fake);
    await expect(page.getByText(/^验证未通过$|不是有效的PDF|请上传PDF文件/).first()).toBeVisible({ timeout: 30_000 });
    await shot(page, 'contract-verify-invalid');
  } finally {
    await context.close();
  }
});

test('admin sees 合同设置: templates with the live A4 preview, the numbering rule, seals and the e-sign account', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await openPage(browser, 'admin');
  await admin.goto('/contract/setting');
  await expect(admin.getByRole('tab', { name: '合同模板' })).toBeVisible({ timeout: 60_000 });
  await shot(admin, 'contract-settings-templates');
  await admin.getByRole('button', { name: '新建模板' }).click();
  const editor = admin.getByRole('dialog').filter({ hasText: '新建合同模板' });
  await editor.getByLabel('模板名称').fill(`测试模板${uniq()}`);
  const preview = editor.getByTestId('a4-preview');
  await expect(preview).toContainText('示例科技有限公司');
  // an inserted field shows its sample value in the preview at once
  const body = editor.getByLabel('合同正文');
  await body.click();
  await body.press('Control+End');
  await body.pressSequentially('\n交付地点：');
  await editor.getByLabel('自定义字段名称').fill('交付地点');
  await editor.getByRole('button', { name: '添加字段' }).click();
  await expect(preview).toContainText('【交付地点】');
  await shot(admin, 'contract-template-editor');
  await editor.getByRole('button', { name: /^保\s?存$/ }).click();
  await expect(admin.getByText('添加/更新成功！')).toBeVisible({ timeout: 30_000 });

  // an uploaded PDF template: a field dragged onto the page gets its place in the numbers (pt from
  // the top-left, the page shown 440 px wide), its box moves with the mouse, and typing moves the box
  await admin.getByRole('button', { name: '新建模板' }).click();
  const pdfEditor = admin.getByRole('dialog').filter({ hasText: '新建合同模板' });
  await pdfEditor.getByLabel('模板名称').fill(`PDF模板${uniq()}`);
  await pdfEditor.getByText('上传PDF', { exact: true }).click();
  const { PDFDocument } = await import('pdf-lib');
  const a4 = await PDFDocument.create();
  a4.addPage([595.28, 841.89]);
  await pdfEditor
    .locator('input[type=file]')
    .setInputFiles({ name: '合同模板.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await a4.save()) });
  const page1 = pdfEditor.getByTestId('placement-page-1');
  await expect(page1).toBeVisible({ timeout: 30_000 });
  await pdfEditor.getByRole('button', { name: '客户名称', exact: true }).dragTo(page1, { targetPosition: { x: 220, y: 300 } });
  /** how far an input's number is from the expected one (the drop lands within a pixel: 1.35 pt) */
  const offBy = (label: string, expected: number) => async () =>
    Math.abs(Number(await pdfEditor.getByLabel(label).inputValue()) - expected);
  // 220 px, 300 px: 297.6 pt, 405.9 pt
  await expect.poll(offBy('客户名称 X', 297.6)).toBeLessThan(1.5);
  await expect.poll(offBy('客户名称 Y', 405.9)).toBeLessThan(1.5);
  const box = pdfEditor.getByTestId('placed-field-0');
  const at = await box.boundingBox();
  if (!at) throw new Error('the placed box is not shown');
  const x0 = Number(await pdfEditor.getByLabel('客户名称 X').inputValue());
  const y0 = Number(await pdfEditor.getByLabel('客户名称 Y').inputValue());
  await admin.mouse.move(at.x + 10, at.y + 5);
  await admin.mouse.down();
  await admin.mouse.move(at.x + 60, at.y + 45, { steps: 5 });
  await admin.mouse.up();
  // 50 px right, 40 px down: 67.6 pt, 54.1 pt more
  await expect.poll(offBy('客户名称 X', x0 + 67.6)).toBeLessThan(0.3);
  await expect.poll(offBy('客户名称 Y', y0 + 54.1)).toBeLessThan(0.3);
  // the keyboard's way: a typed number moves the box (100 pt = 73.9 px)
  await pdfEditor.getByLabel('客户名称 X').fill('100');
  await expect
    .poll(async () => Math.abs(((await box.boundingBox())?.x ?? 0) - ((await page1.boundingBox())?.x ?? 0) - 73.9))
    .toBeLessThan(1);
  await shot(admin, 'contract-template-pdf-fields');
  await pdfEditor.getByRole('button', { name: /^保\s?存$/ }).click();
  await expect(pdfEditor).toBeHidden({ timeout: 30_000 });

  await admin.getByRole('tab', { name: '编号规则' }).click();
  await expect(admin.getByTestId('rule-example')).toBeVisible();
  await shot(admin, 'contract-settings-rule');

  await admin.getByRole('tab', { name: '印章管理' }).click();
  await admin.getByRole('button', { name: '新建印章' }).click();
  const sealWin = admin.getByRole('dialog', { name: '新建印章' });
  await sealWin.getByText('生成公章').click();
  await expect(sealWin.getByRole('img', { name: /公章预览/ })).toBeVisible();
  await shot(admin, 'contract-seal-new');
  await sealWin.getByRole('button', { name: /^取\s?消$/ }).click();
  await shot(admin, 'contract-settings-seals');

  await admin.getByRole('tab', { name: '电子签账户' }).click();
  const code = admin.getByLabel('统一社会信用代码');
  await code.fill('91350100M000100Y44');
  await code.blur();
  await expect(admin.getByText('统一社会信用代码校验位不正确，请核对')).toBeVisible();
  await shot(admin, 'contract-settings-account');
});
