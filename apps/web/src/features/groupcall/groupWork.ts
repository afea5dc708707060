import { create } from 'zustand';
import { registerSessionEndHook } from '../../stores/session';
import { rejoinWorkOnLogin } from '../calltasks/work/rejoinWork';

/** The group tasks the agent works from this page (开始工作 … 停止工作). */
type GroupWorkState = { ids: number[]; joined: (cmStid: number) => void; left: (cmStid: number) => void };

export const useGroupWork = create<GroupWorkState>()((set) => ({
  ids: [],
  joined: (cmStid) => set((s) => ({ ids: s.ids.includes(cmStid) ? s.ids : [...s.ids, cmStid] })),
  left: (cmStid) => set((s) => ({ ids: s.ids.filter((id) => id !== cmStid) })),
}));

// work mode lasts while this page's call socket does: a reconnect or a server restart joins again
rejoinWorkOnLogin({
  path: '/api/frontend/groupcall/work',
  workingIds: () => useGroupWork.getState().ids,
  onLost: (cmStid) => useGroupWork.getState().left(cmStid),
});
registerSessionEndHook(() => useGroupWork.setState({ ids: [] }));
