/**
 * The life of the call on screen: started (with the SPEC §9 setup timeout), moved on by its progress
 * frames (answered, ended) and ended (ring, end tone, store back to status 1, task event). The state
 * every other part of the call controller shares: the frame ledger and the setup timer.
 */
import { CALL_LIMITS, CALL_STATUS, CALL_TYPE, type CallProgress, HANGUP_CAUSE } from '@crm/contracts';
import type { CallDeps } from './callDeps';
import { createFrameLedger } from './callFrames';
import { progressStep } from './callProgress';
import { type ActiveCall, useCall } from './phoneStore';
import { END_CALL_EVENT_DELAY_MS, type TaskCallEvent } from './taskCallEvents';

type Hooks = {
  /** the forced hang-up of a call unanswered past the setup timeout */
  hangup: (options: { isForced: boolean }) => Promise<void>;
  /** an 'ended' frame of the call the previous page left: true when it was that one (and it is handled) */
  takeLeftCallEnd: (p: CallProgress) => boolean;
};

export const createCallLifecycle = (deps: CallDeps, hooks: Hooks) => {
  const { softphone, sounds, ui, timers } = deps;
  const ledger = createFrameLedger();
  let setupTimer: number | undefined;

  const clearSetupTimer = () => {
    timers.clear(setupTimer);
    setupTimer = undefined;
  };

  /** The call was answered: timers and ring stop, the answer tone, status 3. */
  const answered = () => {
    clearSetupTimer();
    sounds.answered();
    useCall.getState().answered();
  };

  /** Ends the call on screen: timers, ring, end tone, back to status 1 (SPEC §4). */
  const endCall = (call: ActiveCall, options: { error?: string; notice?: string } = {}) => {
    clearSetupTimer();
    // sip line: the local SIP session ends with the record (nothing to do when it already has)
    softphone.hangup?.();
    sounds.stopRing();
    sounds.ended();
    ledger.ended(call.uuid);
    const isMissed = call.callType === CALL_TYPE.inbound && call.answeredAt === null;
    const cmStid = call.cmStid ?? 0;
    useCall.getState().ended(cmStid > 0);
    if (options.error) ui.message?.error(options.error);
    else if (options.notice) ui.message?.info(options.notice);
    deps.onCallOver({ cmCtid: call.cmCtid, isMissed });
    if (cmStid > 0) {
      const event: TaskCallEvent = {
        code: 'endCall',
        uuid: call.uuid,
        yearMonth: call.yearMonth,
        cmStid,
        isAnswered: call.answeredAt !== null,
      };
      timers.set(() => deps.onTaskCall?.(event), END_CALL_EVENT_DELAY_MS);
    }
  };

  const startCall = (call: ActiveCall) => {
    ledger.started(call.uuid);
    useCall.getState().started(call);
    if (call.callType === CALL_TYPE.outbound) {
      clearSetupTimer();
      // SPEC §9: unanswered after 60 s → 呼叫超时! then hang up
      setupTimer = timers.set(() => {
        const current = useCall.getState();
        if (current.call?.uuid !== call.uuid || current.callStatus !== CALL_STATUS.dialling) return;
        ui.message?.error('呼叫超时!');
        void hooks.hangup({ isForced: true });
      }, CALL_LIMITS.setupTimeoutSeconds * 1000);
    }
    for (const p of ledger.takeHeld(call.uuid)) applyProgress(p);
  };

  const applyProgress = (p: CallProgress) => {
    if (ledger.isEnded(p.uuid)) return;
    const { call } = useCall.getState();
    if (!call && p.event === 'ended' && hooks.takeLeftCallEnd(p)) return;
    if (!call || call.uuid !== p.uuid) return;
    const step = progressStep(p, call.isDevice);
    if (step.kind === 'answered' && useCall.getState().callStatus !== CALL_STATUS.talking) {
      sounds.stopRing();
      answered();
    } else if (step.kind === 'ended') {
      const wasAnswered = useCall.getState().call?.answeredAt !== null;
      endCall(useCall.getState().call ?? call, {
        error: step.error,
        // a timeout was already announced by the server's 呼叫超时! frame
        notice:
          !wasAnswered && call.callType === CALL_TYPE.outbound && p.hangupCauseName && p.hangupCause !== HANGUP_CAUSE.timeout
            ? `未接通：${p.hangupCauseName}`
            : undefined,
      });
    }
  };

  return { ledger, clearSetupTimer, answered, startCall, endCall, applyProgress };
};
export type CallLifecycle = ReturnType<typeof createCallLifecycle>;
