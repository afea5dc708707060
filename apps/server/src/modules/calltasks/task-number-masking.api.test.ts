import {
  type AicallCallRow,
  type AicallInfo,
  CALLTASK_STATUS,
  type CallFrame,
  type CallRecordRow,
  type JobInfo,
} from '@crm/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRecords } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { callSocket, createCallTestApp, mobileEnding, readyLine, waitFor } from '../../test/calls';
import { demoValues, fetchTemplate, mustCreate, setStrategy } from '../../test/customers';
import type { TestApp } from '../../test/harness';
import { aicallTestClient } from '../aicall/aicall-test-client';

// Issue 22 item 2: the numbers of tasks reach every viewer as the customer-access policy says
// (isNumberMasked): (a) a seat task's number of a colleague's customer is dialled with the call's
// customer kept, so the agent's socket frames and call/list mask it as calltask/numbers does; (b) an
// AI task's imported numbers (no customer) are masked by phoneEncryp on aicall/calls, aicall/info,
// aicall/export and call/list as on aicall/numbers, for a viewer without the reveal permission.

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const ai = aicallTestClient(() => t, tokens);
const masked = (n: string) => `${n.slice(0, 3)}****${n.slice(-4)}`;
const ALL_DAY = { cmWeeks: [1, 2, 3, 4, 5, 6, 7], cmTimes: [{ start: '00:00', end: '23:59' }] };

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  for (const u of Object.keys(tokens)) {
    ids[u] = (await t.get('/api/frontend/user/info', tokens[u])).json().data.userInfo.cmSid;
  }
  // Monday 10:00 Beijing: inside the default calling hours of tasks and server legs
  setClockOffsetMs(Date.UTC(2030, 0, 7, 2, 0, 0) - Date.now());
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

const callList = async (token: string, cmStid: number) =>
  (await t.post('/api/frontend/call/list', { cmStid, limit: 100 }, token)).json().data.list as CallRecordRow[];

describe('(a) a seat task number of a colleague’s customer', () => {
  it('is dialled as that customer’s call: the agent’s frames (msg_type 4, the end) and call/list mask it, as calltask/numbers does', async () => {
    await setStrategy(t, tokens.admin, { phoneEncryp: 0, seaPhoneEncryp: 0 });
    const tpl = await fetchTemplate(t, tokens.admin);
    // 4: the sim customer answers and hangs up at once
    const colleagues = mobileEnding(4);
    const customerId = await mustCreate(t, tokens.wangwu, tpl, '王五的任务客户', demoValues({ 手机: colleagues }));
    const created = await t.post(
      '/api/frontend/calltask/create',
      { name: '同事客户任务', ...ALL_DAY, numbers: [colleagues], cmSidInfo: [ids.lisi] },
      tokens.admin,
    );
    expect(created.json(), created.body).toMatchObject({ code: 0 });
    const cmStid = created.json().data.cmStid as number;
    await readyLine(t, tokens.lisi);
    const socket = await callSocket(t, tokens.lisi);
    expect((await t.post('/api/frontend/calltask/start', { cmStid }, tokens.admin)).json().code).toBe(0);
    expect((await t.post('/api/frontend/calltask/work', { cmStid }, tokens.lisi)).json()).toMatchObject({ code: 0 });
    const ended = await socket.next(
      (f: CallFrame) => f.msg_type === 4 && (f.data as { event?: string } | null)?.event === 'ended',
      'the end frame',
      8000,
    );
    const uuid = (ended.data as { uuid: string }).uuid;
    // the call record keeps the customer the number belongs to
    const [record] = await t.database.db.select().from(callRecords).where(eq(callRecords.uuid, uuid));
    expect(record).toMatchObject({ taskId: cmStid, customerId, calledNumber: colleagues });
    const frames = socket.frames.filter((f) => (f.data as { uuid?: string } | null)?.uuid === uuid);
    expect(frames.map((f) => (f.data as { event: string }).event)).toContain('created');
    for (const f of frames) {
      expect(f.msg_type).toBe(4);
      expect(f.data).toMatchObject({ phone: masked(colleagues), encryptPhone: 1, cmCtid: 0, name: '' });
    }
    expect(JSON.stringify(socket.frames)).not.toContain(colleagues);
    socket.ws.close();
    const [row] = await callList(tokens.lisi, cmStid);
    expect(row).toMatchObject({ uuid, dstNumber: masked(colleagues), encryptPhone: 1, cmCtid: 0, customerName: '' });
    const numbers = (await t.post('/api/frontend/calltask/numbers', { cmStid, limit: 100 }, tokens.lisi)).json().data.list;
    expect(numbers[0]).toMatchObject({ phone: masked(colleagues), encryptPhone: 1, cmCtid: 0 });
    // his owner sees his customer's call in full
    expect((await callList(tokens.admin, cmStid))[0]).toMatchObject({ dstNumber: colleagues, cmCtid: customerId });
    await waitFor(
      async () => (await t.get(`/api/frontend/calltask/detail?cmStid=${cmStid}`, tokens.admin)).json().data.isComplete === 1,
      'the task completes',
    );
  }, 30_000);

  it('an imported number of no customer is masked on the agent’s frames and call/list when phoneEncryp is on', async () => {
    await setStrategy(t, tokens.admin, { phoneEncryp: 1, seaPhoneEncryp: 0 });
    try {
      const imported = mobileEnding(4);
      const created = await t.post(
        '/api/frontend/calltask/create',
        { name: '导入号码任务', ...ALL_DAY, numbers: [imported], cmSidInfo: [ids.lisi] },
        tokens.admin,
      );
      const cmStid = created.json().data.cmStid as number;
      await readyLine(t, tokens.lisi);
      const socket = await callSocket(t, tokens.lisi);
      expect((await t.post('/api/frontend/calltask/start', { cmStid }, tokens.admin)).json().code).toBe(0);
      expect((await t.post('/api/frontend/calltask/work', { cmStid }, tokens.lisi)).json()).toMatchObject({ code: 0 });
      await socket.next(
        (f: CallFrame) => f.msg_type === 4 && (f.data as { event?: string } | null)?.event === 'ended',
        'the end frame',
        8000,
      );
      expect(JSON.stringify(socket.frames)).not.toContain(imported);
      socket.ws.close();
      expect((await callList(tokens.lisi, cmStid))[0]).toMatchObject({ dstNumber: masked(imported), encryptPhone: 1 });
      const numbers = (await t.post('/api/frontend/calltask/numbers', { cmStid, limit: 100 }, tokens.lisi)).json().data.list;
      expect(numbers[0]).toMatchObject({ phone: masked(imported), encryptPhone: 1 });
      await waitFor(
        async () => (await t.get(`/api/frontend/calltask/detail?cmStid=${cmStid}`, tokens.admin)).json().data.isComplete === 1,
        'the task completes',
      );
    } finally {
      await setStrategy(t, tokens.admin, { phoneEncryp: 0, seaPhoneEncryp: 0 });
    }
  }, 30_000);
});

describe('(a) a group task number of a colleague’s customer', () => {
  it('is placed as that customer’s call: the put-through frames on the agent’s socket mask it', async () => {
    await setStrategy(t, tokens.admin, { phoneEncryp: 0, seaPhoneEncryp: 0 });
    const tpl = await fetchTemplate(t, tokens.admin);
    // 1: the sim customer answers after 1 s (then waits for an agent)
    const colleagues = mobileEnding(1);
    const customerId = await mustCreate(t, tokens.wangwu, tpl, '王五的群呼客户', demoValues({ 手机: colleagues }));
    const created = await t.post(
      '/api/frontend/groupcall/create',
      { name: '同事客户群呼', ...ALL_DAY, numbers: [colleagues], cmSidInfo: [ids.lisi], maxLines: 1, wrapUpSeconds: 0 },
      tokens.admin,
    );
    expect(created.json(), created.body).toMatchObject({ code: 0 });
    const cmStid = created.json().data.cmStid as number;
    await readyLine(t, tokens.lisi);
    const socket = await callSocket(t, tokens.lisi);
    expect((await t.post('/api/frontend/groupcall/start', { cmStid }, tokens.admin)).json().code).toBe(0);
    expect((await t.post('/api/frontend/groupcall/work', { cmStid }, tokens.lisi)).json()).toMatchObject({ code: 0 });
    const ringing = await socket.next(
      (f: CallFrame) => f.msg_type === 5 && (f.data as { cmStid?: number } | null)?.cmStid === cmStid,
      'the put-through to his phone',
      15_000,
    );
    expect(ringing.data).toMatchObject({ phone: masked(colleagues), encryptPhone: 1, cmCtid: 0, name: '' });
    const uuid = (ringing.data as { uuid: string }).uuid;
    // the call keeps the customer the number belongs to
    const [record] = await t.database.db.select().from(callRecords).where(eq(callRecords.uuid, uuid));
    expect(record).toMatchObject({ taskId: cmStid, customerId, calledNumber: colleagues });
    expect((await t.post('/api/frontend/groupcall/stop', { cmStid }, tokens.admin)).json().code).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(JSON.stringify(socket.frames)).not.toContain(colleagues);
    socket.ws.close();
    // his owner's side: the call is the customer's, in full
    expect((await callList(tokens.admin, cmStid)).find((r) => r.uuid === uuid)).toMatchObject({
      dstNumber: colleagues,
      cmCtid: customerId,
    });
  }, 30_000);
});

describe('(b) an AI task’s imported numbers', () => {
  it('are masked on aicall/calls, aicall/info, aicall/export and call/list for a company-wide viewer without the reveal permission', async () => {
    // 通话记录 (220) and AI外呼任务 (300), every staff in scope, no frontend/customer/decrypt
    const viewer = await ai.staffWithMenus(`aimask${process.pid % 1000}`, [220, 300], 4);
    const flowId = await ai.publishedFlowId();
    // 6: busy at once (no speech needed); the number is no customer's
    const imported = `1390022${String(process.pid % 1000).padStart(3, '0')}6`;
    const created = await ai.create({ flowId, numbers: [imported], maxAttempts: 1 });
    expect(created.code, created.msg).toBe(0);
    const cmStid = created.data.cmStid;
    expect((await ai.post('start', { cmStid })).code).toBe(0);
    await waitFor(
      async () =>
        (await ai.post<{ status: number }>('detail', null, 'admin', `cmStid=${cmStid}`)).data.status ===
        CALLTASK_STATUS.completed,
      'the AI task completes',
      30_000,
    );
    await t.app.aicallRunner.state.settled();
    await setStrategy(t, tokens.admin, { phoneEncryp: 1, seaPhoneEncryp: 0 });
    try {
      const numbers = (await ai.post<{ list: { phone: string }[] }>('numbers', { cmStid, limit: 100 }, viewer)).data.list;
      expect(numbers[0].phone).toBe(masked(imported));
      const calls = await ai.post<{ list: AicallCallRow[] }>('calls', { cmStid, limit: 100 }, viewer);
      expect(calls.data.list).toHaveLength(1);
      expect(calls.data.list[0]).toMatchObject({ phone: masked(imported), encryptPhone: 1 });
      const info = await ai.post<AicallInfo>('info', null, viewer, `id=${calls.data.list[0].id}`);
      expect(info.data).toMatchObject({ phone: masked(imported), encryptPhone: 1 });
      const records = await callList(viewer, cmStid);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ dstNumber: masked(imported), encryptPhone: 1 });
      const started = await ai.post<{ jobId: string }>('export', { cmStid }, viewer);
      expect(started.code, started.msg).toBe(0);
      const job = await waitFor(
        async () => {
          const res = (await t.get(`/api/frontend/customer/job?jobId=${started.data.jobId}`, viewer)).json().data as JobInfo;
          return res.status === 'done' ? res : undefined;
        },
        'the export job',
        20_000,
      );
      const file = await t.get(job.fileUrl, viewer);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const rows: string[] = [];
      wb.eachSheet((ws) => ws.eachRow((row) => rows.push(JSON.stringify(row.values))));
      expect(rows.join('\n')).toContain(masked(imported));
      expect(rows.join('\n')).not.toContain(imported);
      // the admin may reveal numbers: he reads it in full
      const adminRow = (await ai.post<{ list: AicallCallRow[] }>('calls', { cmStid, limit: 100 })).data.list[0];
      expect(adminRow).toMatchObject({ phone: imported, encryptPhone: 0 });
    } finally {
      await setStrategy(t, tokens.admin, { phoneEncryp: 0, seaPhoneEncryp: 0 });
    }
    // phoneEncryp off: the number is his to read
    expect((await ai.post<{ list: AicallCallRow[] }>('calls', { cmStid, limit: 100 }, viewer)).data.list[0].phone).toBe(imported);
  }, 60_000);
});
