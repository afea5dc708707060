/** A call record's moves (ringing → answered → ended, once) from the line's, the provider's or the device's events. */
import fs from 'node:fs';
import { CALL_STATUS, CALL_TYPE, ERRORS, HANGUP_CAUSE, HANGUP_CAUSE_LABEL, type HangupCause } from '@crm/contracts';
import { deliver, publish } from '../../lib/events/events';
import { formatDateTime } from '../../lib/time';
import type { HangupSideValue, LegEvent } from '../../telephony/provider';
import { setCallState } from '../extensions/extensions.service';
import { storeGeneratedFile } from '../uploads/uploads.service';
import { ownerActor } from './call-actors';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';
import { publishError, publishProgress } from './calls-publish';
import { clearCreditLimit, startCreditTimer } from './dial-credit';

const { CALL_STATE } = repo;

export const markRinging = async (rt: CallRuntime, tenantId: number, uuid: string, at: Date) => {
  const call = await repo.advanceCall(rt.db, tenantId, uuid, CALL_STATE.ringing, { ringAt: at });
  if (call) await publishProgress(rt, call, 'ringing');
};

export const markAnswered = async (rt: CallRuntime, tenantId: number, uuid: string, at: Date) => {
  const call = await rt.db.transaction(async (tx) => {
    const row = await repo.advanceCall(tx, tenantId, uuid, CALL_STATE.answered, { answerAt: at });
    if (row?.sipId) await setCallState(tx, row.tenantId, row.sipId, { callStatus: CALL_STATUS.talking });
    return row;
  });
  if (!call) return;
  // a call with a credit limit (billing) is ended when its paid talk runs out
  startCreditTimer(rt, uuid);
  await publishProgress(rt, call, 'answered');
};

type Ending = {
  at: Date;
  side: HangupSideValue;
  cause: HangupCause;
  recording?: Buffer;
  /** a recording already stored (a server call's customer leg, call-control-events.ts) */
  stored?: { id: number; url: string };
  dmMsg?: string;
};

/**
 * Ends a call once: the record (billsec, side, cause, recording), the extension back to idle,
 * the customer's phone-call follow record and contact counters, all in one transaction; then
 * the socket hears of it.
 */
export const finishCall = async (rt: CallRuntime, uuid: string, ending: Ending): Promise<void> => {
  const call = await repo.findCall(rt.db, uuid);
  if (!call || call.state === CALL_STATE.ended) return;
  const floor = (call.answerAt ?? call.startAt).getTime();
  const endAt = new Date(Math.max(ending.at.getTime(), floor));
  const billsec = call.answerAt ? Math.max(0, Math.round((endAt.getTime() - call.answerAt.getTime()) / 1000)) : 0;
  let recordFile = ending.stored && billsec > 0 ? ending.stored.url : '';
  let recordFileId: number | null = ending.stored && billsec > 0 ? ending.stored.id : null;
  if (ending.recording && billsec > 0) {
    const stamp = formatDateTime(call.startAt).replace(/[-: ]/g, '');
    const recording = ending.recording;
    const stored = await storeGeneratedFile(
      rt.db,
      rt.config.dataDir,
      ownerActor(call),
      { originalName: `录音_${stamp}.wav`, ext: 'wav', scene: 'recording' },
      (fullPath) => fs.promises.writeFile(fullPath, recording),
    );
    recordFile = stored.url;
    recordFileId = stored.id;
  }
  const result = await rt.db.transaction(async (tx) => {
    const row = await repo.advanceCall(tx, call.tenantId, uuid, CALL_STATE.ended, {
      endAt,
      billsec,
      hangupSide: ending.side,
      hangupCause: ending.cause,
      dmMsg: ending.dmMsg ?? '',
      recordFile,
      recordFileId,
    });
    if (!row) return undefined;
    if (row.sipId) await setCallState(tx, row.tenantId, row.sipId, { callStatus: CALL_STATUS.none });
    // the follow-up history and the customer's counters (a call with a customer) and billing
    // (every call: its rating) react to the event (lib/events)
    const what = row.callType === CALL_TYPE.inbound ? '呼入' : '呼出';
    const eventId = await publish(tx, row.tenantId, 'call.ended', {
      uuid,
      customerId: row.customerId ?? 0,
      staffId: row.staffId,
      callType: row.callType,
      billsec,
      recordFile,
      remark: billsec > 0 ? `${what}通话 ${billsec} 秒` : `${what}未接通（${HANGUP_CAUSE_LABEL[ending.cause] ?? ending.cause}）`,
      at: endAt.toISOString(),
    });
    return { row, eventId };
  });
  clearCreditLimit(uuid);
  if (!result) return;
  await deliver(rt.db, [result.eventId]);
  const ended = result.row;
  if (ending.cause === HANGUP_CAUSE.timeout && ended.staffId !== null) {
    await publishError(rt, ended.staffId, ERRORS.CALL_TIMEOUT.code, ERRORS.CALL_TIMEOUT.msg, { uuid });
  }
  await publishProgress(rt, ended, 'ended');
};

/** Provider events → the call record. Never throws: a failed event is logged by the caller. */
export const handleLegEvent = async (rt: CallRuntime, e: LegEvent): Promise<void> => {
  if (e.kind === 'ended') {
    await finishCall(rt, e.uuid, { at: e.at, side: e.side, cause: e.cause, recording: e.recording });
    return;
  }
  // the call's company: every write names it (a call nobody recorded is left alone)
  const tenantId = (await repo.findCall(rt.db, e.uuid))?.tenantId;
  if (tenantId === undefined) return;
  if (e.kind === 'ringing') await markRinging(rt, tenantId, e.uuid, e.at);
  else await markAnswered(rt, tenantId, e.uuid, e.at);
};
