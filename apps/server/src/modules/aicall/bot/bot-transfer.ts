import { onlyRefusal } from '../../../lib/app-error';
import type { CallRuntime } from '../../calls/call-bus';
import { AGENT_RING_SECONDS, bridgeLegs } from '../../calls/call-control';
import { staffWithLiveSocket } from '../../calls/call-presence';
import { legOf } from '../../calls/calls-for-aicall';
import { pushTranscript } from './bot-transcript';

// 转人工: the customer's leg is joined to the first free agent of the list, through call control's
// bridge (his default extension rings with the customer on his screen, as a group call does; a
// busy, offline or disabled extension is refused at once and the next agent is tried). An agent
// who lets it ring out or declines passes the call to the next one. The agent rung gets the
// transcript so far on his call socket (bot-transcript.ts). Only agents whose call socket is alive
// are tried (call-presence.ts): an extension still marked registered after his page or the server
// died rings nobody (issue 22).

const POLL_MS = 50;
const LEG = { answered: 2, ended: 3 } as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for the agent leg's answer; false when it ended first (declined, rang out) or the customer left. */
const agentTakes = async (rt: CallRuntime, customerLegId: string, agentLegId: string) => {
  const until = Date.now() + (AGENT_RING_SECONDS + 5) * 1000;
  while (Date.now() < until) {
    const [agent, customer] = await Promise.all([legOf(rt.db, agentLegId), legOf(rt.db, customerLegId)]);
    if (!customer || customer.state >= LEG.ended) return false;
    if (!agent || agent.state >= LEG.ended) return false;
    if (agent.state >= LEG.answered) return true;
    await sleep(POLL_MS);
  }
  return false;
};

/** The staff id of the agent who took the call, or null when none of them was free or took it. */
export const transferToAgent = async (
  rt: CallRuntime,
  legId: string,
  agents: number[],
  callUuid: string,
): Promise<number | null> => {
  const leg = await legOf(rt.db, legId);
  if (!leg) return null;
  const present = await staffWithLiveSocket(rt.db, leg.tenantId, agents);
  for (const staffId of agents.filter((id) => present.has(id))) {
    // refused (an AppError): not free — offline, busy, no extension — or the customer left; the next
    // agent is tried. Any other failure (the database, a bug) ends the bot call as a system failure.
    const agentLegId = await bridgeLegs(rt, legId, staffId).catch(onlyRefusal(null));
    if (agentLegId === null) continue;
    await pushTranscript(rt, callUuid, staffId).catch(() => undefined);
    if (await agentTakes(rt, legId, agentLegId)) return staffId;
    const customer = await legOf(rt.db, legId);
    if (!customer || customer.state >= LEG.ended) return null;
  }
  return null;
};
