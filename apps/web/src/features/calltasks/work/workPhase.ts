import { CALL_STATUS } from '@crm/contracts';
import type { TaskCall } from './workStore';

/** Where the working agent is: in a task call, in his wrap-up after one, or waiting for the next dial. */
export type WorkPhase = { kind: 'calling' } | { kind: 'talking' } | { kind: 'wrapUp'; secondsLeft: number } | { kind: 'waiting' };

export const workPhase = (
  cmStid: number,
  phone: { callStatus: number; callTaskId: number },
  lastCall: TaskCall | null,
  wrapUpSeconds: number,
  now: number,
): WorkPhase => {
  if (phone.callTaskId === cmStid && phone.callStatus >= CALL_STATUS.dialling) {
    return phone.callStatus === CALL_STATUS.talking ? { kind: 'talking' } : { kind: 'calling' };
  }
  if (lastCall?.cmStid === cmStid && lastCall.endedAt !== null) {
    const left = Math.ceil((lastCall.endedAt + wrapUpSeconds * 1000 - now) / 1000);
    if (left > 0) return { kind: 'wrapUp', secondsLeft: left };
  }
  return { kind: 'waiting' };
};

export const phaseText = (p: WorkPhase): string => {
  switch (p.kind) {
    case 'calling':
      return '呼叫中';
    case 'talking':
      return '通话中';
    case 'wrapUp':
      return `整理中 ${p.secondsLeft} 秒`;
    default:
      return '等待拨号';
  }
};
