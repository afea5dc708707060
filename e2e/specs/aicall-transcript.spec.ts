import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from '../chromium';
import { apiLogin, uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';
import { goOnline } from '../fixtures/phone';

// 转人工 with the transcript (issue 16) on the sim line: an AI task of one interested customer
// (script 0: "有兴趣" after the greeting) on a flow whose 肯定 goes straight to 转人工; the bot rings
// 李四's browser and his in-call modal shows the AI对话记录 beside the call: the bot's greeting on
// the left, the customer's 有兴趣 (肯定) on the right, the flow and the grade so far.

test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS] } });

test.afterEach(async ({ request }) => {
  const lisi = await apiLogin(request, 'lisi');
  await lisi.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 0 });
});

const GREETING = '您好，我是小云，想给您介绍一下我们的产品';

type Node = { key: string; prompt: string; branches: { key: string; keywords: string[]; next: string | null }[] };
type Graph = { nodes: Node[] };

test('the bot hands an interested customer to 李四 with the AI对话记录 on his screen', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  const admin = await apiLogin(request, 'admin');
  const staff = (await admin.get<{ list: { cmSid: number; username: string }[] }>('/api/frontend/staff/list?page=1&limit=100'))
    .list;
  const lisiId = staff.find((s) => s.username === 'lisi')?.cmSid as number;

  // the starter flow, shortened: 开场白's 肯定 (有兴趣) → 转接顾问; its 否定 → 产品介绍 (kept reachable)
  const flowName = `转人工话术${uniq()}`;
  const { id: flowId } = await admin.post<{ id: number }>('/api/frontend/aibot/flow/store', { name: flowName });
  const { graph } = await admin.get<{ graph: Graph }>(`/api/frontend/aibot/flow/detail?id=${flowId}`);
  const open = graph.nodes.find((n) => n.key === 'open') as Node;
  open.prompt = GREETING;
  for (const b of open.branches) {
    if (b.key === 'yes') Object.assign(b, { keywords: ['有兴趣', ...b.keywords], next: 'transfer' });
    if (b.key === 'no') b.next = 'intro';
  }
  await admin.post('/api/frontend/aibot/flow/update', { id: flowId, name: flowName, graph });
  await admin.post('/api/frontend/aibot/flow/publish', { id: flowId });

  // 李四 is online, then the task calls one interested customer (script 0, answered: …01)
  await loginAs(page, 'lisi');
  await goOnline(page);
  const number = `13${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 10)}01`;
  const { cmStid } = await admin.post<{ cmStid: number }>('/api/frontend/aicall/create', {
    name: `转人工任务${uniq()}`,
    flowId,
    numbers: [number],
    cmSidInfo: [lisiId],
    cmWeeks: [1, 2, 3, 4, 5, 6, 7],
    cmTimes: [{ start: '00:00', end: '23:59' }],
    maxLines: 1,
    maxAttempts: 1,
  });
  await admin.post('/api/frontend/aicall/start', { cmStid });

  const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('call-status') });
  await expect(modal.getByTestId('call-status')).toHaveText('振铃中', { timeout: 60_000 });
  const panel = modal.getByTestId('ai-transcript');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('AI对话记录');
  await expect(panel).toContainText(flowName);
  const turns = panel.getByTestId('ai-transcript-turn');
  await expect(turns.first()).toContainText(GREETING);
  await expect(turns.first()).toContainText('开场白');
  await expect(turns.nth(1)).toContainText('有兴趣');
  await expect(turns.nth(1)).toContainText('肯定');
  await expect(turns.last()).toContainText('转接顾问');
  await page.screenshot({ path: '.tmp/aicall-transcript-ringing.png' });

  await modal.getByRole('button', { name: '接听' }).click();
  await expect(modal.getByTestId('call-status')).toHaveText('通话中');
  // taken: the stored dialogue stays on his screen
  await expect(turns.first()).toContainText(GREETING);
  await page.screenshot({ path: '.tmp/aicall-transcript-talking.png' });
  // a hang-up right after the ring is refused for a few seconds (SPEC §5): the agent tries again
  await expect(async () => {
    await modal.getByRole('button', { name: '挂断' }).click();
    await expect(modal).toBeHidden({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  // its one number is done: the task completes on its own (stopped here if it has not yet)
  await admin.post('/api/frontend/aicall/stop', { cmStid }).catch(() => undefined);
});
