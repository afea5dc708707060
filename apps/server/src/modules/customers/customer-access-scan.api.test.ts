import type { CallFrame, DialResponse, JobInfo, PoolRules } from '@crm/contracts';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, callSocket, createCallTestApp, endedCall, mobileEnding, register, waitFor } from '../../test/calls';
import { demoValues, fetchTemplate, grantRole, mustCreate, setStrategy, type Template } from '../../test/customers';
import type { TestApp } from '../../test/harness';
import { aicallTestClient } from '../aicall/aicall-test-client';

/**
 * Issue 11: a scan of every route a sales user (李四, data scope own) can reach, with private and
 * pool masking on and off, for numbers he may not see. Routes come from the app itself, so a new
 * route is scanned (GET, and POST lists) or must be named below with the reason it is not.
 */

/** POST routes that are not read: they change data or need a body of their own (covered by their own tests). */
const NOT_SCANNED_POST: Record<string, string> = {
  '/api/frontend/login': 'session',
  '/api/frontend/logout': 'ends the scanning session',
  '/api/frontend/user/password': 'account',
  '/api/frontend/user/edit': 'account',
  '/api/frontend/upload/file': 'multipart upload',
  '/api/frontend/test/clock': 'test clock',
  '/api/frontend/call/dial': 'scanned below with its socket frames',
  '/api/callend/phone/dial': 'device accounts only (merchantType 2)',
  '/api/frontend/call/hangup': 'mutation',
  '/api/callend/phone/hangup': 'mutation',
  '/api/frontend/call/answer': 'mutation',
  '/api/frontend/call/simincoming': 'mutation (an incoming call is seeded below)',
  '/api/frontend/black/check': 'blacklist numbers the caller typed himself',
  '/api/frontend/calltask/numberfile': 'the entries of a file the caller uploaded himself',
  '/api/frontend/call/missedseen': 'mutation (marks missed calls seen)',
  // deal orders (issue 13): mutations; order/list and auditdetail are scanned as GET routes
  '/api/frontend/product/status': 'mutation',
  '/api/frontend/product/import': 'mutation (catalogue import)',
  '/api/frontend/order/store': 'mutation',
  '/api/frontend/order/export': 'a job with the columns of order/list, which carry no phone number',
  '/api/frontend/order/verify': 'mutation',
  '/api/frontend/order/withdraw': 'mutation',
  '/api/frontend/order/cooperators': 'mutation',
  '/api/frontend/order/transfer': 'mutation',
  '/api/v1/merchantapp/templateadd': 'mutation',
  '/api/v1/staff/approvalact': 'mutation',
  '/api/v1/staff/approvalwithdraw': 'mutation',
  // 外呼设置 (issue 12): admin settings and a test call to a number the admin typed himself
  '/api/frontend/callsetting/save': 'mutation',
  '/api/frontend/callsetting/testcall': 'a test call to the number the admin typed himself',
  // receipts (issue 14): mutations and an export of plan rows (no phone numbers)
  '/api/frontend/receipt/planupdate': 'mutation',
  '/api/frontend/receipt/update': 'mutation',
  '/api/frontend/receipt/settingsave': 'mutation',
  '/api/frontend/receipt/export': 'a job with the columns of receipt/planlist, which carry no phone number',
  '/api/frontend/receipt/listexport': 'a job with the columns of receipt/list, which carry no phone number',
  '/api/frontend/company/modulesave': 'mutation (the company module switches)',
  // work orders (issue 14): mutations and an export of work-order rows (no phone numbers); list/detail are scanned as GET routes
  '/api/frontend/workorder/typesave': 'mutation',
  '/api/frontend/workorder/transition': 'mutation',
  '/api/frontend/workorder/comment': 'mutation',
  '/api/frontend/workorder/transfer': 'mutation',
  '/api/frontend/workorder/export': 'a job with the columns of workorder/list, which carry no phone number',
  // seat tasks (issue 15): the lifecycle and the agent's work are mutations; calltask/numbers is scanned below
  '/api/frontend/calltask/start': 'mutation',
  '/api/frontend/calltask/pause': 'mutation',
  '/api/frontend/calltask/resume': 'mutation',
  '/api/frontend/calltask/stop': 'mutation',
  '/api/frontend/calltask/work': 'mutation (the task dials; its frames are the call socket’s, scanned below)',
  '/api/frontend/calltask/unwork': 'mutation',
  '/api/frontend/calltask/outcome': 'mutation',
  '/api/frontend/calltask/numbers': 'scanned below with the seat tasks 李四 works (every seeded customer; the one he dialled)',
  // group calling (issue 15): the lifecycle and the agent's work are mutations; groupcall/list carries no number
  '/api/frontend/groupcall/start': 'mutation',
  '/api/frontend/groupcall/pause': 'mutation',
  '/api/frontend/groupcall/resume': 'mutation',
  '/api/frontend/groupcall/stop': 'mutation',
  '/api/frontend/groupcall/work': 'mutation (the agent is rung for answered customers through the call socket, scanned below)',
  '/api/frontend/groupcall/unwork': 'mutation',
  // calling compliance (issue 15): mutations; dnc/list and dnc/refusals are scanned as GET routes
  '/api/frontend/dnc/add': 'mutation',
  '/api/frontend/dnc/addfromcall': 'mutation (by call uuid; answers an id)',
  // AI voice bot (issue 16): flow mutations and settings; flow/test replays turns the admin typed (no numbers)
  '/api/frontend/aireception/save': 'mutation (an AI接待 number the admin types)',
  '/api/frontend/aireception/simcall': 'mutation (a sim call to the company’s own reception number; the record is aicall/calls’)',
  '/api/frontend/aibot/flow/store': 'mutation',
  '/api/frontend/aibot/flow/update': 'mutation',
  '/api/frontend/aibot/flow/publish': 'mutation',
  '/api/frontend/aibot/flow/copy': 'mutation',
  '/api/frontend/aibot/flow/delete': 'mutation',
  '/api/frontend/aibot/flow/test': 'the test console: replays the turns the caller typed, no customer data',
  '/api/frontend/aibot/setting': 'mutation (the company’s LLM settings); its GET is scanned',
  // AI tasks (issue 16): the lifecycle is mutations; numbers, calls, info and the export are scanned below
  // with an AI task whose agent 李四 is (issue 22)
  '/api/frontend/aicall/start': 'mutation',
  '/api/frontend/aicall/pause': 'mutation',
  '/api/frontend/aicall/resume': 'mutation',
  '/api/frontend/aicall/stop': 'mutation',
  // lead search (issue 28): registry companies and the company's own leads, not customers' numbers;
  // the convert check names existing customers through the customer-access policy (leads.api.test.ts)
  '/api/frontend/customer/kqhk/convert': 'mutation (customers made through the customers service)',
  '/api/frontend/customer/kqhk/convert/check': 'names existing customers masked by the policy (leads.api.test.ts)',
  '/api/frontend/customer/kqhk/batch/company': 'mutation (starts a batch job of company names)',
  '/api/frontend/customer/kqhk/batch/company/export': 'mutation (starts an export job)',
  '/api/frontend/customer/kqhk/task/add': 'mutation (numbers into a task)',
  '/api/frontend/customer/kqhk/own/import': 'multipart upload',
  // billing (issue 27): the charges' callee is masked by the policy (billing-ledger.api.test.ts); these change data
  '/api/frontend/billing/settings': 'mutation (low-balance thresholds)',
  '/api/frontend/billing/export': 'mutation (starts an export job)',
  '/api/frontend/billing/alertsread': 'mutation',
  '/api/operator/billing/recharge': 'platform operator token, not a session',
  '/api/operator/billing/rerate': 'platform operator token, not a session',
  '/api/operator/billing/plans': 'platform operator token, not a session',
  '/api/operator/billing/assign': 'platform operator token, not a session',
  '/api/operator/billing/adjust': 'platform operator token, not a session',
  // contracts (issue 26): changes to settings and contracts; the public signing routes take a link token
  '/api/contract/info': 'mutation (the e-sign account)',
  '/api/contract/seal_sign/store': 'mutation',
  '/api/contract/seal_sign/destroy': 'mutation',
  '/api/contract/signer/link': 'mutation (a new signing link)',
  '/api/contract/sign/submit': 'public; a link token (contract.api.test.ts)',
  '/api/contract/template/store': 'mutation',
  '/api/contract/template/update': 'mutation',
  '/api/contract/template/preview': 'renders a PDF of sample values, no customer data',
  '/api/contract/rule/update': 'mutation',
  '/api/contract/create/sign': 'mutation (sends for signing)',
  '/api/contract/discard': 'mutation',
  '/api/contract/draft': 'public; a link token, sends the one-time code (contract.api.test.ts)',
  '/api/contract/placeOnFile': 'mutation (archives)',
  '/api/contract/batchDownload': 'mutation (starts a zip job)',
  '/api/contract/verify': 'public; multipart PDF upload',
  '/api/uploadPdf': 'multipart upload',
};
/** Mutation verbs: a POST path ending in one of them changes data and is not scanned. */
const MUTATION =
  /(create|dcreate|edit|del|delall|set|sort|state|resetpwd|batchedit|label|stage|followdown|followup|allot|batchallot|restore|recyclerun|importpreview|importstart|bindhone|bindstaff|default|defaultmy|defaultphoneState|defaultregisterStatus|devicesecret)$/;
/** GET routes not scanned. */
const NOT_SCANNED_GET: Record<string, string> = {
  '/api/frontend/customer/phone': 'the counted reveal: the one call that returns a full number (DESIGN §4)',
  '/ws/call': 'scanned below (socket frames of a dial)',
  '/ws/device': 'device channel (imei + secret)',
  '/': 'the SPA',
};

type Route = { method: 'GET' | 'POST'; path: string };

/** Every GET/POST route of the app, from printRoutes (the tree printed with full segments). */
const routesOf = (t: TestApp): Route[] => {
  const stack: string[] = [];
  const out: Route[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const m = /^(.*?) \(([^)]*)\)$/.exec(line.slice(at + 3));
    const segment = m ? m[1] : line.slice(at + 3);
    stack[depth] = (depth > 0 ? stack[depth - 1] : '') + segment;
    stack.length = depth + 1;
    for (const method of m ? m[2].split(',').map((s) => s.trim()) : []) {
      if (method === 'GET' || method === 'POST') out.push({ method, path: stack[depth] });
    }
  }
  return out;
};

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

/** The seeded customers: whose they are, their numbers, and whether 李四 may see them at all. */
type Seeded = { id: number; numbers: string[]; place: 'own' | 'pool' | 'hidden' };
const seeded: Seeded[] = [];
const fileNames: string[] = [];
let exportsRead = 0;
let exportsStarted = 0;
let uuids: string[] = [];
/** A seat task of every seeded customer (the admin's selection) with 李四 as its agent. */
let scanTask = 0;
/**
 * Issue 22: a seat task 李四 worked (its calls placed to a colleague's customer and to an imported
 * number of no customer) and an AI task of his whose bot dialled the same kinds of number.
 */
let dialledTask = 0;
let aiTask = 0;
let aiCallIds: number[] = [];
/** Numbers of tasks that belong to no customer: nobody's to read in full while phoneEncryp is on. */
const taskOnlyNumbers: string[] = [];

const rules: PoolRules = {
  recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
  claim: { dailyMax: 0, cooldownDays: 0 },
};

const seedCustomer = async (user: string, place: Seeded['place'], extra = true, digit = 4) => {
  const phone = mobileEnding(digit);
  const id = await mustCreate(t, as(user), tpl, `扫描客户${seeded.length + 1}`, demoValues({ 手机: phone }));
  const numbers = [phone];
  if (extra) {
    const added = mobileEnding(4);
    const res = await t.post(
      '/api/frontend/customer/other/phonecreate',
      { cmCtid: id, contactPerson: '联系人', contactNo: added, contactType: 1, contactPosition: '', kpType: 0, recommend: 0 },
      as(user),
    );
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    numbers.push(added);
  }
  const row: Seeded = { id, numbers, place };
  seeded.push(row);
  return row;
};

const dialAndEnd = async (user: string, cmCtid: number) => {
  advanceSeconds(120);
  const res = await t.post('/api/frontend/call/dial', { cmCtid }, as(user));
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  const call = res.json().data as DialResponse;
  const ended = await endedCall(t, call.uuid);
  if (ended.recordFile) fileNames.push(ended.recordFile.replace('/api/files/', ''));
  return call;
};

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'wangwu', 'zhaoliu']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
  // 601 禁拨名单 and 602 外呼拦截记录 (issue 15), 300 AI外呼任务 (issue 22): their numbers are scanned too
  await grantRole(t, as('admin'), '销售', { actions: ['frontend/customer/export'], menuIds: [601, 602, 300] });
  tokens.lisi = await t.login('lisi');
  await setStrategy(t, as('admin'));
  const staff = (await t.get('/api/frontend/staff/list?page=1&limit=100', as('admin'))).json().data.list as {
    username: string;
    cmDid: number;
  }[];
  const dept2 = staff.find((s) => s.username === 'zhaoliu')?.cmDid ?? 0;
  const reason = (await t.post('/api/frontend/customerset/discardcreate', { name: '扫描', sortNum: 9 }, as('admin'))).json().data
    .cmCdid;
  const openPool = (
    await t.post('/api/frontend/customerset/highseasdcreate', { name: '扫描公海', useRules: rules }, as('admin'))
  ).json().data.cmHsid;
  const dept2Pool = (
    await t.post(
      '/api/frontend/customerset/highseasdcreate',
      { name: '扫描二部公海', useRules: rules, useCmDids: [dept2] },
      as('admin'),
    )
  ).json().data.cmHsid;

  const own = await seedCustomer('lisi', 'own');
  const pooled = await seedCustomer('lisi', 'pool');
  const other = await seedCustomer('wangwu', 'hidden');
  await seedCustomer('zhaoliu', 'hidden');
  const hiddenPool = await seedCustomer('zhaoliu', 'hidden');
  // 6: busy at once on the sim line (the AI task's bot dials it: no speech needed)
  const hiddenBusy = await seedCustomer('zhaoliu', 'hidden', true, 6);
  // calls: 李四's own customer, the pool customer (dialled by id before it was pooled), 王五's customer
  await register(t, as('lisi'));
  await register(t, as('wangwu'));
  uuids = [(await dialAndEnd('lisi', own.id)).uuid, (await dialAndEnd('lisi', pooled.id)).uuid];
  await dialAndEnd('wangwu', other.id);
  for (const [user, c, pool] of [
    ['lisi', pooled, openPool],
    ['zhaoliu', hiddenPool, dept2Pool],
  ] as const) {
    const res = await t.post('/api/frontend/customer/followdown', { cmCtids: [c.id], cmHsid: pool, cmCdid: reason }, as(user));
    expect(res.json(), res.body).toMatchObject({ code: 0 });
  }
  // 王五's customer calls 李四's extension: the call is 李四's, the number is not his to see.
  const sips = (await t.get('/api/frontend/call/sipmylist?page=1&limit=10', as('lisi'))).json().data.list as {
    cmSipid: number;
  }[];
  const incoming = await t.post(
    '/api/frontend/call/simincoming',
    { cmSipid: sips[0]?.cmSipid, callerNumber: other.numbers[0], ringSeconds: 1 },
    as('admin'),
  );
  expect(incoming.json(), incoming.body).toMatchObject({ code: 0 });
  await endedCall(t, incoming.json().data.uuid);
  const me = (await t.get('/api/frontend/user/info', as('lisi'))).json().data.userInfo.cmSid as number;
  const task = await t.post(
    '/api/frontend/calltask/create',
    {
      name: '扫描任务',
      cmCtids: seeded.map((c) => c.id),
      cmSidInfo: [me],
      cmWeeks: [1, 2, 3, 4, 5, 6, 7],
      cmTimes: [{ start: '09:00', end: '18:00' }],
    },
    as('admin'),
  );
  expect(task.json(), task.body).toMatchObject({ code: 0 });
  scanTask = task.json().data.cmStid;
  // 禁拨 (issue 15): every customer's second number is on the list, and 李四's dials to them are
  // refused and logged (the first numbers stay dialable: the socket scan dials them by id)
  for (const c of seeded) {
    const added = await t.post('/api/frontend/dnc/add', { phone: c.numbers[1] }, as('admin'));
    expect(added.json(), added.body).toMatchObject({ code: 0 });
    const refused = await t.post('/api/frontend/call/dial', { dstNumber: c.numbers[1] }, as('lisi'));
    expect(refused.json(), refused.body).toMatchObject({ code: 115001 });
  }
  await seedTaskCalls(me, other, hiddenBusy);
}, 90_000);

/**
 * Issue 22: 李四 works a seat task of 王五's customer and an imported number (the task dials both
 * through his extension), and is the agent of an AI task whose bot dials 赵六's customer and an
 * imported number (both busy: not connected AI calls).
 */
const seedTaskCalls = async (me: number, colleagues: Seeded, busy: Seeded) => {
  const allDay = { cmWeeks: [1, 2, 3, 4, 5, 6, 7], cmTimes: [{ start: '00:00', end: '23:59' }] };
  const imported = mobileEnding(4);
  const importedBusy = mobileEnding(6);
  taskOnlyNumbers.push(imported, importedBusy);
  const created = await t.post(
    '/api/frontend/calltask/create',
    { name: '扫描拨打任务', ...allDay, numbers: [colleagues.numbers[0], imported], cmSidInfo: [me], wrapUpSeconds: 0 },
    as('admin'),
  );
  expect(created.json(), created.body).toMatchObject({ code: 0 });
  dialledTask = created.json().data.cmStid;
  const socket = await callSocket(t, as('lisi'));
  expect((await t.post('/api/frontend/calltask/start', { cmStid: dialledTask }, as('admin'))).json().code).toBe(0);
  expect((await t.post('/api/frontend/calltask/work', { cmStid: dialledTask }, as('lisi'))).json().code).toBe(0);
  await waitFor(
    async () => (await t.get(`/api/frontend/calltask/detail?cmStid=${dialledTask}`, as('admin'))).json().data.isComplete === 1,
    'the seat task dialled both numbers',
    15_000,
  );
  // the task's frames (msg_type 4 to the end) never carry the colleague's customer's number
  expect(socket.frames.some((f) => f.msg_type === 4)).toBe(true);
  expect(JSON.stringify(socket.frames)).not.toContain(colleagues.numbers[0]);
  socket.ws.terminate();
  const ai = aicallTestClient(() => t, tokens);
  const started = await ai.create({
    ...allDay,
    flowId: await ai.publishedFlowId(),
    numbers: [busy.numbers[0], importedBusy],
    cmSidInfo: [me],
    maxAttempts: 1,
  });
  expect(started.code, started.msg).toBe(0);
  aiTask = started.data.cmStid;
  expect((await ai.post('start', { cmStid: aiTask })).code).toBe(0);
  await waitFor(
    async () => (await ai.post<{ status: number }>('detail', null, 'admin', `cmStid=${aiTask}`)).data.status === 4,
    'the AI task dialled both numbers',
    30_000,
  );
  await t.app.aicallRunner.state.settled();
  aiCallIds = (await ai.post<{ list: { id: number }[] }>('calls', { cmStid: aiTask, limit: 100 })).data.list.map((r) => r.id);
  expect(aiCallIds).toHaveLength(2);
};
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

/** The numbers 李四 may not see in full with these flags. */
const forbiddenOf = (flags: { phoneEncryp: number; seaPhoneEncryp: number }) => [
  ...seeded.flatMap((c) => {
    const isHidden =
      c.place === 'hidden' ||
      (c.place === 'own' && flags.phoneEncryp === 1) ||
      (c.place === 'pool' && flags.seaPhoneEncryp === 1);
    return isHidden ? c.numbers : [];
  }),
  // a task's number of no customer: masked as a private customer's (issue 22)
  ...(flags.phoneEncryp === 1 ? taskOnlyNumbers : []),
];

/** Every text a reply carries: headers, body, and for a finished export job the rows of its file. */
const textsOf = async (res: LightMyRequestResponse): Promise<string[]> => {
  const texts = [JSON.stringify(res.headers), res.body];
  const jobId = res.headers['content-type']?.toString().includes('json') ? res.json()?.data?.jobId : undefined;
  if (typeof jobId === 'string') {
    exportsStarted += 1;
    let job: JobInfo | undefined;
    for (let i = 0; i < 200; i++) {
      job = (await t.get(`/api/frontend/customer/job?jobId=${jobId}`, as('lisi'))).json().data as JobInfo;
      if (job.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    texts.push(JSON.stringify(job));
    if (job?.fileUrl) {
      const file = await t.get(job.fileUrl, as('lisi'));
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      wb.eachSheet((ws) => ws.eachRow((row) => texts.push(JSON.stringify(row.values))));
      exportsRead += 1;
    }
  }
  return texts;
};

const scanRoutes = async (flags: { phoneEncryp: number; seaPhoneEncryp: number }) => {
  await setStrategy(t, as('admin'), flags);
  const forbidden = forbiddenOf(flags);
  const leaks: string[] = [];
  let scanned = 0;
  const check = async (what: string, res: LightMyRequestResponse) => {
    expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
    scanned += 1;
    const all = (await textsOf(res)).join('\n');
    for (const n of forbidden) if (all.includes(n)) leaks.push(`${what} → ${n}`);
  };
  const unclassified: string[] = [];
  for (const route of routesOf(t)) {
    if (!route.path.startsWith('/api/') && !route.path.startsWith('/ws/')) continue;
    if (route.path.startsWith('/api/docs')) continue;
    if (route.method === 'GET') {
      if (NOT_SCANNED_GET[route.path]) continue;
      if (route.path === '/api/files/:name') {
        for (const name of fileNames) await check(`GET file ${name}`, await t.get(`/api/files/${name}`, as('lisi')));
        continue;
      }
      if (route.path.includes(':')) {
        unclassified.push(`GET ${route.path}`);
        continue;
      }
      if (route.path === '/api/frontend/aicall/info') {
        // the AI calls of his AI task (issue 22)
        for (const id of aiCallIds) await check(`GET ${route.path} ${id}`, await t.get(`${route.path}?id=${id}`, as('lisi')));
        continue;
      }
      for (const c of seeded) {
        const q = `cmCtid=${c.id}&page=1&limit=100&uuid=${uuids[0]}`;
        await check(`GET ${route.path} #${c.id}`, await t.get(`${route.path}?${q}`, as('lisi')));
      }
      continue;
    }
    if (route.path === '/api/frontend/aicall/calls') {
      // the AI call lists of both sources (the numbers masked as call records are)
      for (const source of [1, 2])
        await check(`POST ${route.path} ${source}`, await t.post(route.path, { source, limit: 100 }, as('lisi')));
      continue;
    }
    if (route.path === '/api/frontend/calltask/numbers') {
      for (const cmStid of [scanTask, dialledTask])
        await check(`POST ${route.path} ${cmStid}`, await t.post(route.path, { cmStid, limit: 100 }, as('lisi')));
      continue;
    }
    if (route.path === '/api/frontend/aicall/numbers' || route.path === '/api/frontend/aicall/export') {
      // his AI task's numbers, and its calls as .xlsx (the job followed to its file)
      await check(`POST ${route.path}`, await t.post(route.path, { cmStid: aiTask, limit: 100 }, as('lisi')));
      continue;
    }
    const isList = /list$/.test(route.path);
    if (!isList) {
      if (!NOT_SCANNED_POST[route.path] && !MUTATION.test(route.path)) unclassified.push(`POST ${route.path}`);
      continue;
    }
    // an export ignores the customer id: once per route is enough
    for (const c of /exportlist$/.test(route.path) ? seeded.slice(0, 1) : seeded) {
      const body = { cmCtid: c.id, page: 1, limit: 100 };
      await check(`POST ${route.path} #${c.id}`, await t.post(route.path, body, as('lisi')));
    }
  }
  expect(unclassified, 'routes to scan or to name in NOT_SCANNED_*').toEqual([]);
  return { leaks, scanned };
};

describe('scan: no route shows 李四 a number he may not see', () => {
  for (const flags of [
    { phoneEncryp: 1, seaPhoneEncryp: 1 },
    { phoneEncryp: 0, seaPhoneEncryp: 0 },
    { phoneEncryp: 1, seaPhoneEncryp: 0 },
    { phoneEncryp: 0, seaPhoneEncryp: 1 },
  ]) {
    it(`every reachable GET and POST list, phoneEncryp=${flags.phoneEncryp} seaPhoneEncryp=${flags.seaPhoneEncryp}`, async () => {
      const [readBefore, startedBefore] = [exportsRead, exportsStarted];
      const { leaks, scanned } = await scanRoutes(flags);
      expect(leaks).toEqual([]);
      expect(scanned).toBeGreaterThan(100);
      // every export he could start was followed to its file and read (mine, subscribe, never, seas at least)
      expect(exportsStarted - startedBefore).toBeGreaterThanOrEqual(4);
      expect(exportsRead - readBefore).toBe(exportsStarted - startedBefore);
    }, 120_000);
  }

  it('the scan sees numbers he may see (it can fail): own and pool numbers in full when masking is off', async () => {
    await setStrategy(t, as('admin'), { phoneEncryp: 0, seaPhoneEncryp: 0 });
    const mine = await t.post('/api/frontend/customer/minelist', { limit: 100 }, as('lisi'));
    const own = seeded.find((c) => c.place === 'own');
    expect(mine.body).toContain(own?.numbers[0]);
    const seas = await t.post('/api/frontend/customer/seaslist', { limit: 100 }, as('lisi'));
    expect(seas.body).toContain(seeded.find((c) => c.place === 'pool')?.numbers[0]);
  });

  it('socket frames of a dial by id carry no number he may not see', async () => {
    for (const flags of [
      { phoneEncryp: 1, seaPhoneEncryp: 1 },
      { phoneEncryp: 0, seaPhoneEncryp: 1 },
      { phoneEncryp: 1, seaPhoneEncryp: 0 },
    ]) {
      await setStrategy(t, as('admin'), flags);
      await register(t, as('lisi'));
      const socket = await callSocket(t, as('lisi'));
      for (const c of seeded.filter((s) => s.place !== 'hidden')) {
        const call = await dialAndEnd('lisi', c.id);
        await socket.next(
          (f: CallFrame) =>
            (f.data as { uuid?: string; event?: string } | null)?.uuid === call.uuid &&
            (f.data as { event: string }).event === 'ended',
          'ended frame',
        );
      }
      const text = JSON.stringify(socket.frames);
      for (const n of forbiddenOf(flags)) expect(text, JSON.stringify(flags)).not.toContain(n);
      socket.ws.terminate();
    }
  }, 60_000);
});
