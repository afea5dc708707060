import { DISCARD_OTHER, ERRORS, TASK_NUMBER_STATE } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import { now } from '../../lib/clock';
import { deliver } from '../../lib/events/events';
import { parseDateTime, startOfTodayShanghai } from '../../lib/time';
import type { CallRuntime } from '../calls/call-bus';
import { publishError } from '../calls/calls-publish';
import { callSettingsOf } from '../calls/dial-policy';
import { discardForTask } from '../pools/pool-moves.service';
import { completeIfDone } from './calltasks-outcome';
import * as runner from './calltasks-runner.repo';
import type { TaskRow } from './task-core';

// What a refused task dial does (issue 15), for the seat runner and the group runner alike. The
// refusal is the number's or the dialling side's (the seat agent, or the group task):
// - the number may never be dialled (blacklist 100011/100014, 禁拨 115001, a bad number 110001):
//   the number is settled (skipped or invalid) and the next one follows at once;
// - the number was called too often (115002 / 115003): it waits until its cap frees (the attempt
//   does not count) and the next one follows at once;
// - the company's calling hours are over (110024): the number goes back and the agent (the group
//   task) is not dialled again before the hours open (one message on his socket, no retry every tick);
// - anything else (his line offline, his dial lock …; the group task's company or line): the number
//   goes back and he (the task) is tried again after 30 s, with the error on his socket.

const { pending, skipped, invalid } = TASK_NUMBER_STATE;
export const BLACKLIST_REASON = '黑名单';
/** An agent whose dial failed for a reason of his line (offline extension …) is tried again after this. */
const RETRY_AFTER_MS = 30_000;
const DAY_MS = 86_400_000;

const SKIPS = new Set<number>([ERRORS.BLACKLISTED.code, ERRORS.TASK_BLACKLISTED.code, ERRORS.DNC_LISTED.code]);
const CAPS = new Set<number>([ERRORS.DIAL_CAP_5MIN.code, ERRORS.DIAL_CAP_DAY.code]);

export type RefusalKind = 'skip' | 'invalid' | 'cap' | 'hours' | 'line';

export const refusalKindOf = (err: unknown): RefusalKind => {
  if (!(err instanceof AppError)) return 'line';
  if (SKIPS.has(err.code)) return 'skip';
  if (err.code === ERRORS.DIAL_NUMBER_INVALID.code) return 'invalid';
  if (CAPS.has(err.code)) return 'cap';
  if (err.code === ERRORS.CALL_OUTSIDE_HOURS.code) return 'hours';
  return 'line';
};

/**
 * A refusal that is the number's for good: skipped (blacklist or 禁拨, counted with the blacklisted
 * numbers) or invalid. SPEC §8: 100011 in a task discards the customer to the pool with reason 黑名单.
 */
export const settleRefusal = async (rt: CallRuntime, task: TaskRow, numberId: number, err: AppError) => {
  const at = now();
  const eventId = await rt.db.transaction(async (tx) => {
    const n = await runner.lockNumber(tx, task.tenantId, numberId);
    let id: number | null = null;
    if (refusalKindOf(err) === 'skip') {
      const cmCtid = Number((err.data as { cmCtid?: number } | undefined)?.cmCtid ?? 0);
      if (err.code === ERRORS.BLACKLISTED.code && cmCtid > 0) {
        id = await discardForTask(tx, {
          tenantId: task.tenantId,
          customerIds: [cmCtid],
          poolId: task.failPoolId,
          reasonId: DISCARD_OTHER,
          reason: BLACKLIST_REASON,
          staffId: n.staffId ?? 0,
          at,
        });
      }
      await runner.updateNumber(tx, task.tenantId, n.id, {
        state: skipped,
        isBlacklisted: true,
        nextAt: null,
        lastCode: String(err.code),
        customerId: n.customerId ?? (cmCtid || null),
        updatedAt: at,
      });
    } else {
      await runner.updateNumber(tx, task.tenantId, n.id, {
        state: invalid,
        nextAt: null,
        lastCode: String(err.code),
        updatedAt: at,
      });
    }
    await completeIfDone(tx, task, at);
    return id;
  });
  if (eventId !== null) await deliver(rt.db, [eventId]);
};

/** When a capped number may be called again (the refusal's nextTime, a second later for its rounding). */
const capFreeAt = (err: AppError, at: Date) => {
  const next = parseDateTime(String((err.data as { nextTime?: string } | null)?.nextTime ?? ''));
  return next && next > at ? new Date(next.getTime() + 1000) : new Date(at.getTime() + 5 * 60_000);
};

/** The next opening of the company's calling hours after `at` (outside them). */
export const hoursOpenAt = (from: string, at: Date) => {
  const [h, m] = from.split(':').map(Number);
  const open = new Date(startOfTodayShanghai(at).getTime() + (h * 60 + m) * 60_000);
  return open > at ? open : new Date(open.getTime() + DAY_MS);
};

/** The number goes back (the attempt does not count), due again at `nextAt` (null: at once). */
export const giveNumberBack = (
  db: CallRuntime['db'],
  tenantId: number,
  numberId: number,
  nextAt: Date | null,
  lastCode: string | null,
  at: Date,
) =>
  db.transaction(async (tx) => {
    const n = await runner.lockNumber(tx, tenantId, numberId);
    await runner.updateNumber(tx, tenantId, n.id, {
      state: pending,
      attempts: Math.max(0, n.attempts - 1),
      ...(nextAt ? { nextAt } : {}),
      ...(lastCode ? { lastCode } : {}),
      updatedAt: at,
    });
  });

/**
 * Where a refused task number goes, for both runners (seat tasks and group calling): settled for
 * good, back with its cap's free time, or back at once. Resolves to when the dialling side (the
 * seat agent, or the group task) may dial again: null at once (the next number may follow),
 * otherwise the opening of the company's hours or RETRY_AFTER_MS after a refusal of the line.
 */
export const settleRefusedNumber = async (
  rt: CallRuntime,
  task: TaskRow,
  numberId: number,
  err: unknown,
): Promise<{ kind: RefusalKind; retryAt: Date | null }> => {
  const kind = refusalKindOf(err);
  const at = now();
  if (err instanceof AppError && (kind === 'skip' || kind === 'invalid')) {
    await settleRefusal(rt, task, numberId, err);
    return { kind, retryAt: null };
  }
  if (err instanceof AppError && kind === 'cap') {
    await giveNumberBack(rt.db, task.tenantId, numberId, capFreeAt(err, at), String(err.code), at);
    return { kind, retryAt: null };
  }
  await giveNumberBack(rt.db, task.tenantId, numberId, null, null, at);
  const retryAt =
    kind === 'hours'
      ? hoursOpenAt((await callSettingsOf(rt.db, task.tenantId)).callHours.from, at)
      : new Date(at.getTime() + RETRY_AFTER_MS);
  return { kind, retryAt };
};

/**
 * Handles a refused seat-task dial (see above). Returns 'skipped' when the agent's next number may
 * be dialled at once, 'none' when he waits.
 */
export const handleRefusal = async (
  rt: CallRuntime,
  task: TaskRow,
  numberId: number,
  staffId: number,
  err: unknown,
): Promise<'skipped' | 'none'> => {
  const { retryAt } = await settleRefusedNumber(rt, task, numberId, err);
  if (retryAt === null) return 'skipped';
  await runner.setAgentNextDial(rt.db, task.tenantId, task.id, staffId, retryAt);
  if (err instanceof AppError) await publishError(rt, staffId, err.code, err.message, { cmStid: task.id });
  return 'none';
};

/**
 * A refused dial of a leg the server places for a task with no agent behind it (AI tasks): the
 * number's refusals as above; the company's hours over → the number waits for their opening; the
 * line's → the number is due again after 30 s. Returns what happened to the number.
 */
export const handleServerRefusal = async (rt: CallRuntime, task: TaskRow, numberId: number, err: unknown) => {
  const kind = refusalKindOf(err);
  const at = now();
  if (err instanceof AppError && (kind === 'skip' || kind === 'invalid')) {
    await settleRefusal(rt, task, numberId, err);
    return kind;
  }
  let nextAt = new Date(at.getTime() + RETRY_AFTER_MS);
  if (err instanceof AppError && kind === 'cap') nextAt = capFreeAt(err, at);
  if (kind === 'hours') nextAt = hoursOpenAt((await callSettingsOf(rt.db, task.tenantId)).callHours.from, at);
  await giveNumberBack(rt.db, task.tenantId, numberId, nextAt, err instanceof AppError ? String(err.code) : null, at);
  return kind;
};
