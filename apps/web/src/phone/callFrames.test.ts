import type { CallProgress } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { createFrameLedger, frameAction } from './callFrames';

const p = (uuid: string) => ({ uuid, event: 'ringing' }) as CallProgress;

describe('frameAction', () => {
  it('reads the frames the phone acts on', () => {
    expect(frameAction({ code: 0, msg_type: 1, msg: '', data: { cmSid: 1 } })).toEqual({ kind: 'loggedIn' });
    expect(frameAction({ code: 0, msg_type: 4, msg: '', data: p('a') })).toEqual({ kind: 'progress', progress: p('a') });
    expect(frameAction({ code: 0, msg_type: 5, msg: '', data: p('b') })).toEqual({ kind: 'incoming', progress: p('b') });
    expect(frameAction({ code: 100001, msg_type: 3, msg: '请勿多端登录', data: null })).toEqual({ kind: 'takenOver' });
  });

  it('ignores heartbeats, other errors and frames without data', () => {
    expect(frameAction({ code: 0, msg_type: 2, msg: '', data: null }).kind).toBe('none');
    expect(frameAction({ code: 1, msg_type: 3, msg: '呼叫超时!', data: null }).kind).toBe('none');
    expect(frameAction({ code: 0, msg_type: 4, msg: '', data: null }).kind).toBe('none');
  });
});

describe('frame ledger', () => {
  it('holds frames only while a dial waits for its answer, and gives back those of the call', () => {
    const l = createFrameLedger();
    expect(l.hold(p('a'), false)).toBe(false);
    l.dialStarted();
    expect(l.hold(p('a'), true)).toBe(false);
    expect(l.hold(p('a'), false)).toBe(true);
    expect(l.hold(p('x'), false)).toBe(true);
    expect(l.takeHeld('a')).toEqual([p('a')]);
    expect(l.takeHeld('x')).toEqual([]);
    l.dialSettled();
    expect(l.hold(p('a'), false)).toBe(false);
  });

  it('remembers ended calls until one starts again or the session ends', () => {
    const l = createFrameLedger();
    l.ended('a');
    expect(l.isEnded('a')).toBe(true);
    l.started('a');
    expect(l.isEnded('a')).toBe(false);
    l.ended('b');
    l.clear();
    expect(l.isEnded('b')).toBe(false);
  });
});
