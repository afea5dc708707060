import { create } from 'zustand';
import { http } from '../../../api/http';
import { useCall } from '../../../phone/phoneStore';
import { onTaskCallEvent } from '../../../phone/taskCallEvents';
import { readToken, registerSessionEndHook } from '../../../stores/session';
import { rejoinWorkOnLogin } from './rejoinWork';

/** The agent's last task call: the outcome buttons act on it. */
export type TaskCall = {
  uuid: string;
  cmStid: number;
  phone: string;
  name: string;
  /** local clock (ms) of the end; null while the call goes on */
  endedAt: number | null;
  isAnswered: boolean;
  /** the outcome he gave (TASK_OUTCOME), 0 before */
  outcome: number;
};

type WorkState = {
  /** the task the agent works on this page (one at a time), null when none */
  workingId: number | null;
  lastCall: TaskCall | null;
  setWorking: (cmStid: number | null) => void;
  setOutcome: (uuid: string, outcome: number) => void;
  reset: () => void;
};

export const useTaskWork = create<WorkState>()((set) => ({
  workingId: null,
  lastCall: null,
  setWorking: (workingId) => set((s) => ({ workingId, lastCall: workingId === null ? null : s.lastCall })),
  setOutcome: (uuid, outcome) => set((s) => (s.lastCall?.uuid === uuid ? { lastCall: { ...s.lastCall, outcome } } : {})),
  reset: () => set({ workingId: null, lastCall: null }),
}));

/** The phone's task-call events: a call the server dialled for the task, and its end (endCall, 1 s after). */
onTaskCallEvent((e) => {
  if (e.code === 'startCall') {
    const call = useCall.getState().call;
    useTaskWork.setState({
      // a task call means the server has him working that task (also after a reload)
      workingId: e.cmStid,
      lastCall: {
        uuid: e.uuid,
        cmStid: e.cmStid,
        phone: call?.phone ?? '',
        name: call?.name ?? '',
        endedAt: null,
        isAnswered: false,
        outcome: 0,
      },
    });
    return;
  }
  useTaskWork.setState((s) =>
    s.lastCall?.uuid === e.uuid ? { lastCall: { ...s.lastCall, endedAt: Date.now() - 1_000, isAnswered: e.isAnswered } } : {},
  );
});

/**
 * Leaving the page (reload, close) stops working: no number is dialled for an agent who is gone.
 * A plain keepalive request, as the phone's hang-up on leaving.
 */
export const unworkOnLeave = () => {
  const { workingId } = useTaskWork.getState();
  const token = readToken();
  if (workingId === null || !token) return;
  void fetch('/api/frontend/calltask/unwork', {
    method: 'POST',
    keepalive: true,
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify({ cmStid: workingId }),
  }).catch(() => undefined);
};

if (typeof window !== 'undefined') window.addEventListener('pagehide', unworkOnLeave);

// work mode lasts while this page's call socket does: a reconnect or a server restart joins again
rejoinWorkOnLogin({
  path: '/api/frontend/calltask/work',
  workingIds: () => {
    const { workingId } = useTaskWork.getState();
    return workingId === null ? [] : [workingId];
  },
  onLost: () => useTaskWork.getState().setWorking(null),
});
registerSessionEndHook(() => useTaskWork.getState().reset());

/** 安全退出 stops working first, while the session still holds (after the logout it could not). */
export const stopWorkBeforeLogout = async () => {
  const { workingId } = useTaskWork.getState();
  if (workingId === null) return;
  await http.post<null>('/api/frontend/calltask/unwork', { cmStid: workingId }, { silent: true }).catch(() => undefined);
  useTaskWork.getState().reset();
};
