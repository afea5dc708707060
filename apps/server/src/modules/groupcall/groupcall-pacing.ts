import type { FloorCounts } from '../calltasks/dialer/pacer';
import type { GroupAgent } from './groupcall-agents';

// What the group dialer tells its Pacer about a task's floor (issues 15 and 23), the same counts
// the simulation (calltasks/dialer/simulate.ts, bench/dialer.ts) passes: free agents, agents whose
// wrap-up ends within the horizon, the answered customers waiting, the lines and the calls ringing
// (those ringing longer than RING_LONG_MS count a quarter), and the team: the agents working the task,
// which caps the ratio for small teams (dialer/ramp.ts).

/** Agents whose wrap-up ends within this time count as free (an answer takes ≥ 2 s, the customer waits 2 s). */
export const SOON_FREE_MS = 5_000;
/** Calls ringing longer than this hardly answer any more (most answers come within 15 s). */
export const RING_LONG_MS = 15_000;

export const floorCounts = (
  at: Date,
  task: { maxLines: number },
  agents: GroupAgent[],
  free: number,
  waiting: number,
  lines: { lines: number; ringing: number; ringingLong: number },
): FloorCounts => {
  const working = agents.filter((a) => a.is_working);
  const soon = working.filter((a) => {
    if (a.in_call || !a.next_dial_at) return false;
    const left = new Date(a.next_dial_at).getTime() - at.getTime();
    return left > 0 && left <= SOON_FREE_MS;
  }).length;
  return {
    freeAgents: free,
    agentsSoonFree: soon,
    waiting,
    linesInUse: lines.lines,
    ringing: lines.ringing,
    ringingLong: lines.ringingLong,
    lineLimit: task.maxLines,
    teamSize: working.length,
  };
};
