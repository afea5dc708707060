import { CALLTASK_MSG_TYPE, type CalltaskDetail, type CalltaskProgress, type CalltaskRow, type ListData } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callSocket } from '../../../api/callSocket';
import { onTaskCallEvent } from '../../../phone/taskCallEvents';
import { workKeys } from './workApi';

/**
 * Live task progress (SPEC §4 msg_type 7): each frame's counters go straight into the lists and
 * details on screen; a status change (paused, completed …) reloads them. A task call's endCall
 * event reloads them too (the next number, the wrap-up). Polling stays as the fallback.
 */
export const useTaskFrames = () => {
  const client = useQueryClient();
  useEffect(() => {
    const offFrames = callSocket.subscribe((frame) => {
      if (frame.msg_type !== CALLTASK_MSG_TYPE || !frame.data) return;
      const p = frame.data as CalltaskProgress;
      const merge = <T extends CalltaskRow>(row: T): T => (row.cmStid === p.cmStid ? { ...row, ...p } : row);
      let isStatusChanged = false;
      client.setQueriesData<ListData<CalltaskRow>>({ queryKey: [...workKeys.all, 'mine'] }, (old) => {
        if (!old) return old;
        if (old.list.some((r) => r.cmStid === p.cmStid && r.status !== p.status)) isStatusChanged = true;
        return { ...old, list: old.list.map(merge) };
      });
      client.setQueryData<CalltaskDetail>(workKeys.detail(p.cmStid), (old) => {
        if (old && old.status !== p.status) isStatusChanged = true;
        return old ? merge(old) : old;
      });
      if (isStatusChanged) void client.invalidateQueries({ queryKey: workKeys.all });
    });
    const offCalls = onTaskCallEvent(() => void client.invalidateQueries({ queryKey: workKeys.all }));
    return () => {
      offFrames();
      offCalls();
    };
  }, [client]);
};
