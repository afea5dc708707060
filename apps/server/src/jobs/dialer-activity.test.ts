import { describe, expect, it } from 'vitest';
import { DialerActivity, QUIET_RECHECK_MS } from './dialer-activity';

const made = (answers: boolean[]) => {
  const clock = { at: 0 };
  const asked: number[] = [];
  const activity = new DialerActivity(
    async () => {
      asked.push(clock.at);
      return answers.shift() ?? false;
    },
    () => clock.at,
  );
  return { activity, clock, asked };
};

describe('the dialers skip their ticks while nothing can be due', () => {
  it('asks the database once, trusts a quiet answer until the recheck, and asks again after it', async () => {
    const { activity, clock, asked } = made([false, true]);
    expect(await activity.isBusy()).toBe(false);
    clock.at = QUIET_RECHECK_MS - 1;
    expect(await activity.isBusy()).toBe(false);
    expect(asked).toEqual([0]);
    clock.at = QUIET_RECHECK_MS;
    // another instance started a task meanwhile: seen at the recheck
    expect(await activity.isBusy()).toBe(true);
    expect(asked).toEqual([0, QUIET_RECHECK_MS]);
  });

  it('a wake makes the next tick ask at once, and a quiet answer asked before the wake is not trusted', async () => {
    const { activity, clock, asked } = made([false, true]);
    expect(await activity.isBusy()).toBe(false);
    clock.at = 1_000;
    activity.wake();
    expect(await activity.isBusy()).toBe(true);
    expect(asked).toEqual([0, 1_000]);

    let release: (v: boolean) => void = () => {};
    const slow = new DialerActivity(
      () => new Promise<boolean>((r) => (release = r)),
      () => 0,
    );
    const pending = slow.isBusy();
    slow.wake();
    release(false);
    expect(await pending).toBe(true);
  });

  it('the three ticks of a process ask together and settle once a second', async () => {
    const { activity, clock, asked } = made([true]);
    expect(await Promise.all([activity.isBusy(), activity.isBusy(), activity.isBusy()])).toEqual([true, true, true]);
    expect(asked).toHaveLength(1);
    let settled = 0;
    const settle = async () => {
      settled++;
      return new Map([[1, 1]]);
    };
    expect((await activity.settleShared(settle)).size).toBe(1);
    clock.at = 300;
    expect((await activity.settleShared(settle)).size).toBe(0);
    clock.at = 1_000;
    await activity.settleShared(settle);
    expect(settled).toBe(2);
  });
});
