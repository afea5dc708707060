import { CALL_TYPE, REGISTER_STATUS } from '@crm/contracts';
import { normalisePhone } from '../../lib/phone';
import type { SipDialog, StoredLeg } from '../../telephony/sip/sip-provider';
import { findSipForLine } from '../extensions/extensions.service';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';
import { openInboundCall } from './calls-incoming';

// The sip line (issue 7): what Kamailio asks (digest password, an INVITE to an extension) and
// the call as the line needs it on any instance (its leg, Kamailio's names of the dialog).

const { CALL_STATE, CHANNEL } = repo;

/**
 * An INVITE from the trunk to an extension: a ringing incoming call for its staff, matched to a
 * customer. Undefined (Kamailio answers 480) when the extension is unknown, unbound or not registered;
 * 'busy' (486) while its staff is on a call.
 */
export const sipInbound = async (
  rt: CallRuntime,
  user: string,
  callerNumber: string,
  open: (leg: { uuid: string; agent: string; from: string }) => void,
): Promise<{ uuid: string } | 'busy' | undefined> => {
  const row = await findSipForLine(rt.db, user);
  const sip = row?.sip;
  if (!sip?.staffId || sip.actionState !== 0 || row?.merchantType === 2) return undefined;
  const isRegistered = sip.registerStatus === REGISTER_STATUS.registered || sip.registerStatus === REGISTER_STATUS.busy;
  if (!isRegistered) return undefined;
  if ((await repo.activeCallsOf(rt.db, sip.staffId)).length > 0) return 'busy';
  const phone = normalisePhone(callerNumber)?.phone ?? callerNumber.replace(/\D/g, '');
  const { uuid } = await openInboundCall(rt, sip, sip.staffId, phone);
  open({ uuid, agent: sip.user, from: phone });
  return { uuid };
};

/** A sip-line call still in progress, as the line needs it (routing and ending it on any app instance). */
export const sipLegOf = async (rt: CallRuntime, uuid: string): Promise<StoredLeg | undefined> => {
  const call = await repo.findCall(rt.db, uuid);
  if (!call || call.state === CALL_STATE.ended || call.channel !== CHANNEL.sip) return undefined;
  const isInbound = call.callType === CALL_TYPE.inbound;
  return {
    uuid: call.uuid,
    agent: call.sipUser,
    number: isInbound ? call.caller : call.calledNumber,
    isInbound,
    answeredAt: call.answerAt,
    dialog: parseSipDialog(call.sipDialog),
  };
};

const parseSipDialog = (raw: string): SipDialog | null => {
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Partial<SipDialog>;
    return {
      callId: String(d.callId ?? ''),
      cseq: String(d.cseq ?? ''),
      fromTag: String(d.fromTag ?? ''),
      toTag: String(d.toTag ?? ''),
    };
  } catch {
    return null;
  }
};

/** The line learnt how Kamailio names a call (ringing, answered): kept on the record for every instance. */
export const saveSipDialog = async (rt: CallRuntime, uuid: string, dialog: SipDialog) => {
  const call = await repo.findCall(rt.db, uuid);
  if (call) await repo.setSipDialog(rt.db, call.tenantId, uuid, JSON.stringify(dialog));
};

/** Kamailio's digest auth: the extension's password by SIP user (undefined: unknown or disabled). */
export const sipPasswordOf = async (rt: CallRuntime, user: string): Promise<string | undefined> => {
  const row = await findSipForLine(rt.db, user);
  if (row?.sip.actionState !== 0 || row.merchantType === 2) return undefined;
  return row.sip.pwd;
};
