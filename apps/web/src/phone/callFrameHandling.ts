/** The call socket's frames for the call controller: progress, incoming calls (and group put-throughs), take-overs. */
import { CALL_TYPE, type CallFrame, type CallProgress } from '@crm/contracts';
import type { CallActions } from './callActions';
import type { CallDeps } from './callDeps';
import { frameAction } from './callFrames';
import type { CallLifecycle } from './callLifecycle';
import { useCall } from './phoneStore';

export const createFrameHandler = (
  deps: CallDeps,
  life: CallLifecycle,
  actions: Pick<CallActions, 'answer'>,
  adoptTaskCall: (p: CallProgress) => void,
) => {
  const { sounds, ui } = deps;
  const { ledger } = life;

  /**
   * A group dialer's put-through (issue 23): the customer has answered and waits, and the agent works
   * the task, so his phone answers at once: a short tone instead of the ring, the customer card
   * (the call window with the customer, 客户详情), the timer from the connect. sim line: the server
   * answers his leg; sip line: JsSIP answers the INVITE that rings it.
   */
  const putThrough = (p: CallProgress) => {
    sounds.putThrough();
    ui.message?.info({ content: `群呼接通：${p.name || p.phone || '客户'}`, duration: 4 });
    void actions.answer();
  };

  const onIncoming = (p: CallProgress) => {
    if (ledger.isEnded(p.uuid)) return;
    const { call } = useCall.getState();
    if (!call && p.event !== 'ended' && p.event !== 'answered') {
      life.startCall({
        uuid: p.uuid,
        yearMonth: p.yearMonth,
        callType: CALL_TYPE.inbound,
        phone: p.phone,
        name: p.name,
        cmCtid: p.cmCtid,
        isDevice: false,
        startedAt: deps.now(),
        answeredAt: null,
        isPutThrough: p.autoAnswer === 1,
      });
      if (p.autoAnswer === 1) {
        putThrough(p);
        return;
      }
      sounds.startRing();
      ui.message?.info({ content: `来电提醒：${p.phone}，请及时跟进`, duration: 6 });
      return;
    }
    life.applyProgress(p);
  };

  /** One call socket frame; returns true when it was the socket's login (the extension reloads then). */
  return (frame: CallFrame): boolean => {
    const action = frameAction(frame);
    if (action.kind === 'progress') {
      if (!ledger.hold(action.progress, useCall.getState().call !== null)) {
        adoptTaskCall(action.progress);
        life.applyProgress(action.progress);
      }
    } else if (action.kind === 'incoming') onIncoming(action.progress);
    else if (action.kind === 'takenOver') {
      const { call } = useCall.getState();
      if (call) life.endCall(call);
    }
    return action.kind === 'loggedIn';
  };
};
