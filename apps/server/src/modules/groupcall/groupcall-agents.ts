import type { DbOrTx } from '../../db/client';
import { staffInCall, taskCallStats, taskLines } from '../calls/calls-for-tasks';
import { agentStatesOf } from '../calltasks/task-core';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './groupcall.repo';

/** What the group dialer and its board read of a task's floor: its agents' states, its lines, its figures. */

export type GroupAgent = {
  staff_id: number;
  name: string;
  /** in work mode from a call socket that is alive (call-presence.ts): a crashed page or server is not working */
  is_working: boolean;
  /** 1 while a call of his is in progress or his extension rings for one */
  in_call: boolean;
  next_dial_at: Date | string | null;
  last_call_end_at: Date | string | null;
};

/** The task's agents with what they do now (the longest idle first). */
export const agentsOfTask = async (db: DbOrTx, tenantId: number, taskId: number): Promise<GroupAgent[]> => {
  const agents = await agentStatesOf(db, tenantId, taskId);
  const ids = agents.map((a) => Number(a.staff_id));
  const [names, inCall] = await Promise.all([staffNames(db, tenantId, ids), staffInCall(db, tenantId, ids)]);
  return agents.map((a) => ({
    ...a,
    name: names.get(Number(a.staff_id)) ?? '',
    in_call: inCall.has(Number(a.staff_id)),
  }));
};

/**
 * The task's customer legs not ended (ringing or answered), how many of them still ring, and how
 * many of those were placed before `longBefore` (they rang long; none counted without it).
 */
export const linesOf = async (db: DbOrTx, tenantId: number, taskId: number, longBefore?: Date) =>
  (await taskLines(db, tenantId, [taskId], { role: 'customer', isCallLive: true, longBefore })).get(taskId) ?? {
    lines: 0,
    ringing: 0,
    ringingLong: 0,
  };

export type GroupCounted = {
  task_id: number;
  called: number;
  answered: number;
  abandoned: number;
  connected: number;
  wait_ms: number;
};

/** The figures of group tasks, from their call records and group_call_calls. */
export const countersOf = async (db: DbOrTx, tenantId: number, ids: number[]): Promise<GroupCounted[]> => {
  const [calls, group] = await Promise.all([taskCallStats(db, tenantId, ids), repo.groupCountersOf(db, tenantId, ids)]);
  const groupById = new Map(group.map((g) => [Number(g.task_id), g]));
  return ids.map((id) => {
    const g = groupById.get(id);
    return {
      task_id: id,
      called: calls.get(id)?.called ?? 0,
      answered: calls.get(id)?.connected ?? 0,
      abandoned: Number(g?.abandoned ?? 0),
      connected: Number(g?.connected ?? 0),
      wait_ms: Number(g?.wait_ms ?? 0),
    };
  });
};
