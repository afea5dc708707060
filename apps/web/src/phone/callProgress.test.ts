import type { CallProgress } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { progressStep } from './callProgress';

const frame = (over: Partial<CallProgress>): CallProgress =>
  ({ event: 'created', dialTime: '', dialingTime: '', dialedTime: '', dmMsg: '', ...over }) as CallProgress;

describe('progressStep for extension calls', () => {
  it('follows the event', () => {
    expect(progressStep(frame({ event: 'ringing' }), false)).toEqual({ kind: 'ringing' });
    expect(progressStep(frame({ event: 'answered' }), false)).toEqual({ kind: 'answered' });
    expect(progressStep(frame({ event: 'ended' }), false)).toEqual({ kind: 'ended', error: '' });
  });
});

describe('progressStep for device calls (SPEC §4 direct dial)', () => {
  const t = '2024-05-01 10:00:00';
  it('dialTime → dialling, dialingTime → talking, dialedTime → ended', () => {
    expect(progressStep(frame({ dialTime: t }), true)).toEqual({ kind: 'ringing' });
    expect(progressStep(frame({ dialTime: t, dialingTime: t }), true)).toEqual({ kind: 'answered' });
    expect(progressStep(frame({ dialTime: t, dialingTime: t, dialedTime: t }), true)).toEqual({ kind: 'ended', error: '' });
  });

  it('dmMsg ends the call with its error', () => {
    expect(progressStep(frame({ dialTime: t, dmMsg: '设备未插卡' }), true)).toEqual({ kind: 'ended', error: '设备未插卡' });
  });
});
