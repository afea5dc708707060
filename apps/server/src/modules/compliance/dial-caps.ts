import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { formatDateTime } from '../../lib/time';
import { callFacts } from './call-facts';
import * as repo from './compliance.repo';

// Per-number caps across the company (issue 15): every outbound call the company placed to the
// number counts once (its call record: agent dials and server legs alike, line tests too).

export type NumberCaps = { capPer5Min: number; capPerDay: number };

const FIVE_MINUTES_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * When the window allows the next call: the call that must leave it for the count to drop under
 * the cap, plus the window. `starts` are the calls inside the window, oldest first.
 */
const nextAllowedAt = (starts: Date[], cap: number, windowMs: number) =>
  new Date(starts[starts.length - cap].getTime() + windowMs);

/**
 * Refuses a call beyond a cap: the 4th call in 5 minutes (cap 3), the 6th in 24 hours (cap 5);
 * a call that leaves the window (exactly 5 minutes / 24 hours old) no longer counts.
 * Run it in the transaction that inserts the call record: the number is locked until it ends.
 * The refusal carries `nextTime` (Beijing 'YYYY-MM-DD HH:mm:ss'): when the number may be called again.
 */
export const checkNumberCaps = async (db: DbOrTx, tenantId: number, phone: string, caps: NumberCaps, at: Date) => {
  if (caps.capPer5Min <= 0 && caps.capPerDay <= 0) return;
  await repo.lockNumber(db, tenantId, phone);
  const windowMs = caps.capPerDay > 0 ? DAY_MS : FIVE_MINUTES_MS;
  const starts = await callFacts().outboundStartsSince(db, tenantId, phone, new Date(at.getTime() - windowMs));
  if (caps.capPer5Min > 0) {
    const recent = starts.filter((s) => s.getTime() > at.getTime() - FIVE_MINUTES_MS);
    if (recent.length >= caps.capPer5Min) {
      const nextAt = nextAllowedAt(recent, caps.capPer5Min, FIVE_MINUTES_MS);
      const time = formatDateTime(nextAt).slice(11);
      const msg = new AppError('DIAL_CAP_5MIN').message.replace('{count}', String(recent.length)).replace('{time}', time);
      throw new AppError('DIAL_CAP_5MIN', msg, { nextTime: formatDateTime(nextAt) });
    }
  }
  if (caps.capPerDay > 0 && starts.length >= caps.capPerDay) {
    const time = formatDateTime(nextAllowedAt(starts, caps.capPerDay, DAY_MS));
    const msg = new AppError('DIAL_CAP_DAY').message.replace('{count}', String(starts.length)).replace('{time}', time);
    throw new AppError('DIAL_CAP_DAY', msg, { nextTime: time });
  }
};
