/**
 * A seat task's call: the server dialled the agent's next number itself (issue 15), so its first
 * frame names a call this page never placed. It is shown as a dial of his (the customer or
 * 暂无客户信息); on the sip line the browser places it to the call's uuid as for a dial.
 */
import { CALL_TYPE, type CallProgress } from '@crm/contracts';
import type { CallActions } from './callActions';
import type { CallDeps } from './callDeps';
import type { CallLifecycle } from './callLifecycle';
import { useCall } from './phoneStore';

export const createTaskCallAdoption =
  (deps: CallDeps, life: CallLifecycle, actions: Pick<CallActions, 'placeInBrowser'>) => (p: CallProgress) => {
    if (p.cmStid <= 0 || p.callType !== CALL_TYPE.outbound || p.event === 'ended' || life.ledger.isEnded(p.uuid)) return;
    if (useCall.getState().call) return;
    const isDevice = deps.merchantType() === 2;
    life.startCall({
      uuid: p.uuid,
      yearMonth: p.yearMonth,
      callType: CALL_TYPE.outbound,
      phone: p.phone,
      name: p.name,
      cmCtid: p.cmCtid,
      isDevice,
      startedAt: deps.now(),
      answeredAt: null,
      cmStid: p.cmStid,
    });
    deps.onTaskCall?.({ code: 'startCall', uuid: p.uuid, yearMonth: p.yearMonth, cmStid: p.cmStid });
    if (!isDevice) actions.placeInBrowser(p.uuid);
  };
