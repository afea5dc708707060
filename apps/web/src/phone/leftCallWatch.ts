/**
 * A call and a page left during it (reload, close): the leaving page hangs it up and remembers it,
 * the next page tells the agent once it is over (its 'ended' frame, or the extension without a call).
 */
import { CALL_STATUS, type CallProgress, type SipDefault } from '@crm/contracts';
import type { CallDeps } from './callDeps';
import { leftCallNotice, pendingLeftCall, rememberLeftCall, takeLeftCall } from './leftCall';
import { useCall } from './phoneStore';

/** How often the next page asks whether the call it left is over yet (for its notice). */
export const LEFT_CALL_POLL_MS = 2_000;

export const createLeftCallWatch = (deps: CallDeps) => {
  const { api, ui, timers } = deps;
  let leftCallTimer: number | undefined;

  /**
   * The next page: the call it left is over when the extension has no call any more; until
   * then (a minute at most) it asks again, unless the call's 'ended' frame says so first.
   */
  const checkLeftCall = async (sip: SipDefault): Promise<void> => {
    timers.clear(leftCallTimer);
    const uuid = pendingLeftCall(deps.storage, deps.now());
    if (!uuid || useCall.getState().call) return;
    if (!sip || sip.callStatus < CALL_STATUS.dialling) {
      if (takeLeftCall(deps.storage, uuid, deps.now())) {
        ui.message?.info(leftCallNotice());
        deps.onCallOver({ cmCtid: 0, isMissed: false });
      }
      return;
    }
    leftCallTimer = timers.set(() => {
      api.sipDefault().then(
        (next) => checkLeftCall(next),
        () => undefined,
      );
    }, LEFT_CALL_POLL_MS);
  };

  return {
    checkLeftCall,

    /** An 'ended' frame with no call on screen: true when it ends the call the previous page left (the notice is shown). */
    takeLeftCallEnd: (p: CallProgress): boolean => {
      if (!takeLeftCall(deps.storage, p.uuid, deps.now())) return false;
      timers.clear(leftCallTimer);
      ui.message?.info(leftCallNotice(p.billsec));
      deps.onCallOver({ cmCtid: p.cmCtid, isMissed: false });
      return true;
    },

    /**
     * The page is being left (reload, close) during a call: on every line the call is hung up on
     * the server, so no record stays open, and remembered for the next page's notice.
     * Device calls go on, on the phone.
     */
    leavePage: () => {
      const { call } = useCall.getState();
      if (!call || call.isDevice) return;
      rememberLeftCall(deps.storage, call.uuid, deps.now());
      api.hangupOnLeave({ uuid: call.uuid, yearMonth: call.yearMonth });
    },

    clear: () => timers.clear(leftCallTimer),
  };
};
