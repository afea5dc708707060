import { describe, expect, it } from 'vitest';
import { nextOpenAt, taskWait, type WaitInput, whenText } from './task-wait';

// Why a running task waits and when it dials next (issue 23), at the edges of its window, the
// weekend and the company's calling hours. Beijing time; 2030-01-07 is a Monday.

const at = (day: number, hhmmss: string) => {
  const [h, m, s] = hhmmss.split(':').map(Number);
  return new Date(Date.UTC(2030, 0, 7 + day, h - 8, m, s));
};
const seat: WaitInput = {
  weeks: [1, 2, 3, 4, 5],
  times: [
    { start: '09:00', end: '12:00' },
    { start: '14:00', end: '18:00' },
  ],
  hours: { from: '08:00', to: '21:00' },
  dueNow: 3,
  nextNumberAt: null,
};
const wait = (i: Partial<WaitInput>, day: number, hhmmss: string) => taskWait({ ...seat, ...i }, at(day, hhmmss));

describe('taskWait', () => {
  it('just before and just after a range: waits for its start, dials inside it', () => {
    expect(wait({}, 0, '08:59:59')).toEqual({
      reason: 'window',
      text: '不在外呼时段，下次拨号 今天 09:00',
      nextDialAt: '2030-01-07 09:00:00',
    });
    expect(wait({}, 0, '09:00:00')).toBeNull();
    expect(wait({}, 0, '11:59:59')).toBeNull();
    expect(wait({}, 0, '12:00:00')).toMatchObject({ reason: 'window', text: '不在外呼时段，下次拨号 今天 14:00' });
    expect(wait({}, 0, '17:59:59')).toBeNull();
    expect(wait({}, 0, '18:00:00')).toMatchObject({
      text: '不在外呼时段，下次拨号 明天 09:00',
      nextDialAt: '2030-01-08 09:00:00',
    });
  });

  it('the weekend: Friday evening, Saturday and late Sunday wait for Monday 09:00', () => {
    expect(wait({}, 4, '18:00:00')).toMatchObject({
      text: '不在外呼时段，下次拨号 周一 09:00',
      nextDialAt: '2030-01-14 09:00:00',
    });
    expect(wait({}, 5, '10:00:00')).toMatchObject({ text: '不在外呼时段，下次拨号 周一 09:00' });
    expect(wait({}, 6, '23:59:59')).toMatchObject({
      text: '不在外呼时段，下次拨号 明天 09:00',
      nextDialAt: '2030-01-14 09:00:00',
    });
    // a Sunday-only task seen on Monday: six days on, then a date
    expect(wait({ weeks: [7] }, 0, '10:00:00')).toMatchObject({ text: '不在外呼时段，下次拨号 周日 09:00' });
    expect(whenText(at(9, '09:00:00'), at(0, '10:00:00'))).toBe('01-16 09:00');
  });

  it("the company's calling hours: inside the task's range but before the company opens, or after it closes", () => {
    const hours = { from: '10:00', to: '17:30' };
    expect(wait({ hours }, 0, '09:30:00')).toEqual({
      reason: 'hours',
      text: '不在公司外呼时段（10:00–17:30），下次拨号 今天 10:00',
      nextDialAt: '2030-01-07 10:00:00',
    });
    expect(wait({ hours }, 0, '10:00:00')).toBeNull();
    expect(wait({ hours }, 0, '17:30:00')).toMatchObject({
      reason: 'hours',
      text: '不在公司外呼时段（10:00–17:30），下次拨号 明天 10:00',
    });
    // hours past midnight (20:00–02:00) with an all-day task: open from 20:00, and right after midnight
    const night = {
      weeks: [1, 2, 3, 4, 5, 6, 7],
      times: [{ start: '00:00', end: '23:59' }],
      hours: { from: '20:00', to: '02:00' },
    };
    expect(wait(night, 0, '12:00:00')).toMatchObject({ reason: 'hours', nextDialAt: '2030-01-07 20:00:00' });
    expect(wait(night, 0, '01:59:00')).toBeNull();
    // ranges and hours that never meet: said so, no time
    expect(wait({ hours: { from: '19:00', to: '21:00' } }, 0, '10:00:00')).toEqual({
      reason: 'never',
      text: '任务的外呼时段与公司外呼时段（19:00–21:00）没有重叠，不会拨号，请修改外呼时段',
      nextDialAt: '',
    });
  });

  it('numbers waiting for their redial or cap: the earliest one, moved into the next opening', () => {
    expect(wait({ dueNow: 0, nextNumberAt: at(0, '15:00:00') }, 0, '14:30:00')).toEqual({
      reason: 'numbers',
      text: '号码等待重拨间隔或呼叫上限，下次拨号 今天 15:00',
      nextDialAt: '2030-01-07 15:00:00',
    });
    expect(wait({ dueNow: 0, nextNumberAt: at(0, '18:30:00') }, 0, '17:00:00')).toMatchObject({
      reason: 'numbers',
      nextDialAt: '2030-01-08 09:00:00',
    });
    // outside the window the window is the reason, and the next dial waits for the number too
    expect(wait({ dueNow: 0, nextNumberAt: at(0, '14:30:00') }, 0, '12:30:00')).toMatchObject({
      reason: 'window',
      nextDialAt: '2030-01-07 14:30:00',
    });
    // nothing left to dial (or every number in a call): no wait
    expect(wait({ dueNow: 0, nextNumberAt: null }, 0, '03:00:00')).toBeNull();
  });

  it('nextOpenAt is the moment itself when open, else a whole minute', () => {
    expect(nextOpenAt(seat, at(0, '10:00:30'))).toEqual(at(0, '10:00:30'));
    expect(nextOpenAt(seat, at(0, '13:59:30'))).toEqual(at(0, '14:00:00'));
    expect(nextOpenAt({ ...seat, weeks: [] }, at(0, '10:00:00'))).toBeNull();
  });
});
