import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { baresip, customerHeard, goOnline, inCall, promptCorrelation, RUN, readWav, toneSeconds } from './call-control-helpers';

/**
 * Call control through the running app (issue 12): the calls module's service (dial policy, call
 * record and legs, the app's own SIP UA) dials a customer (baresip), plays the synthesized prompt,
 * records a key press, then bridges the customer to lisi's extension: her real web phone pops the
 * call (msg_type 5), she clicks 接听, talks, hangs up. Driven through /internal/telephony/control
 * (X-Telephony-Secret), the service's own operations.
 * Outside the company's calling hours (08:00–21:00 Beijing by default) the business clock is moved
 * forward into them: the records of this test are then dated ahead of the others, so this file
 * runs last (its name sorts after real-call.sip.spec.ts; one worker runs the files in order).
 */
const CUSTOMER = '13800138000';
const BEIJING_MS = 8 * 3600_000;

type Leg = { id: string; role: string; state: number; digits: string; bridgedWith: string | null; hangupCause: string };

const base64 = (s: Int16Array) => Buffer.from(s.buffer, s.byteOffset, s.byteLength).toString('base64');

test('through the app: the service dials a customer, plays a prompt, reads a key, and rings the agent who answers in her web phone', async ({
  page,
  request,
}) => {
  const control = async <T>(body: object): Promise<T> => {
    const r = await request.post('/internal/telephony/control', {
      data: body,
      headers: { 'x-telephony-secret': process.env.SIP_INTERNAL_SECRET ?? '' },
    });
    expect(r.status(), await r.text()).toBe(200);
    return (await r.json()) as T;
  };
  // server calls keep the company's calling hours (08:00–21:00 Beijing by default): move the
  // business clock to 10:00 Beijing for this test, and back afterwards
  const beijing = (Date.now() + BEIJING_MS) % 86_400_000;
  const isInHours = beijing >= 8 * 3600_000 + 60_000 && beijing < 20 * 3600_000;
  const offsetSeconds = isInHours ? 0 : Math.round(((10 * 3600_000 - beijing + 86_400_000) % 86_400_000) / 1000);
  await request.post('/api/frontend/test/clock', { data: { offsetSeconds } });
  try {
    const prompt = readWav(fs.readFileSync(path.join(RUN, 'prompt.wav')));
    await goOnline(page, 'lisi');
    const since = Date.now();
    const { callUuid, legId } = await control<{ callUuid: string; legId: string }>({
      op: 'originate',
      username: 'lisi',
      number: CUSTOMER,
      ringSeconds: 20,
    });
    const legs = async () => (await control<{ legs: Leg[] }>({ op: 'legs', callUuid })).legs;
    const leg = async (id: string) => (await legs()).find((l) => l.id === id);
    await expect.poll(async () => (await leg(legId))?.state, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    console.log(`customer leg: ${JSON.stringify(await leg(legId))}`);
    expect((await leg(legId))?.state).toBe(2);

    expect((await control<{ result: string }>({ op: 'play', legId, samples: base64(prompt) })).result).toBe('done');
    // the key goes to the current account's call: an earlier spec may have left another account current
    await baresip('uafind', `sip:${CUSTOMER}@127.0.0.1:5080`);
    await baresip('sndcode', '7');
    await expect.poll(async () => (await leg(legId))?.digits, { timeout: 5_000 }).toBe('7');

    const { agentLegId } = await control<{ agentLegId: string }>({ op: 'bridge', legId, username: 'lisi' });
    const modal = inCall(page);
    await modal.getByRole('button', { name: '接听' }).click({ timeout: 10_000 });
    await expect(modal.getByTestId('call-status')).toHaveText('通话中', { timeout: 10_000 });
    await expect.poll(async () => (await leg(agentLegId))?.bridgedWith, { timeout: 10_000 }).toBe(legId);
    await page.waitForTimeout(3_000);
    const rx = await page.evaluate(async () => {
      const phone = (window as unknown as { __crmSoftphone: { stats: () => Promise<RTCStatsReport | null> } }).__crmSoftphone;
      let out = { packetsReceived: 0, totalAudioEnergy: 0 };
      (await phone.stats())?.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'audio')
          out = { packetsReceived: s.packetsReceived, totalAudioEnergy: s.totalAudioEnergy ?? 0 };
      });
      return out;
    });
    expect(rx.packetsReceived).toBeGreaterThan(100);
    expect(rx.totalAudioEnergy).toBeGreaterThan(0);

    // the agent hangs up in her phone: the service ends the customer's leg too
    await modal.getByRole('button', { name: '挂断' }).click();
    await expect(modal).toBeHidden();
    await expect.poll(async () => (await legs()).every((l) => l.state === 3), { timeout: 15_000 }).toBe(true);
    const heard = customerHeard(since);
    expect(promptCorrelation(heard, prompt)).toBeGreaterThan(0.6);
    expect(toneSeconds(heard, 440)).toBeGreaterThanOrEqual(0.5);
    console.log(`through the app: legs ${JSON.stringify(await legs())}`);
  } finally {
    await request.post('/api/frontend/test/clock', { data: { offsetSeconds: 0 } });
  }
});
