import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { apiLogin, uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';
import { shot } from '../fixtures/shots';

const VIEWPORT = { width: 1366, height: 768 };
const OK = /确\s?定/;
const DELETE = /删\s?除/;

const openPage = async (browser: Browser, user: string) => {
  const page = await (await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })).newPage();
  await loginAs(page, user);
  return page;
};

/** An antd select by its label: open it and pick the option showing `text`. */
const pick = async (page: Page, scope: Locator, label: string, text: string) => {
  const box = scope.getByLabel(label, { exact: true });
  const select = box.locator('xpath=ancestor-or-self::*[contains(concat(" ", @class, " "), " ant-select ")][1]');
  await expect(async () => {
    await box.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .first()
      .click({ timeout: 3000 });
    await expect(select).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
};

const deleteNode = async (page: Page, name: string, refs: string) => {
  await page.getByRole('button', { name: `删除节点${name}` }).click();
  const confirm = page.locator('.ant-popover:visible');
  await expect(confirm).toContainText(refs);
  await confirm.getByRole('button', { name: DELETE }).click();
  await expect(page.getByRole('list', { name: '流程节点' }).getByRole('button', { name: new RegExp(name) })).toHaveCount(0);
};

const selectNode = async (page: Page, name: string) => {
  await page
    .getByRole('list', { name: '流程节点' })
    .getByRole('button', { name: new RegExp(` ${name} `) })
    .click();
  await expect(page.getByText(`编辑节点：${name}`)).toBeVisible();
};

test('an admin designs a 3-node 话术, fixes its issues, publishes v1 and walks it in the test console', async ({ browser }) => {
  test.setTimeout(180_000);
  const flowName = `课程邀约${uniq()}`.slice(0, 20);
  const page = await openPage(browser, 'admin');

  // 话术管理 under AI外呼: empty search, then 新建话术 (the name is required)
  await page.goto('/aicall/flow');
  await expect(page.getByRole('menuitem', { name: /话术管理/ })).toBeVisible();
  await page.getByRole('button', { name: '新建话术' }).click();
  const create = page.getByRole('dialog', { name: '新建话术' });
  await create.getByRole('button', { name: OK }).click();
  await expect(create.locator('.ant-form-item-explain-error')).toHaveText('请输入话术名称');
  await create.getByLabel('话术名称').fill(flowName);
  await create.getByLabel('备注').fill('端到端测试');
  await create.getByRole('button', { name: OK }).click();

  // the designer opens on the starter flow (5 nodes); 转接顾问 and 挂机 go, leaving 开场 → 介绍 → 结束
  await expect(page).toHaveURL(/\/aicall\/flow\/\d+$/);
  await expect(page.getByText('编辑节点：开场白')).toBeVisible();
  // the side menu keeps 话术管理 selected on its sub-page
  await expect(page.locator('.ant-layout-sider .ant-menu-item-selected')).toHaveText(/话术管理/);
  await deleteNode(page, '转接顾问', '有1处指向该节点');
  await deleteNode(page, '挂机', '有2处指向该节点');
  // a variable the product does not know
  await page.getByLabel('机器人话术').fill('您好，请问是{客户姓名}吗？我们有一门新课程，您有兴趣了解一下吗？');
  await expect(page.getByText('未保存')).toBeVisible();
  // leaving with unsaved changes asks first; 留下 keeps the edits
  await page.getByRole('button', { name: '返回话术列表' }).click();
  const leave = page.getByRole('dialog', { name: '离开提示' });
  await expect(leave).toContainText('离开后修改将丢失');
  await leave.getByRole('button', { name: /留\s?下/ }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/aicall\/flow\/\d+$/);
  await expect(page.getByLabel('机器人话术')).toHaveValue(/客户姓名/);
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存成功').last()).toBeVisible();
  const issues = page.getByRole('list', { name: '话术问题' });
  await expect(issues).toContainText('变量{客户姓名}不存在');
  await expect(issues).toContainText('指向的节点“hangup”不存在');
  await expect(issues).toContainText('指向的节点“transfer”不存在');
  await expect(page.getByRole('list', { name: '流程节点' }).getByLabel('有问题')).toHaveCount(2);
  await shot(page, 'aibot-designer-issues');

  // an issue jumps to its node
  await selectNode(page, '礼貌结束');
  await issues.getByRole('button', { name: /节点「产品介绍」 · 分支「肯定」/ }).click();
  await expect(page.getByText('编辑节点：产品介绍')).toBeVisible();

  // 介绍: rename; keep only 否定 (→ 礼貌结束)
  await page.getByLabel('节点名称').fill('介绍');
  await page.getByRole('region', { name: '分支3' }).getByRole('button', { name: '删除分支' }).click();
  await page.getByRole('region', { name: '分支1' }).getByRole('button', { name: '删除分支' }).click();
  await expect(page.getByRole('region', { name: '分支1' }).getByLabel('分支名称')).toHaveValue('否定');

  // 开场: its 肯定 branch hears only 有兴趣 (or key 1) and leads to 介绍; 否定 and 拒绝 go
  await selectNode(page, '开场白');
  await page.getByRole('region', { name: '分支3' }).getByRole('button', { name: '删除分支' }).click();
  await page.getByRole('region', { name: '分支2' }).getByRole('button', { name: '删除分支' }).click();
  const yes = page.getByRole('region', { name: '分支1' });
  const keywords = yes.getByLabel('关键词');
  await keywords.click();
  // the starter's keywords, removed one by one until only the key 1 (the 按键 select's) is left
  const chosen = yes.locator('.ant-select-selection-item');
  for (let i = 0; i < 30 && (await chosen.count()) > 1; i++) await keywords.press('Backspace');
  await expect(chosen).toHaveText(['1']);
  await keywords.fill('有兴趣');
  await keywords.press('Enter');
  await expect(yes.locator('.ant-select-selection-item')).toHaveText(['有兴趣', '1']);
  await expect(yes).toContainText('介绍（普通节点）');
  // the variable buttons put a known variable in place of the unknown one
  const prompt = page.getByLabel('机器人话术');
  await prompt.fill('您好，请问是');
  await page.getByRole('button', { name: '{客户名称}' }).first().click();
  await expect(prompt).toHaveValue('您好，请问是{客户名称}');
  await prompt.press('End');
  await prompt.pressSequentially('吗？我们有一门新课程，您有兴趣了解一下吗？');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存成功').last()).toBeVisible();
  await expect(issues).toBeHidden();
  await expect(page.getByRole('list', { name: '流程节点' }).getByRole('listitem')).toHaveCount(3);

  // publish: v1
  await page.getByRole('button', { name: '发布' }).click();
  await expect(page.getByText('发布成功，当前版本 v1')).toBeVisible();
  await expect(page.locator('.ant-card-head').getByText('v1', { exact: true })).toBeVisible();
  await expect(page.locator('.ant-card-head').getByText('已发布')).toBeVisible();
  await shot(page, 'aibot-designer');
  await shot(page, 'aibot-designer-full', { fullPage: true });
  await page.getByRole('tab', { name: /知识库/ }).click();
  await expect(page.getByRole('region', { name: '问答1' })).toBeVisible();
  await shot(page, 'aibot-designer-kb');
  await page.getByRole('tab', { name: '意向等级规则' }).click();
  await expect(page.getByRole('region', { name: '规则1' })).toBeVisible();
  await shot(page, 'aibot-designer-grades');
  await page.getByRole('tab', { name: '流程节点' }).click();

  // the test console on v1
  await page.getByRole('button', { name: '测试' }).click();
  const consoleDrawer = page.getByRole('dialog', { name: '测试话术' });
  const log = consoleDrawer.getByRole('log', { name: '对话记录' });
  await expect(log).toContainText('请问是张先生吗？我们有一门新课程');
  // the switch to v1 is answered 1 s late: a line sent meanwhile waits for it instead of being dropped
  let held = 0;
  await page.route('**/flow/test', async (route) => {
    held++;
    await new Promise((r) => setTimeout(r, 1_000));
    await route.continue();
  });
  await pick(page, consoleDrawer, '测试版本', 'v1');
  await expect.poll(() => held).toBe(1);
  const says = consoleDrawer.getByLabel('客户说');
  await says.fill('有兴趣');
  await says.press('Enter');
  await expect(log).toContainText('命中分支');
  await page.unroute('**/flow/test');
  await expect(log.locator('.ant-tag').filter({ hasText: '有兴趣' })).toBeVisible();
  await expect(log).toContainText('介绍');
  await expect(log).toContainText('免费试用一个月');
  // again from the start, on key 1 this time
  await consoleDrawer.getByRole('button', { name: '重新开始' }).click();
  await expect(log).not.toContainText('命中分支');
  await consoleDrawer.getByRole('button', { name: '按键1' }).click();
  await expect(log).toContainText('按键 1');
  await expect(log).toContainText('免费试用一个月');
  // key 1 (肯定), two knowledge-base questions, then a no: 流程结束, grade B (some interest, no refusal)
  await says.fill('多少钱');
  await says.press('Enter');
  await expect(log).toContainText('按坐席数量收费');
  await expect(log.locator('.ant-tag').filter({ hasText: '知识库' }).first()).toBeVisible();
  await says.fill('你们是哪家公司');
  await says.press('Enter');
  await expect(log).toContainText('专注于企业销售外呼服务');
  await says.fill('不用了');
  await says.press('Enter');
  await expect(log).toContainText('通话结束：流程结束');
  const result = consoleDrawer.getByRole('region', { name: '测试结果' });
  await expect(result).toContainText('意向等级 B 有意向');
  await expect(result).toContainText('知识库 2');
  await expect(says).toBeDisabled();
  await shot(page, 'aibot-test-console');
  await consoleDrawer.getByRole('button', { name: /Close|关闭/ }).click();

  // the version is read-only in 版本记录
  await page.getByRole('button', { name: '版本记录' }).click();
  const versions = page.getByRole('dialog', { name: '版本记录' });
  await versions.getByRole('button', { name: '查看' }).click();
  const frozen = page.getByRole('dialog', { name: `${flowName} · v1（只读）` });
  await expect(frozen.getByLabel('机器人话术')).toBeDisabled();
  await expect(frozen.getByRole('button', { name: '添加节点' })).toHaveCount(0);

  // the list shows it published, with 3 nodes
  await page.goto('/aicall/flow');
  await page.getByLabel('搜索话术名称').fill(flowName);
  await page.getByLabel('搜索话术名称').press('Enter');
  const row = page.getByRole('row', { name: new RegExp(flowName) });
  await expect(row).toContainText('已发布');
  await expect(row).toContainText('v1');
  await expect(row.getByRole('cell', { name: '3', exact: true })).toBeVisible();
  await shot(page, 'aibot-flows');
});

test('大模型设置 checks the address and keeps the key on the server', async ({ browser }) => {
  const page = await openPage(browser, 'admin');
  await page.goto('/aicall/flow');
  await page.getByRole('button', { name: '大模型设置' }).click();
  const modal = page.getByRole('dialog', { name: '大模型设置' });
  await modal.getByLabel('启用大模型判定').click();
  await modal.getByLabel('接口地址').fill('abc');
  await modal.getByRole('button', { name: OK }).click();
  await expect(modal.getByText('请输入正确的接口地址')).toBeVisible();
  await expect(modal.getByText('请输入模型名称')).toBeVisible();
  // an internal address is refused by the server's policy (the operator has not allowed it)
  await modal.getByLabel('接口地址').fill('http://10.0.0.5:8000/v1');
  await modal.getByLabel('模型名称').fill('qwen2.5-7b-instruct');
  await modal.getByRole('button', { name: OK }).click();
  await expect(page.getByText(/接口地址不能指向本机、内网或云服务器元数据地址/).last()).toBeVisible();
  await expect(modal).toBeVisible();
  await modal.getByLabel('接口地址').fill('http://203.0.113.5:8000/v1');
  await modal.getByLabel('接口密钥').fill('sk-e2e-secret');
  await modal.getByLabel('超时时间（毫秒）').fill('6000');
  await modal.getByRole('button', { name: OK }).click();
  await expect(modal.getByText('超时时间为300-5000毫秒')).toBeVisible();
  await modal.getByLabel('超时时间（毫秒）').fill('2000');
  await shot(page, 'aibot-llm-settings');
  await modal.getByRole('button', { name: OK }).click();
  await expect(page.getByText('保存成功').last()).toBeVisible();
  await expect(modal).toBeHidden();

  await page.getByRole('button', { name: '大模型设置' }).click();
  await expect(modal.getByLabel('接口地址')).toHaveValue('http://203.0.113.5:8000/v1');
  await expect(modal.getByLabel('接口密钥')).toHaveValue('');
  await expect(modal.getByText('已设置', { exact: true })).toBeVisible();
  await modal.getByRole('button', { name: '清除密钥' }).click();
  await modal.getByRole('button', { name: OK }).click();
  await expect(page.getByText('保存成功').last()).toBeVisible();
  await page.getByRole('button', { name: '大模型设置' }).click();
  await expect(modal.getByLabel('接口密钥')).toHaveAttribute('placeholder', '未设置');
});

test('a node recording in MP3 is converted at upload and named in the designer; one that cannot be played is refused', async ({
  browser,
  request,
}) => {
  const admin = await apiLogin(request, 'admin');
  const { id } = await admin.post<{ id: number }>('/api/frontend/aibot/flow/store', { name: `录音话术${uniq()}` });
  const page = await openPage(browser, 'admin');
  await page.goto(`/aicall/flow/${id}`);
  await expect(page.getByText('编辑节点：开场白')).toBeVisible();
  // one second of a tone as MP3 (ffmpeg writes it; the server decodes it with ffmpeg too)
  const file = path.join(os.tmpdir(), `e2e-tone-${uniq()}.mp3`);
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    '-f',
    'mp3',
    file,
  ]);
  const mp3 = fs.readFileSync(file);
  fs.rmSync(file, { force: true });
  const upload = page.locator('input[type=file]').first();
  await upload.setInputFiles({
    name: '坏的录音.m4a',
    mimeType: 'audio/mp4',
    buffer: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypM4A '), Buffer.alloc(300)]),
  });
  await expect(page.getByText(/^录音无法转换为电话音频：/).last()).toBeVisible();
  await upload.setInputFiles({ name: '开场录音.mp3', mimeType: 'audio/mpeg', buffer: mp3 });
  await expect(page.getByText('开场录音.mp3')).toBeVisible();
  await expect(page.getByRole('link', { name: /下\s?载/ })).toHaveAttribute('download', '开场录音.mp3');
  await shot(page, 'aibot-node-recording');
  // saved and opened again: the name comes from the flow detail, not 录音文件 #id
  await page.getByRole('button', { name: /保\s?存/ }).click();
  await expect(page.getByText('保存成功').last()).toBeVisible();
  await page.reload();
  await expect(page.getByText('开场录音.mp3')).toBeVisible();
  await expect(page.getByText(/录音文件 #/)).toHaveCount(0);
});
