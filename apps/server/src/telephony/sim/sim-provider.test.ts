import { afterEach, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import type { LegEvent } from '../provider';
import { createSimProvider, SIM_RECORDING_MAX_SECONDS, simOutcomeOf } from './sim-provider';
import { simRecording } from './wav';

describe('sim line', () => {
  it('keys the outcome on the last digit', () => {
    expect(simOutcomeOf('13800000001')).toEqual({ kind: 'answer', ringSeconds: 1 });
    expect(simOutcomeOf('13800000004')).toEqual({ kind: 'answer', ringSeconds: 2, talkSeconds: 8 });
    expect(simOutcomeOf('13800000005')).toEqual({ kind: 'ringForever' });
    expect(simOutcomeOf('13800000007')).toMatchObject({ kind: 'fail', isRinging: false, cause: 'empty_number' });
    expect(simOutcomeOf('010-6234567-8')).toMatchObject({ kind: 'fail', cause: 'powered_off' });
  });

  it('writes an 8 kHz mono 16-bit WAV of the given length, the same for the same call', () => {
    const wav = simRecording(3, 'uuid-1');
    expect(wav.length).toBe(44 + 3 * 8000 * 2);
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(simRecording(3, 'uuid-1').equals(wav)).toBe(true);
    expect(simRecording(0, 'x').length).toBe(44);
  });

  it('reports ringing → answered → ended with billsec-long recording', async () => {
    const sim = createSimProvider({ speed: 1000, talkSeconds: 5 });
    const events: LegEvent[] = [];
    sim.onEvent((e) => {
      events.push(e);
    });
    sim.dial({ uuid: 'a', from: '8001', to: '13800000002' });
    await new Promise((r) => setTimeout(r, 100));
    expect(events.map((e) => e.kind)).toEqual(['ringing', 'answered', 'ended']);
    const [ringing, answered, ended] = events;
    expect(answered.at.getTime() - ringing.at.getTime()).toBe(2000);
    expect(ended.kind === 'ended' && ended.recording?.length).toBe(44 + 5 * 8000 * 2);
    expect(ended).toMatchObject({ side: 2, cause: 'normal' });
    expect(sim.isActive('a')).toBe(false);
    sim.close();
  });

  afterEach(() => setClockOffsetMs(0));

  it('bills a call across a moved clock in full but records at most SIM_RECORDING_MAX_SECONDS of it', async () => {
    const sim = createSimProvider({ speed: 1000, talkSeconds: 3600 });
    const events: LegEvent[] = [];
    sim.onEvent((e) => {
      events.push(e);
    });
    sim.dial({ uuid: 'b', from: '8001', to: '13800000001' });
    await new Promise((r) => setTimeout(r, 30));
    expect(events.map((e) => e.kind)).toEqual(['ringing', 'answered']);
    // a test moves the business clock a day on while the customer talks
    setClockOffsetMs(86_400_000);
    const started = Date.now();
    await sim.hangup('b', 1, 'normal');
    const ended = events.at(-1);
    if (ended?.kind !== 'ended') throw new Error('not ended');
    expect(ended.at.getTime() - (events[1] as { at: Date }).at.getTime()).toBeGreaterThanOrEqual(86_400_000);
    expect(ended.recording?.length).toBe(44 + SIM_RECORDING_MAX_SECONDS * 8000 * 2);
    expect(Date.now() - started).toBeLessThan(5_000);
    sim.close();
  });

  it('records the whole of a call when the clock stays (up to the cap and one second past it)', async () => {
    for (const talk of [SIM_RECORDING_MAX_SECONDS, SIM_RECORDING_MAX_SECONDS + 1]) {
      const sim = createSimProvider({ speed: 10_000, talkSeconds: talk });
      const events: LegEvent[] = [];
      sim.onEvent((e) => {
        events.push(e);
      });
      sim.dial({ uuid: `c${talk}`, from: '8001', to: '13800000001' });
      await new Promise((r) => setTimeout(r, 100));
      const ended = events.at(-1);
      expect(ended?.kind === 'ended' && ended.recording?.length).toBe(44 + talk * 8000 * 2);
      sim.close();
    }
  });
});
