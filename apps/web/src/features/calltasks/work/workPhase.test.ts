import { describe, expect, it } from 'vitest';
import { phaseText, workPhase } from './workPhase';
import type { TaskCall } from './workStore';

const ended = (endedAt: number | null, cmStid = 5): TaskCall => ({
  uuid: 'u',
  cmStid,
  phone: '',
  name: '',
  endedAt,
  isAnswered: true,
  outcome: 0,
});

describe('workPhase', () => {
  it('follows the task call on the phone: 呼叫中 while it rings, 通话中 once answered', () => {
    expect(phaseText(workPhase(5, { callStatus: 2, callTaskId: 5 }, null, 10, 0))).toBe('呼叫中');
    expect(phaseText(workPhase(5, { callStatus: 3, callTaskId: 5 }, null, 10, 0))).toBe('通话中');
    // a call of another task, or a manual call, is not this task's
    expect(phaseText(workPhase(5, { callStatus: 3, callTaskId: 0 }, null, 10, 0))).toBe('等待拨号');
  });

  it('counts the wrap-up down from the end of the last call, to the second at both edges', () => {
    const idle = { callStatus: 0, callTaskId: 0 };
    expect(workPhase(5, idle, ended(1_000), 3, 1_000)).toEqual({ kind: 'wrapUp', secondsLeft: 3 });
    expect(workPhase(5, idle, ended(1_000), 3, 3_001)).toEqual({ kind: 'wrapUp', secondsLeft: 1 });
    expect(workPhase(5, idle, ended(1_000), 3, 4_000)).toEqual({ kind: 'waiting' });
    expect(workPhase(5, idle, ended(null), 3, 1_000)).toEqual({ kind: 'waiting' });
    expect(workPhase(5, idle, ended(1_000, 6), 3, 1_000)).toEqual({ kind: 'waiting' });
    expect(phaseText({ kind: 'wrapUp', secondsLeft: 2 })).toBe('整理中 2 秒');
  });
});
