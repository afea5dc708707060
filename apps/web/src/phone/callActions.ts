/** The agent's call actions (SPEC §4, §5): dial, answer, hang up and the floating call button. */
import { CALL_STATUS, CALL_TYPE, type DialBody, type DialResponse, type DirectDialResponse } from '@crm/contracts';
import type { CallDeps } from './callDeps';
import type { CallLifecycle } from './callLifecycle';
import { extensionRefusal, hangupRefusal, numberRefusal } from './dialRules';
import { type ActiveCall, useCall, useExtension } from './phoneStore';

export const createCallActions = (deps: CallDeps, life: CallLifecycle) => {
  const { api, softphone, sounds, ui } = deps;
  const { ledger } = life;

  const dialContext = () => {
    const ext = useExtension.getState();
    return {
      callStatus: useCall.getState().callStatus,
      merchantType: deps.merchantType(),
      sip: ext.sip,
      registerStatus: ext.registerStatus,
    };
  };

  const toActiveCall = (r: DialResponse | DirectDialResponse, isDevice: boolean): ActiveCall =>
    'id' in r
      ? {
          uuid: r.uuid || r.id,
          yearMonth: r.yearMonth,
          callType: CALL_TYPE.outbound,
          phone: r.dstNumber,
          name: r.name,
          cmCtid: r.cmCtid,
          isDevice,
          startedAt: deps.now(),
          answeredAt: null,
        }
      : {
          uuid: r.uuid,
          yearMonth: r.yearMonth,
          callType: r.callType || CALL_TYPE.outbound,
          phone: r.phone,
          name: r.name,
          cmCtid: r.cmCtid,
          isDevice,
          startedAt: deps.now(),
          answeredAt: null,
        };

  /** sip line: the browser places the call to the opaque uuid; Kamailio asks the server for the number. */
  const placeInBrowser = (uuid: string) => {
    softphone.call?.(uuid).catch((err: unknown) => {
      ui.message?.error(err instanceof Error ? err.message : '呼叫失败');
    });
  };

  /** SPEC §5 dial (by customer and number id, or a typed number): checks, then the server call. */
  const dial = async (target: DialBody): Promise<boolean> => {
    const refusal = extensionRefusal(dialContext());
    if (refusal) {
      ui.message?.warning(refusal);
      return false;
    }
    const hasCustomerNumber = target.cmCtid !== undefined && (target.cbTacid !== undefined || target.ccId !== undefined);
    if (!hasCustomerNumber) {
      const numberError = numberRefusal(target.dstNumber ?? '', target.cmStid);
      if (numberError) {
        ui.message?.warning(numberError);
        return false;
      }
    }
    if (!deps.socket.isOpen) deps.socket.connect();
    const isDevice = deps.merchantType() === 2;
    ledger.dialStarted();
    try {
      const call = toActiveCall(isDevice ? await api.deviceDial(target) : await api.dial(target), isDevice);
      life.startCall(call);
      if (!isDevice) placeInBrowser(call.uuid);
      return true;
    } catch (err) {
      ledger.takeHeld('');
      deps.onDialError(err);
      return false;
    } finally {
      ledger.dialSettled();
    }
  };

  /** SPEC §4: accepting an incoming call → status 3, the ring stops. */
  const answer = async () => {
    const { call } = useCall.getState();
    if (!call || call.callType !== CALL_TYPE.inbound) return;
    sounds.stopRing();
    // sip line: the browser answers the SIP call; the 'answered' frame follows from Kamailio's report
    // (a put-through's frame may come before its INVITE: the phone waits for it a moment)
    if (await softphone.answer?.(call.isPutThrough ? call.uuid : undefined)) return;
    try {
      await api.answer({ uuid: call.uuid, yearMonth: call.yearMonth });
    } catch {
      return;
    }
    if (useCall.getState().call?.uuid === call.uuid && useCall.getState().callStatus !== CALL_STATUS.talking) life.answered();
  };

  /** SPEC §5 hang-up: refused in the first 2 s; device calls end on the phone when no device is bound. */
  const hangup = async ({ isForced = false } = {}) => {
    const { call } = useCall.getState();
    if (!call) return;
    if (!isForced) {
      // the server applies the same rule to incoming calls, counted from the first ring
      const refusal = hangupRefusal(call.startedAt, deps.now());
      if (refusal) {
        ui.message?.warning(refusal);
        return;
      }
    }
    const body = { uuid: call.uuid, yearMonth: call.yearMonth };
    if (call.isDevice && !useExtension.getState().sip?.cmDeid) {
      ui.message?.warning('请前往手机进行挂断');
      return;
    }
    // sip line: BYE / CANCEL first; the server closes the record when Kamailio reports it
    if (!call.isDevice) softphone.hangup?.();
    try {
      await (call.isDevice ? api.deviceHangup(body) : api.hangup(body));
    } catch (err) {
      // a call the server already closed is over here too
      if (deps.isCallGone(err)) life.endCall(call);
      return;
    }
    // the 'ended' frame follows; close the screen now so a slow socket never keeps the agent waiting
    if (useCall.getState().call?.uuid === call.uuid) life.endCall(call);
  };

  /** The floating call button (SPEC §4): at status 0 it opens the dialler, otherwise re-shows the open modal. */
  const onCallButton = () => {
    const state = useCall.getState();
    if (state.callStatus > CALL_STATUS.ready) {
      state.setInCallOpen(true);
      return;
    }
    if (state.callStatus === CALL_STATUS.none) {
      const refusal = extensionRefusal(dialContext(), true);
      if (refusal) {
        ui.message?.warning(refusal);
        return;
      }
    }
    state.openDialler();
  };

  return { dial, answer, hangup, onCallButton, placeInBrowser };
};
export type CallActions = ReturnType<typeof createCallActions>;
