import { CALLTASK_STATUS, TASK_NUMBER_STATE } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTaskNumbers, callTasks } from '../db/schema';
import { hasDialerWork } from '../modules/calltasks/calltasks-runner.repo';
import { createTestApp, type TestApp } from '../test/harness';
import { dialerActivityOf, wakeDialers } from './dialer-activity';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("the dialers' ticks know when nothing can be due", () => {
  it('work is a running task or a number being dialled; a start woken through the pub/sub is seen at once', async () => {
    const { db } = t.database;
    const activity = dialerActivityOf(t.app.calls);
    expect(await hasDialerWork(db)).toBe(false);
    // a fresh answer (the app's ticks may have asked up to 15 s ago)
    activity.wake();
    expect(await activity.isBusy()).toBe(false);
    const [task] = await db
      .insert(callTasks)
      .values({
        tenantId: 1,
        name: 'idle check',
        weeks: [1, 2, 3, 4, 5, 6, 7],
        times: [{ start: '00:00', end: '23:59' }],
        redialMinutes: 5,
        maxAttempts: 1,
        wrapUpSeconds: 5,
        creatorId: 1,
        createdAt: new Date(),
        status: CALLTASK_STATUS.draft,
      })
      .returning();
    const [number] = await db.insert(callTaskNumbers).values({ tenantId: 1, taskId: task.id, phone: '13800000000' }).returning();
    expect(await hasDialerWork(db)).toBe(false);

    // started where no wake reaches (another instance without Redis): the quiet answer holds until its recheck
    await db.update(callTasks).set({ status: CALLTASK_STATUS.running }).where(eq(callTasks.id, task.id));
    expect(await hasDialerWork(db)).toBe(true);
    expect(await activity.isBusy()).toBe(false);
    // a start through the app wakes the ticks of every instance on its pub/sub
    await wakeDialers(t.app.calls);
    expect(await activity.isBusy()).toBe(true);

    // paused with a call in progress: its settlement is still due
    await db.update(callTasks).set({ status: CALLTASK_STATUS.paused }).where(eq(callTasks.id, task.id));
    await db.update(callTaskNumbers).set({ state: TASK_NUMBER_STATE.dialling }).where(eq(callTaskNumbers.id, number.id));
    expect(await hasDialerWork(db)).toBe(true);
    await db.update(callTaskNumbers).set({ state: TASK_NUMBER_STATE.done }).where(eq(callTaskNumbers.id, number.id));
    expect(await hasDialerWork(db)).toBe(false);
  });
});
