import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createSipControl, type SipControlLine } from '../../apps/server/src/telephony/sip/sip-control';
import { apiLogin } from '../fixtures/api';
import {
  agentCalls,
  baresip,
  customerHeard,
  eventLog,
  ms,
  promptCorrelation,
  RUN,
  readWav,
  startAgent,
  toneSeconds,
  toneShare,
} from './call-control-helpers';

/**
 * Call control on the real line (issue 12): the app's SIP UA (createSipControl, on
 * SIP_APP_ADDR 127.0.0.1:5070, trusted by Kamailio by address + secret) places, answers and
 * bridges legs through Kamailio + rtpengine; baresip is the customer (auto-answer, 1 kHz tone,
 * dumps what it hears), a bare JsSIP page in headless Chromium is the agent 8001 (440 Hz mic).
 * The line runs in the test process: the calls module's service wires the same line in the app.
 */
const TELEPHONY_RUN = process.env.TELEPHONY_RUN_DIR ?? `${RUN}/telephony`;
const CUSTOMER = '13800138000';
const CUSTOMER_2 = '13800138001';
const APP_NUMBER = '4008001234';
const CALLER_ID = '02150001234';

let line: SipControlLine;
const log = eventLog();
let prompt: Int16Array;
const figures: Record<string, number | string> = {};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  prompt = readWav(fs.readFileSync(path.join(RUN, 'prompt.wav')));
  line = createSipControl({
    config: {
      internalSecret: process.env.SIP_INTERNAL_SECRET ?? '',
      domain: '127.0.0.1',
      appAddr: process.env.SIP_APP_ADDR ?? '127.0.0.1:5070',
      proxy: '127.0.0.1:5060',
    },
    recordingDir: path.join(TELEPHONY_RUN, 'recordings'),
  });
  line.onControlEvent(log.push);
  await line.ready;
});

test.afterAll(async () => {
  await line?.close();
  console.log(`call-control figures (ms): ${JSON.stringify(figures)}`);
});

test('the app calls a customer, plays a synthesized prompt the customer hears, and reads the keypad', async () => {
  const since = Date.now();
  await line.originate({ legId: 'out-1', target: { kind: 'number', number: CUSTOMER, callerId: CALLER_ID }, ringSeconds: 20 });
  await log.waitFor('answered', 'out-1');
  const f = line.figures('out-1');
  figures.setupInviteTo200 = ms((f?.answeredAt ?? 0) - (f?.inviteAt ?? 0));
  expect(await line.play('out-1', prompt)).toBe('done');
  const after = line.figures('out-1');
  // the app's first packet to the customer after the 200, and the customer's first (rtpengine may pass it before the 200)
  figures.firstAppAudioAfterAnswer = ms((after?.firstTxAt ?? 0) - (after?.answeredAt ?? 0));
  figures.firstCustomerAudioAfterAnswer = ms((after?.firstRxAt ?? 0) - (after?.answeredAt ?? 0));

  // keys and dials go from baresip's current account: make the customer's current
  await baresip('uafind', `sip:${CUSTOMER}@127.0.0.1:5080`);
  const latencies: number[] = [];
  for (const digit of ['1', '2']) {
    const sent = performance.now();
    await baresip('sndcode', digit);
    const got = await log.waitFor('digit', 'out-1', 5000);
    expect(got.digit).toBe(digit);
    latencies.push(ms(got.t - sent));
    log.events.splice(log.events.indexOf(got), 1);
  }
  figures.digitLatency = latencies.join('/');
  expect(after?.lossPct).toBeLessThanOrEqual(0.5);

  await line.hangup('out-1', 'normal');
  const ended = await log.waitFor('ended', 'out-1');
  // the prompt is in rtpengine's recording of the leg, next to the customer's tone
  const rec = readWav(ended.recording ?? Buffer.alloc(0));
  expect(rec.length).toBeGreaterThan(8000 * 3);
  expect(promptCorrelation(rec, prompt)).toBeGreaterThan(0.6);
  expect(toneShare(rec, 1000)).toBeGreaterThan(0.05);
  // and baresip heard it
  const heard = customerHeard(since);
  figures.customerHeardPromptCorr = promptCorrelation(heard, prompt);
  expect(promptCorrelation(heard, prompt)).toBeGreaterThan(0.6);
});

test('a trunk call to the app number is answered by the app, played the prompt, and its digit read', async () => {
  const since = Date.now();
  await baresip('uafind', `sip:${CUSTOMER}@127.0.0.1:5080`);
  // the line answers as soon as the offer comes (baresip's control socket is closed 0.2 s later)
  const dialing = baresip('dial', `sip:${APP_NUMBER}@127.0.0.1`);
  const offered = await log.waitFor('offered');
  expect(offered.to).toBe(APP_NUMBER);
  expect(offered.from).toBe(CUSTOMER);
  await line.answer(offered.legId);
  await dialing;
  const f = line.figures(offered.legId);
  figures.inboundOfferToAnswer = ms((f?.answeredAt ?? 0) - (f?.inviteAt ?? 0));
  expect(await line.play(offered.legId, prompt)).toBe('done');
  const sent = performance.now();
  await baresip('sndcode', '3');
  const got = await log.waitFor('digit', offered.legId, 5000);
  expect(got.digit).toBe('3');
  figures.inboundDigitLatency = ms(got.t - sent);
  await line.hangup(offered.legId, 'normal');
  const ended = await log.waitFor('ended', offered.legId);
  expect(promptCorrelation(readWav(ended.recording ?? Buffer.alloc(0)), prompt)).toBeGreaterThan(0.6);
  expect(promptCorrelation(customerHeard(since), prompt)).toBeGreaterThan(0.6);
});

for (const mode of ['3pcc', 'forward'] as const) {
  test(`an answered customer is bridged to the agent's browser (${mode}): audio both ways, both in the recording`, async ({
    browser,
    request,
  }) => {
    const api = await apiLogin(request, 'lisi');
    const sips = await api.get<{ list: { user: string; pwd: string }[] }>('/api/frontend/call/sipmylist?page=1&limit=10');
    const sip = sips.list[0];
    if (!sip) throw new Error('lisi has no extension');
    const page = await browser.newPage();
    await startAgent(page, sip.user, sip.pwd);

    const since = Date.now();
    const c = `cust-${mode}`;
    const a = `agent-${mode}`;
    await line.originate({ legId: c, target: { kind: 'number', number: CUSTOMER_2, callerId: CALLER_ID }, ringSeconds: 20 });
    await log.waitFor('answered', c);
    const uuid = `call-${mode}-${Date.now()}`;
    await line.originate({
      legId: a,
      target: { kind: 'extension', user: sip.user, callerId: uuid, callUuid: uuid },
      ringSeconds: 20,
      bridgeTo: { legId: c, mode },
    });
    await log.waitFor('bridged', a, 20_000);
    const fa = line.figures(a);
    figures[`bridge_${mode}_agentInviteToBridged`] = ms((fa?.bridgedAt ?? 0) - (fa?.inviteAt ?? 0));
    await page.waitForTimeout(4000);

    const [call] = await agentCalls(page);
    expect(call?.uuid).toBe(uuid);
    expect(call?.from).not.toContain(CUSTOMER_2);
    // the customer's 1 kHz reaches the browser
    const near1k = (call?.peaks ?? []).filter((hz) => Math.abs(hz - 1000) <= 30).length;
    figures[`bridge_${mode}_browserFramesNear1kHz`] = near1k;
    console.log(`agent call (${mode}): ${JSON.stringify({ ...call, peaks: call?.peaks.slice(0, 40) })}`);
    expect(near1k).toBeGreaterThan(10);

    // the agent leaves: the customer leg comes back to the app (3PCC: a re-INVITE), which plays to it again
    const left = performance.now();
    await line.hangup(a, 'normal');
    let played = await line.play(c, prompt);
    while (played === 'stopped' && performance.now() - left < 5000) {
      await new Promise((r) => setTimeout(r, 50));
      played = await line.play(c, prompt);
    }
    expect(played).toBe('done');
    figures[`bridge_${mode}_agentLeftToPromptDone`] = ms(performance.now() - left);
    // the prompt's last packets are still on their way through rtpengine and baresip's jitter buffer
    await new Promise((r) => setTimeout(r, 500));
    await line.hangup(c, 'normal');
    const ended = await log.waitFor('ended', c);
    // the browser's 440 Hz reaches the customer, and both directions are in the customer leg's recording
    const heard = customerHeard(since);
    figures[`bridge_${mode}_customerHeard440seconds`] = toneSeconds(heard, 440);
    expect(toneSeconds(heard, 440)).toBeGreaterThanOrEqual(0.5);
    expect(promptCorrelation(heard, prompt)).toBeGreaterThan(0.6);
    const rec = readWav(ended.recording ?? Buffer.alloc(0));
    expect(toneShare(rec, 1000)).toBeGreaterThan(0.05);
    figures[`bridge_${mode}_recording440seconds`] = toneSeconds(rec, 440, 0.2);
    expect(toneSeconds(rec, 440, 0.2)).toBeGreaterThanOrEqual(0.5);
    await page.close();
  });
}

test('a closed agent tab and a new registration do not break the next call to the agent', async ({ browser, request }) => {
  const api = await apiLogin(request, 'lisi');
  const sips = await api.get<{ list: { user: string; pwd: string }[] }>('/api/frontend/call/sipmylist?page=1&limit=10');
  const sip = sips.list[0];
  if (!sip) throw new Error('lisi has no extension');
  const first = await browser.newPage();
  await startAgent(first, sip.user, sip.pwd);
  await first.close({ runBeforeUnload: false });
  const second = await browser.newPage();
  await startAgent(second, sip.user, sip.pwd);
  await line.originate({
    legId: 'agent-only',
    target: { kind: 'extension', user: sip.user, callerId: 'call-x' },
    ringSeconds: 15,
  });
  await log.waitFor('answered', 'agent-only');
  expect((await agentCalls(second)).length).toBe(1);
  await line.hangup('agent-only', 'normal');
  await second.close();
});
