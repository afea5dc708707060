import { CALLTASK_MODE, GROUPCALL_MSG_TYPE, type GroupcallBoard } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { staffChannel } from '../../lib/pubsub';
import type { CallRuntime, StaffMessage } from '../calls/call-bus';
import { findTask, type TaskRow, taskAudience } from '../calltasks/task-core';
import { requireGroupTask } from './groupcall.service';
import { agentsOfTask, countersOf, linesOf } from './groupcall-agents';
import type { GroupDialerState } from './groupcall-state';

// The live board of a group task (issue 15): its agents (free / talking / wrap-up), lines in use,
// the dialer's ratio, answered, abandoned (%), connected to an agent, the average wait from answer
// to agent; counted from the database (the ratio and its recent samples from the task's Pacer on
// this instance). Sent as msg_type 8 frames to the task's creator and agents after each change.

const STATE_NAME = ['未工作', '空闲', '通话中', '整理中'];
const pad = (n: number) => String(n).padStart(2, '0');
/** HH:mm:ss Beijing time */
const clockOf = (ms: number) => {
  const d = new Date(ms + 8 * 3_600_000);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};
const round1 = (v: number) => Math.round(v * 10) / 10;

export const boardData = async (db: DbOrTx, state: GroupDialerState, task: TaskRow): Promise<GroupcallBoard> => {
  const at = now();
  const [agents, lines, [c]] = await Promise.all([
    agentsOfTask(db, task.tenantId, task.id),
    linesOf(db, task.tenantId, task.id),
    countersOf(db, task.tenantId, [task.id]),
  ]);
  const shown = agents.map((a) => {
    let s = 0;
    if (a.is_working)
      s = a.in_call || state.joining.has(Number(a.staff_id)) ? 2 : a.next_dial_at && new Date(a.next_dial_at) > at ? 3 : 1;
    return { cmSid: Number(a.staff_id), name: a.name, state: s, stateName: STATE_NAME[s] };
  });
  const answered = Number(c?.answered ?? 0);
  const abandoned = Number(c?.abandoned ?? 0);
  const pacer = state.pacers.get(task.id);
  return {
    cmStid: task.id,
    status: task.status,
    agentsFree: shown.filter((a) => a.state === 1).length,
    agentsTalking: shown.filter((a) => a.state === 2).length,
    agentsWrapUp: shown.filter((a) => a.state === 3).length,
    agentsWorking: shown.filter((a) => a.state > 0).length,
    linesInUse: lines.lines,
    maxLines: task.maxLines,
    ratio: round1(pacer ? pacer.snapshot(at.getTime()).ratio : 0),
    called: Number(c?.called ?? 0),
    answered,
    abandoned,
    abandonRate: answered > 0 ? round1((abandoned * 100) / answered) : 0,
    abandonTarget: task.abandonTarget / 10,
    connected: Number(c?.connected ?? 0),
    avgWaitSeconds: round1(Number(c?.wait_ms ?? 0) / 1000),
    samples: (state.samples.get(task.id) ?? []).map((s) => ({
      time: clockOf(s.at),
      ratio: round1(s.ratio),
      abandonRate: round1(s.abandonRate * 100),
    })),
    agents: shown,
  };
};

export const boardOf = async (db: DbOrTx, state: GroupDialerState, actor: Actor, id: number) =>
  boardData(db, state, await requireGroupTask(db, actor, id));

/** The board to the task's creator and agents (msg_type 8), after a change that committed. */
export const publishBoard = async (
  rt: Pick<CallRuntime, 'db' | 'bus'>,
  state: GroupDialerState,
  tenantId: number,
  taskId: number,
) => {
  const task = await findTask(rt.db, tenantId, taskId);
  if (task?.mode !== CALLTASK_MODE.group) return;
  const data = await boardData(rt.db, state, task);
  const message: StaffMessage = { kind: 'frame', frame: { code: 0, msg_type: GROUPCALL_MSG_TYPE, msg: '群呼看板', data } };
  for (const staffId of await taskAudience(rt.db, taskId)) await rt.bus.publish(staffChannel(staffId), message);
};
