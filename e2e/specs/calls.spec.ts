import { expect, type Page, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from '../chromium';
import { apiLogin, createCustomer, uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';
import { goOnline } from '../fixtures/phone';

// The microphone check before going online needs a (fake) microphone that is allowed.
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS] } });

// lisi's extension goes back offline whatever happens, so other specs find it as seeded.
test.afterEach(async ({ request }) => {
  const lisi = await apiLogin(request, 'lisi');
  await lisi.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 0 });
});

/**
 * A number the sim line answers after 3 s of ringing (last digit 3, telephony/sim): long enough for
 * the call window to show 振铃中 on a loaded machine (after 1 s, CI's window came up at 通话中).
 */
const answeringNumber = () => `139${String(Date.now()).slice(-7)}3`;

const inCall = (page: Page) => page.locator('.ant-modal').filter({ has: page.getByTestId('call-status') });

test('lisi goes online, dials a customer from the phone tab, talks, hangs up and finds the call and its follow-up', async ({
  page,
  request,
}) => {
  const lisi = await apiLogin(request, 'lisi');
  const name = `通话客户${uniq()}`;
  const phone = answeringNumber();
  const cmCtid = await createCustomer(lisi, { name, contact: '周经理', phone });

  await loginAs(page, 'lisi');
  const extension = page.getByTestId('extension-area');
  await expect(extension).toContainText('分机 8001');
  await expect(extension).toContainText('离线');

  // An offline extension cannot dial (SPEC §5).
  await page.getByRole('button', { name: '拨号' }).click();
  await expect(page.getByText('请点击分机在线')).toBeVisible();

  // 在线: microphone check, phone state saved, registered.
  await goOnline(page);
  // The first microphone open of a fresh browser profile can be slow on a busy machine.
  await expect(extension).toContainText('在线', { timeout: 30_000 });

  // Dial from the customer's phone tab: by customer and control id, never by the number.
  await page.goto(`/manage/mycustomer?detail=${cmCtid}`);
  const drawer = page.locator('.ant-drawer-section');
  await drawer.getByRole('tab', { name: '联系电话' }).click();
  const row = drawer.getByRole('row').filter({ hasText: phone });
  await row.getByRole('button', { name: '拨打' }).click();

  const modal = inCall(page);
  await expect(modal.getByTestId('call-number')).toHaveText(phone);
  await expect(modal.getByText(name)).toBeVisible();
  await expect(modal.getByTestId('call-status')).toHaveText('振铃中');
  await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
  await expect(modal.getByTestId('call-timer')).toHaveText(/^00:0[1-9]$/, { timeout: 5_000 });

  // A second dial during the call is refused (SPEC §5); the hidden call comes back from the call button.
  await modal.getByRole('button', { name: '关闭' }).click();
  await expect(modal).toBeHidden();
  await row.getByRole('button', { name: '拨打' }).click();
  await expect(page.getByText('通话中请勿重复拨打')).toBeVisible();
  await page.getByRole('button', { name: '通话中' }).click();
  await expect(modal.getByTestId('call-status')).toHaveText('通话中');

  await page.waitForTimeout(3_000);
  await modal.getByRole('button', { name: '挂断' }).click();
  await expect(modal).toBeHidden();

  // The call record: answered, with a playable recording; the number as lisi may see it.
  await page.goto('/call/record');
  const record = page.getByRole('row').filter({ hasText: name });
  await expect(record).toContainText(phone);
  await expect(record).toContainText('坐席挂断');
  const audio = record.getByLabel('通话录音');
  await expect(audio).toHaveAttribute('src', /.+/);
  const src = (await audio.getAttribute('src')) as string;
  const wav = await page.request.get(src);
  expect(wav.status()).toBe(200);
  expect((await wav.body()).subarray(0, 4).toString()).toBe('RIFF');
  const duration = await audio.evaluate(
    (el: HTMLAudioElement) =>
      new Promise<number>((resolve, reject) => {
        el.preload = 'metadata';
        el.onloadedmetadata = () => resolve(el.duration);
        el.onerror = () => reject(new Error('recording cannot be played'));
        el.load();
      }),
  );
  expect(duration).toBeGreaterThan(2);

  // The phone follow-up (电话) in the customer's timeline.
  await page.goto(`/manage/mycustomer?detail=${cmCtid}`);
  await drawer.getByRole('tab', { name: '跟进记录' }).click();
  await expect(drawer.getByText('电话', { exact: true }).first()).toBeVisible();
  // at least the 3 s waited above; on a loaded machine the steps around it took the call to 10 s
  await expect(drawer.getByText(/已接通，通话时长 00:(0[3-9]|[1-5]\d)/)).toBeVisible();
});

test('an incoming call rings, is answered and hung up; a missed one shows on the call button badge', async ({
  page,
  request,
}) => {
  const admin = await apiLogin(request, 'admin');
  const { list } = await admin.get<{ list: { cmSipid: number; user: string }[] }>('/api/frontend/call/siplist?user=8001');
  const cmSipid = list.find((s) => s.user === '8001')?.cmSipid as number;

  // missed calls another test left unseen must not add to the badge counted below
  await (await apiLogin(request, 'lisi')).post('/api/frontend/call/missedseen', {});
  await loginAs(page, 'lisi');
  await goOnline(page);
  const extension = page.getByTestId('extension-area');
  // The first microphone open of a fresh browser profile can be slow on a busy machine.
  await expect(extension).toContainText('在线', { timeout: 30_000 });

  await admin.post('/api/frontend/call/simincoming', { cmSipid, callerNumber: '13800138000', ringSeconds: 30 });
  await expect(page.getByText('来电提醒：13800138000，请及时跟进')).toBeVisible();
  const modal = inCall(page);
  await expect(modal.getByTestId('call-status')).toHaveText('振铃中');
  await modal.getByRole('button', { name: '接听' }).click();
  await expect(modal.getByTestId('call-status')).toHaveText('通话中');
  await expect(modal.getByRole('button', { name: '接听' })).toBeHidden();
  await expect(modal.getByTestId('call-timer')).toHaveText('00:02', { timeout: 5_000 });
  await modal.getByRole('button', { name: '挂断' }).click();
  await expect(modal).toBeHidden();

  // Nobody answers: the caller gives up after 2 s, the call button counts one missed call.
  await admin.post('/api/frontend/call/simincoming', { cmSipid, callerNumber: '13800138009', ringSeconds: 2 });
  await expect(modal.getByTestId('call-status')).toHaveText('振铃中');
  await expect(modal).toBeHidden({ timeout: 10_000 });
  await expect(page.locator('.ant-float-btn .ant-badge-count')).toHaveText('1');
});
