/**
 * The calls of one page (SPEC §4, §5, §8): dialing, hang-up, answer and the call socket's
 * progress frames, moving the call store through 0 → 1 → 2 → 3 → 1. All its state lives in its
 * parts (callLifecycle, callActions, callFrameHandling, taskCallAdoption, leftCallWatch) and in the
 * stores; nothing at module level.
 */
import { CALL_LIMITS, CALL_TYPE } from '@crm/contracts';
import { createCallActions } from './callActions';
import type { CallDeps } from './callDeps';
import { createFrameHandler } from './callFrameHandling';
import { createCallLifecycle } from './callLifecycle';
import { createLeftCallWatch } from './leftCallWatch';
import { useCall } from './phoneStore';
import type { LocalFailure } from './softphoneTypes';
import { createTaskCallAdoption } from './taskCallAdoption';

export const createCallController = (deps: CallDeps) => {
  const { ui, timers, sounds } = deps;
  const leftCalls = createLeftCallWatch(deps);
  const life = createCallLifecycle(deps, {
    hangup: (options) => actions.hangup(options),
    takeLeftCallEnd: leftCalls.takeLeftCallEnd,
  });
  const actions = createCallActions(deps, life);
  const handleFrame = createFrameHandler(deps, life, actions, createTaskCallAdoption(deps, life, actions));
  const { hangup } = actions;

  return {
    dial: actions.dial,

    hangup,

    answer: actions.answer,

    onCallButton: actions.onCallButton,

    handleFrame,

    /**
     * sip line: the browser could not place the call (microphone, connection, WebRTC): the agent is
     * told and the record is closed on the server as soon as the SPEC §5 hang-up minimum allows.
     */
    onLocalFailure: (reason: LocalFailure) => {
      const { call } = useCall.getState();
      if (!call || call.isDevice || call.callType !== CALL_TYPE.outbound) return;
      ui.message?.error(reason === 'microphone' ? '无法打开麦克风，呼叫失败' : '呼叫失败，请检查网络后重试');
      const waitMs = Math.max(0, CALL_LIMITS.hangupMinSeconds * 1000 - (deps.now() - call.startedAt) + 200);
      timers.set(() => {
        if (useCall.getState().call?.uuid === call.uuid) void hangup({ isForced: true });
      }, waitMs);
    },

    /** The sip phone lost its connection: a call it carried is over and the server is told. True when there was one. */
    onConnectionLost: (): boolean => {
      const { call } = useCall.getState();
      if (!call || call.isDevice) return false;
      ui.message?.error('与呼叫服务器的连接中断，通话已结束');
      void hangup({ isForced: true });
      return true;
    },

    leavePage: leftCalls.leavePage,

    checkLeftCall: leftCalls.checkLeftCall,

    /** Session end: timers, ring and frame memory cleared (the stores are reset by the caller). */
    reset: () => {
      life.clearSetupTimer();
      leftCalls.clear();
      sounds.stopRing();
      life.ledger.clear();
    },
  };
};
export type CallController = ReturnType<typeof createCallController>;
