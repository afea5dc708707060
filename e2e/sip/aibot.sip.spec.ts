import { type APIRequestContext, expect, test } from '@playwright/test';
import { baresip, readWav, toneShare } from './call-control-helpers';

/**
 * The AI bot on the real line (issue 16): an AI task of one number calls the customer (baresip,
 * answers at once and sends its 1 kHz tone); after the greeting he presses 1 (RFC 4733); the bot
 * takes the 肯定 branch, says the next prompt and hangs up. The call's recording holds both sides,
 * the AI call detail has the turns with their clips, and the grade follows the flow's rule. API
 * only (no page). AI接待 is not here: this namespace's Kamailio routes the trunk's app numbers
 * (APP_NUMBERS, 4008…) to the call-control scenarios' own UA (SIP_APP_ADDR 5070), not to the app's
 * UA (5071); the reception is covered on the sim line (aicall-calls.api.test.ts).
 * The business clock is moved into the calling hours as in server-call-app.sip.spec.ts.
 */
// its own number: the call's grade A makes a CRM customer of it, which real-call.sip.spec would then collide with
const CUSTOMER = '13800138004';
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

type CallRow = { id: number; grade: string; end: string; phone: string };
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
  } finally {
    await request.post('/api/frontend/test/clock', { data: { offsetSeconds: 0 } });
  }
});
