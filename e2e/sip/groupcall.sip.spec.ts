import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import type { CallRecordRow, CallSettingsInfo, CalltaskNumberRow, GroupcallBoard } from '../../packages/contracts/src';
import { GROUPCALL_ABANDON_TEXT } from '../../packages/contracts/src/groupcall';
import { apiLogin, uniq } from '../fixtures/api';
import { loginAs } from '../fixtures/login';
import {
  baresip,
  customerDumps,
  envelope,
  goOnline,
  inCall,
  measureRemoteAudio,
  promptCorrelation,
  readDump,
  remotePeaks,
  toneSeconds,
} from './call-control-helpers';

/**
 * Group calling on the real line (issues 15, 23): the task has two agents in work mode, lisi (web
 * phone online, JsSIP) and wangwu (his page open, his extension not online, so a put-through to him
 * fails and he is passed over). Two agents, ratio 1 at the start: two customers (baresip accounts)
 * are dialled. 13800138002 answers at once: he is put through to lisi, whose phone answers by
 * itself (no 接听, issue 23), and they hear each other (her 440 Hz microphone at the customer, the
 * customer's 1 kHz in her browser). 13800138003 rings until the test accepts it while lisi talks:
 * no agent takes it within 2 s, so the customer hears the synthesized abandon message and the app
 * hangs up. Then 13800138008 is dialled and rejected by the test: 486, counted busy. The live board
 * and the call records agree.
 */
const CONNECTED = '13800138002';
const ABANDONED = '13800138003';
const BUSY = '13800138008';
const ua = (n: string) => `sip:${n}@127.0.0.1:5080`;

/** the abandon message as the app synthesizes it (its own telephony/tts.ts: npm espeak-ng, voice cmn, 8 kHz mono) */
const abandonPrompt = () => {
  const script = `const { findSpeech } = await import('./apps/server/src/telephony/tts.ts');
const speech = await findSpeech({ engine: 'wasm', espeakBin: '' });
const x = await speech.synthesize(${JSON.stringify(GROUPCALL_ABANDON_TEXT)});
process.stdout.write(Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('base64'));`;
  const out = Buffer.from(
    execFileSync('node', ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }),
    'base64',
  );
  return Int16Array.from({ length: out.length >> 1 }, (_v, i) => out.readInt16LE(i * 2));
};

/** seconds of sound (20 ms frames above a quiet floor) */
const soundSeconds = (s: Int16Array) => envelope(s).filter((rms) => rms > 300).length * 0.02;

test('a group task on the real line: one customer talks to the agent, one hears the abandon message, one is busy', async ({
  page,
  browser,
  request,
}) => {
  const admin = await apiLogin(request, 'admin');
  const lisi = await apiLogin(request, 'lisi');
  const wangwu = await apiLogin(request, 'wangwu');
  const staff = (await admin.get<{ list: { cmSid: number; username: string }[] }>('/api/frontend/staff/list?page=1&limit=100'))
    .list;
  const lisiId = staff.find((s) => s.username === 'lisi')?.cmSid as number;
  const wangwuId = staff.find((s) => s.username === 'wangwu')?.cmSid as number;
  const wangwuContext = await browser.newContext();
  // server calls keep the company's calling hours: all day for this test, as they were afterwards
  const { line: _line, isSpeechAvailable, ...settings } = await admin.get<CallSettingsInfo>('/api/frontend/callsetting/info');
  expect(isSpeechAvailable).toBe(true);
  await admin.post('/api/frontend/callsetting/save', { ...settings, callHours: { from: '00:00', to: '24:00' } });
  let cmStid = 0;
  try {
    await measureRemoteAudio(page);
    await goOnline(page, 'lisi');
    // wangwu's page is open (his work lasts while its call socket does) but his extension is not online
    await loginAs(await wangwuContext.newPage(), 'wangwu');
    const before = new Set(customerDumps());
    ({ cmStid } = await admin.post<{ cmStid: number }>('/api/frontend/groupcall/create', {
      name: `真实群呼${uniq()}`,
      numbers: [CONNECTED, ABANDONED, BUSY],
      cmSidInfo: [lisiId, wangwuId],
      cmWeeks: [1, 2, 3, 4, 5, 6, 7],
      cmTimes: [{ start: '00:00', end: '23:59' }],
      blackState: 0,
      maxLines: 3,
      maxAttempts: 1,
      wrapUpSeconds: 0,
    }));
    const board = () => admin.get<GroupcallBoard>(`/api/frontend/groupcall/board?cmStid=${cmStid}`);
    await admin.post('/api/frontend/groupcall/start', { cmStid });
    await lisi.post('/api/frontend/groupcall/work', { cmStid });
    // his page's call socket may still be connecting: work needs it (115034 until then)
    await expect
      .poll(
        async () =>
          wangwu.post('/api/frontend/groupcall/work', { cmStid }).then(
            () => true,
            () => false,
          ),
        { timeout: 15_000 },
      )
      .toBe(true);

    // the first customer answered: he is put through to lisi and her phone answers by itself
    const modal = inCall(page);
    await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 20_000 });
    await expect(modal.getByRole('button', { name: '接听' })).toHaveCount(0);
    await expect.poll(async () => (await board()).connected, { timeout: 10_000 }).toBe(1);
    // two agents, ratio 1 at the start: two lines, not three (wangwu may join a tick after lisi's
    // first line: the second line follows his join)
    await expect.poll(async () => (await board()).called, { timeout: 10_000 }).toBe(2);

    // the second answers while lisi talks: nobody takes him within 2 s, the message, the app hangs up
    const acceptedAt = Date.now();
    await baresip('uafind', ua(ABANDONED));
    await baresip('accept');
    await expect.poll(async () => (await board()).abandoned, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await board()).called, { timeout: 20_000 }).toBe(3);
    const abandonMs = Date.now() - acceptedAt;
    // the third customer rejects the call: 486
    await baresip('uafind', ua(BUSY));
    await baresip('hangup');
    await expect.poll(async () => (await board()).linesInUse, { timeout: 20_000 }).toBe(1);

    // lisi has talked a few seconds by now; she hangs up in her phone, the customer's leg ends too
    await page.waitForTimeout(1_000);
    await modal.getByRole('button', { name: '挂断' }).click();
    await expect(modal).toBeHidden();
    await expect.poll(async () => (await board()).linesInUse, { timeout: 15_000 }).toBe(0);

    // audio both ways: the customer's 1 kHz in lisi's browser, her 440 Hz at the customer
    const peaks = await remotePeaks(page);
    const near1k = peaks.filter((hz) => Math.abs(hz - 1000) <= 30).length;
    // one dump per answered call, named by its start second: the connected customer's, then the abandoned one's
    const dumps = customerDumps().filter((f) => !before.has(f));
    expect(dumps).toHaveLength(2);
    const talked = readDump(dumps[0] as string);
    const abandoned = readDump(dumps[1] as string);
    const prompt = abandonPrompt();
    const figures = {
      browserFramesNear1kHz: near1k,
      customerHeard440seconds: toneSeconds(talked, 440),
      abandonedPromptCorr: promptCorrelation(abandoned, prompt),
      abandonedSoundSeconds: Math.round(soundSeconds(abandoned) * 10) / 10,
      promptSoundSeconds: Math.round(soundSeconds(prompt) * 10) / 10,
      acceptToAbandonEndMs: abandonMs,
    };
    console.log(`group call figures: ${JSON.stringify(figures)}`);
    expect(near1k).toBeGreaterThan(10);
    // her tone pulses (0.5 s on, 0.4 s off): several seconds of talk carry seconds of it
    expect(toneSeconds(talked, 440)).toBeGreaterThanOrEqual(0.5);
    // the abandoned customer heard the whole message
    expect(promptCorrelation(abandoned, prompt)).toBeGreaterThan(0.6);
    expect(soundSeconds(abandoned)).toBeGreaterThan(0.8 * soundSeconds(prompt));

    // the board and the records agree: 3 called, 2 answered, 1 connected, 1 abandoned (50%), 1 busy
    const b = await board();
    expect(b).toMatchObject({ called: 3, answered: 2, connected: 1, abandoned: 1, abandonRate: 50, linesInUse: 0 });
    const calls = (await admin.post<{ list: CallRecordRow[] }>('/api/frontend/call/list', { cmStid, page: 1, limit: 10 })).list;
    expect(calls).toHaveLength(3);
    const answered = calls.filter((c) => c.answerTime !== '');
    expect(answered).toHaveLength(b.answered);
    expect(calls.filter((c) => c.hangupCause === 'busy')).toHaveLength(1);
    const withAgent = answered.filter((c) => c.cmSid === lisiId);
    expect(withAgent).toHaveLength(1);
    expect(withAgent[0]?.billsec).toBeGreaterThanOrEqual(3);
    expect(answered.filter((c) => c.cmSid === 0)).toHaveLength(b.abandoned);
    // every number settled by the outcome rules (the tick after its call ended), the busy one as busy
    const numbers = async () =>
      (await admin.post<{ list: CalltaskNumberRow[] }>('/api/frontend/calltask/numbers', { cmStid, limit: 10 })).list;
    await expect.poll(async () => (await numbers()).every((n) => n.state !== 0 && n.state !== 1), { timeout: 5_000 }).toBe(true);
    expect((await numbers()).filter((n) => n.lastCode === 'busy')).toHaveLength(1);
  } finally {
    // the first account current again, as baresip starts (the specs that dial from baresip expect it)
    await baresip('uafind', ua('13800138000'));
    if (cmStid) await admin.post('/api/frontend/groupcall/stop', { cmStid }).catch(() => undefined);
    await wangwuContext.close();
    await admin.post('/api/frontend/callsetting/save', settings);
  }
});
