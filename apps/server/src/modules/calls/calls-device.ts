import { type DeviceClientFrame, HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import { msSince, now } from '../../lib/clock';
import { parseDateTime, toDate } from '../../lib/time';
import type { CallRuntime } from './call-bus';
import { finishCall, markAnswered, markRinging } from './call-states';
import * as repo from './calls.repo';

const { CHANNEL } = repo;

/** A device time: unix seconds or 'YYYY-MM-DD HH:mm:ss'; a clock far off the server's is not trusted. */
const deviceTime = (v: number | string | undefined): Date | undefined => {
  if (v === undefined || v === '' || v === 0) return undefined;
  const d = typeof v === 'number' ? new Date(v * 1000) : (parseDateTime(v) ?? toDate(v));
  if (Number.isNaN(d.getTime())) return now();
  return Math.abs(msSince(d)) > 5 * 60 * 1000 ? now() : d;
};

/** The device channel: dialTime → ringing (2), dialingTime → talking (3), dialedTime → ended, dmMsg → failed (SPEC §4). */
export const handleDeviceReport = async (
  rt: CallRuntime,
  sipId: number,
  report: Extract<DeviceClientFrame, { type: 'report' }>,
): Promise<void> => {
  const call = await repo.findCall(rt.db, report.uuid);
  if (!call || call.sipId !== sipId || call.channel !== CHANNEL.device) return;
  if (report.dmMsg) {
    await finishCall(rt, call.uuid, {
      at: now(),
      side: HANGUP_SIDE.system,
      cause: HANGUP_CAUSE.deviceError,
      dmMsg: report.dmMsg.slice(0, 200),
    });
    return;
  }
  const dialAt = deviceTime(report.dialTime);
  const answerAt = deviceTime(report.dialingTime);
  const endAt = deviceTime(report.dialedTime);
  if (dialAt) await markRinging(rt, call.tenantId, call.uuid, dialAt);
  if (answerAt) await markAnswered(rt, call.tenantId, call.uuid, answerAt);
  if (endAt) {
    const side = report.hangupPeople === HANGUP_SIDE.agent ? HANGUP_SIDE.agent : HANGUP_SIDE.customer;
    const fresh = await repo.findCall(rt.db, call.uuid);
    const cause = fresh?.answerAt ? HANGUP_CAUSE.normal : HANGUP_CAUSE.noAnswer;
    await finishCall(rt, call.uuid, { at: endAt, side, cause });
  }
};
