import { CALLTASK_MSG_TYPE, type CalltaskDetail, type CalltaskProgress, type CalltaskRow, type ListData } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callSocket } from '../../../api/callSocket';
import { calltaskKeys } from '../api';

/**
 * Live progress on the managers' pages (SPEC §4 msg_type 7): a frame's counters go straight into
 * the list rows and the open detail; a status change, or a task not on screen, reloads them.
 * The numbers and the charts refresh with it. Polling (TASK_POLL_MS) stays as the fallback.
 * `root`: the query root of the task kind on screen (AI tasks keep theirs, same shape).
 */
export const useTaskProgress = (root: readonly unknown[] = calltaskKeys.manage) => {
  const client = useQueryClient();
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== CALLTASK_MSG_TYPE || !frame.data) return;
        const p = frame.data as CalltaskProgress;
        let isStatusChanged = false;
        const merge = <T extends CalltaskRow>(row: T): T => {
          if (row.cmStid !== p.cmStid) return row;
          if (row.status !== p.status) isStatusChanged = true;
          return { ...row, ...p };
        };
        client.setQueriesData<ListData<CalltaskRow>>({ queryKey: [...root, 'list'] }, (old) =>
          old ? { ...old, list: old.list.map(merge) } : old,
        );
        client.setQueryData<CalltaskDetail>([...root, 'detail', p.cmStid], (old) => (old ? merge(old) : old));
        if (isStatusChanged) void client.invalidateQueries({ queryKey: root });
        else void client.invalidateQueries({ queryKey: [...root, 'numbers'] });
      }),
    [client, root],
  );
};
