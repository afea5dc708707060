import { type APIRequestContext, expect, test } from '@playwright/test';
import { baresip, customerHeard, envelope, readWav, toneShare } from './call-control-helpers';

/**
 * The AI bot on the real line (issue 16): an AI task of one number calls the customer (baresip,
 * answers at once and sends its 1 kHz tone); after the greeting he presses 1 (RFC 4733); the bot
 * takes the 肯定 branch, says the next prompt and hangs up. The call's recording holds both sides,
 * the AI call detail has the turns with their clips, the grade follows the flow's rule, and the
 * customer it made (grade A) has the AI follow (type 4) that links the AI call (record_id).
 * AI接待: baresip calls a reception number; this namespace's Kamailio sends 4009… (APP2_NUMBERS,
 * e2e/sip/run.sh) to the app's own UA (5071) while 4008… stays with the call-control scenarios' UA
 * (5070); the bot answers (200 OK), the greeting reaches the caller, and the call is stored as an
 * AI call of source 2 with its turns, the caller matched to his customer by number. API only (no
 * page). The business clock is moved into the calling hours as in server-call-app.sip.spec.ts.
 */
// its own number: the call's grade A makes a CRM customer of it, which real-call.sip.spec would then collide with
const CUSTOMER = '13800138004';
// AI接待's caller (baresip account of its own) and the reception number (routed to the app's UA)
const CALLER = '13800138005';
const RECEPTION_NUMBER = `4009${String(Date.now() % 1_000_000).padStart(6, '0')}`;
const BEIJING_MS = 8 * 3600_000;

type Answer<T> = { code: number; msg: string; data: T };

const api = (request: APIRequestContext, token: string) => ({
  post: async <T>(path: string, data: unknown): Promise<T> => {
    const r = await request.post(`/api/frontend/${path}`, { data, headers: { authorization: token } });
    const json = (await r.json()) as Answer<T>;
    expect(json.code, `${path}: ${json.msg}`).toBe(0);
    return json.data;
  },
  get: async <T>(path: string): Promise<T> => {
    const r = await request.get(`/api/frontend/${path}`, { headers: { authorization: token } });
    const json = (await r.json()) as Answer<T>;
    expect(json.code, `${path}: ${json.msg}`).toBe(0);
    return json.data;
  },
  bytes: async (url: string) => {
    const r = await request.get(url, { headers: { authorization: token } });
    expect(r.status()).toBe(200);
    expect(r.headers()['content-type']).toBe('audio/wav');
    return Buffer.from(await r.body());
  },
});

const fallback = (wait_ms: number) => ({ wait_ms, repeats: 0, prompt: '', next: null });
const node = (key: string, type: string, prompt: string, branches: unknown[] = []) => ({
  key,
  type,
  name: key,
  prompt,
  audio_file_id: null,
  interrupt: false,
  branches,
  silence: fallback(8000),
  no_match: fallback(3000),
});
const GRAPH = {
  nodes: [
    node('open', 'start', '您好，这里是云呼科技，有兴趣请按1', [
      { key: 'yes', label: '肯定', intent: 'positive', match: 'any', keywords: ['有兴趣'], digits: ['1'], next: 'intro' },
      { key: 'no', label: '拒绝', intent: 'refused', match: 'any', keywords: ['不需要'], digits: ['2'], next: 'bye' },
    ]),
    node('intro', 'end', '好的，稍后顾问会联系您，再见'),
    node('bye', 'hangup', '打扰了，再见'),
  ],
  kb: [],
  grades: [{ grade: 'A', join: 'all', conditions: [{ kind: 'counter', counter: 'positive', op: '>=', value: 1 }] }],
  settings: { max_rounds: 5, max_rounds_prompt: '再见', use_llm: false },
};

type CallRow = { id: number; grade: string; end: string; phone: string; name: string; cmCtid: number };
type Info = CallRow & {
  recording: string;
  call: { isAi: number; callFont: string; speech_path: string; match: string; node: string }[];
};

test('the bot calls a customer who presses 1: 肯定, the next prompt, hang-up; recording, turns with clips, grade', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const beijing = (Date.now() + BEIJING_MS) % 86_400_000;
  const isInHours = beijing >= 8 * 3600_000 + 60_000 && beijing < 20 * 3600_000;
  const offsetSeconds = isInHours ? 0 : Math.round(((10 * 3600_000 - beijing + 86_400_000) % 86_400_000) / 1000);
  await request.post('/api/frontend/test/clock', { data: { offsetSeconds } });
  try {
    const login = (await (
      await request.post('/api/frontend/login', { data: { username: 'admin', password: 'demo123456' } })
    ).json()) as Answer<{
      token: string;
    }>;
    const a = api(request, login.data.token);
    const { id: flowId } = await a.post<{ id: number }>('aibot/flow/store', { name: `真实线路话术${Date.now() % 100000}` });
    await a.post('aibot/flow/update', { id: flowId, name: `真实线路话术${flowId}`, remark: '', graph: GRAPH });
    await a.post('aibot/flow/publish', { id: flowId });

    // the AI task of one number, started: the runner places the bot leg
    const { cmStid } = await a.post<{ cmStid: number }>('aicall/create', {
      name: `真实线路AI任务${flowId}`,
      cmWeeks: [1, 2, 3, 4, 5, 6, 7],
      cmTimes: [{ start: '00:00', end: '23:59' }],
      numbers: [CUSTOMER],
      flowId,
      maxLines: 1,
    });
    await a.post('aicall/start', { cmStid });
    // answered (baresip answers at once): the greeting (~3 s) plays, then the customer presses 1
    await expect
      .poll(
        async () =>
          (await a.post<{ list: { dstNumber: string; answerTime: string }[] }>('call/list', { limit: 5 })).list.find(
            (r) => r.dstNumber === CUSTOMER,
          )?.answerTime ?? '',
        {
          timeout: 20_000,
        },
      )
      .not.toBe('');
    await new Promise((r) => setTimeout(r, 4_500));
    await baresip('uafind', `sip:${CUSTOMER}@127.0.0.1:5080`);
    await baresip('sndcode', '1');

    const row = await expect
      .poll(async () => (await a.post<{ list: CallRow[] }>('aicall/calls', { cmStid })).list[0]?.end ?? '', { timeout: 30_000 })
      .toBe('end')
      .then(async () => (await a.post<{ list: CallRow[] }>('aicall/calls', { cmStid })).list[0]);
    expect(row).toMatchObject({ grade: 'A', end: 'end', phone: CUSTOMER });
    const info = await a.get<Info>(`aicall/info?id=${row.id}`);
    expect(info.call.map((c) => [c.isAi, c.callFont, c.match])).toEqual([
      [1, '您好，这里是云呼科技，有兴趣请按1', ''],
      [0, '按键1', '肯定'],
      [1, '好的，稍后顾问会联系您，再见', ''],
    ]);
    // the bot's clips are its prompts (voiced audio); the key press has no clip
    for (const c of info.call.filter((x) => x.isAi)) expect(readWav(await a.bytes(c.speech_path)).length).toBeGreaterThan(8000);
    expect(info.call[1].speech_path).toBe('');
    // the recording holds both sides: the customer's 1 kHz tone and the bot's speech
    await expect.poll(async () => (await a.get<Info>(`aicall/info?id=${row.id}`)).recording, { timeout: 10_000 }).not.toBe('');
    const recording = readWav(await a.bytes((await a.get<Info>(`aicall/info?id=${row.id}`)).recording));
    expect(recording.length).toBeGreaterThan(8000 * 4);
    expect(toneShare(recording, 1000)).toBeGreaterThan(0.05);
    expect(toneShare(recording, 1000)).toBeLessThan(0.95);

    // grade A made a CRM customer of the number (the task's creator): its AI follow (type 4) links this call
    const mine = await a.post<{ list: { cmCtid: number }[] }>('customer/minelist', {
      page: 1,
      limit: 10,
      contactPhone: CUSTOMER,
    });
    expect(mine.list).toHaveLength(1);
    const follows = await a.get<{ list: { followType: number; record_id: string; remark: string }[] }>(
      `customer/followlist?cmCtid=${mine.list[0].cmCtid}&page=1&limit=50`,
    );
    const aiFollow = follows.list.find((f) => f.followType === 4 && f.record_id === String(row.id));
    expect(aiFollow?.remark).toContain('A级');
  } finally {
    await request.post('/api/frontend/test/clock', { data: { offsetSeconds: 0 } });
  }
});

const login = async (request: APIRequestContext) =>
  (
    (await (
      await request.post('/api/frontend/login', { data: { username: 'admin', password: 'demo123456' } })
    ).json()) as Answer<{
      token: string;
    }>
  ).data.token;

test('AI接待: a trunk call to a reception number is answered by the bot, greets the caller, and is stored (source 2, caller matched)', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const a = api(request, await login(request));
  const stamp = Date.now() % 100000;
  const { id: flowId } = await a.post<{ id: number }>('aibot/flow/store', { name: `真实线路接待话术${stamp}` });
  await a.post('aibot/flow/update', { id: flowId, name: `真实线路接待话术${flowId}`, remark: '', graph: GRAPH });
  await a.post('aibot/flow/publish', { id: flowId });
  await a.post('aireception/save', { number: RECEPTION_NUMBER, flowId, from: '00:00', to: '24:00', cmSidInfo: [], isEnabled: 1 });
  // the caller is a customer of the company's (matched by his number)
  const { cmCtid } = await a.post<{ cmCtid: number }>('customer/create', await customerBody(a, `接待来电客户${stamp}`));

  const since = Date.now();
  await baresip('uafind', `sip:${CALLER}@127.0.0.1:5080`);
  try {
    await baresip('dial', `sip:${RECEPTION_NUMBER}@127.0.0.1`);
    // answered by the bot (200 OK): the call record is answered; the greeting (~3 s) plays, then 1
    await expect
      .poll(
        async () =>
          (await a.post<{ list: { dstNumber: string; answerTime: string }[] }>('call/list', { limit: 5 })).list.find(
            (r) => r.dstNumber === CALLER,
          )?.answerTime ?? '',
        { timeout: 20_000 },
      )
      .not.toBe('');
    await new Promise((r) => setTimeout(r, 4_500));
    await baresip('sndcode', '1');
    const row = await expect
      .poll(async () => (await a.post<{ list: CallRow[] }>('aicall/calls', { source: 2, phone: CALLER })).list[0]?.end ?? '', {
        timeout: 30_000,
      })
      .toBe('end')
      .then(async () => (await a.post<{ list: CallRow[] }>('aicall/calls', { source: 2, phone: CALLER })).list[0]);
    expect(row).toMatchObject({ grade: 'A', end: 'end', phone: CALLER, cmCtid, name: `接待来电客户${stamp}` });
    const info = await a.get<Info>(`aicall/info?id=${row.id}`);
    expect(info.call.map((c) => [c.isAi, c.callFont, c.match])).toEqual([
      [1, '您好，这里是云呼科技，有兴趣请按1', ''],
      [0, '按键1', '肯定'],
      [1, '好的，稍后顾问会联系您，再见', ''],
    ]);
    // the caller heard the bot's greeting (baresip's dump of what it decoded: voiced audio, not only silence)
    const heard = customerHeard(since);
    expect(heard.length).toBeGreaterThan(8000 * 3);
    const loud = envelope(heard).filter((v) => v > 300).length;
    expect(loud * 0.02).toBeGreaterThan(1.5);
    // not an AI外呼 call
    expect((await a.post<{ list: CallRow[] }>('aicall/calls', { source: 1, phone: CALLER })).list).toEqual([]);
  } finally {
    // the first account current again, as baresip starts (the specs that dial from baresip expect it)
    await baresip('uafind', 'sip:13800138000@127.0.0.1:5080');
  }
});

/** The demo template's customer body: a name, 联系人 and 手机 (the caller's number). */
const customerBody = async (a: ReturnType<typeof api>, name: string) => {
  const tpl = await a.get<{ cmAtid: number; templateControls: { cbTacid: number; name: string }[] }>('customer/templateinfo');
  const control = (n: string) => tpl.templateControls.find((x) => x.name === n)?.cbTacid as number;
  return {
    cmAtid: tpl.cmAtid,
    name,
    templateControls: [
      { cbTacid: control('联系人'), dmValue: ['来电人'] },
      { cbTacid: control('手机'), dmValue: [CALLER] },
    ],
  };
};
