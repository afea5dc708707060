import { describe, expect, it } from 'vitest';
import type { LegEvent } from '../provider';
import { createSimProvider, simOutcomeOf } from './sim-provider';
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
});
