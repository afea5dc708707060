import { and, count, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { callLegs, callRecords } from '../../db/schema';
import type { CallRuntime } from './call-bus';
import { CALL_STATE, ORIGIN_SERVER } from './calls.repo';

/** What the calls module tells GET /metrics and the readiness check (issue 25): calls and legs in progress, the line, the bus. */

const STATE_NAMES: Record<number, string> = {
  [CALL_STATE.created]: 'created',
  [CALL_STATE.ringing]: 'ringing',
  [CALL_STATE.answered]: 'answered',
};

const stateName = (state: number) => STATE_NAMES[state] ?? String(state);

/**
 * Calls in progress in the whole cluster (every instance reports the same figure) by origin and
 * state, and the legs this instance's line holds by role and state.
 */
export const callFigures = async (db: Db, instanceId: string) => {
  const [calls, legs] = await Promise.all([
    db
      .select({ origin: callRecords.origin, state: callRecords.state, n: count() })
      .from(callRecords)
      .where(lt(callRecords.state, CALL_STATE.ended))
      .groupBy(callRecords.origin, callRecords.state),
    db
      .select({ role: callLegs.role, state: callLegs.state, n: count() })
      .from(callLegs)
      .where(and(eq(callLegs.ownerInstance, instanceId), lt(callLegs.state, CALL_STATE.ended)))
      .groupBy(callLegs.role, callLegs.state),
  ]);
  return {
    calls: calls.map((r) => ({
      origin: r.origin === ORIGIN_SERVER ? 'server' : 'agent',
      state: stateName(r.state),
      count: Number(r.n),
    })),
    legs: legs.map((r) => ({ role: r.role, state: stateName(r.state), count: Number(r.n) })),
  };
};

const PENDING = Symbol('pending');

/**
 * The line as far as this instance knows: the sim line is always ready; the sip line once its own
 * SIP user agent listens (it does not register: Kamailio trusts its address and secret).
 */
export const lineState = async (rt: CallRuntime): Promise<{ ok: boolean; detail: string }> => {
  const { line } = rt;
  if (!('ready' in line) || !(line.ready instanceof Promise)) return { ok: true, detail: `${rt.config.telephony} 线路就绪` };
  // a settled `ready` answers within a few microtasks; one still pending loses to the short timer
  const pending = new Promise<typeof PENDING>((resolve) => setTimeout(() => resolve(PENDING), 20));
  const settled = await Promise.race([line.ready.then(() => 'ready' as const), pending]).catch(() => 'failed' as const);
  if (settled === 'ready') return { ok: true, detail: 'sip 线路就绪（本机 SIP 用户代理已监听）' };
  if (settled === PENDING) return { ok: false, detail: 'sip 线路启动中' };
  return { ok: false, detail: 'sip 线路启动失败（SIP 用户代理无法监听）' };
};

/** The pub/sub answers: a publish on a channel nobody listens to (Redis when REDIS_URL is set). */
export const pingBus = (rt: CallRuntime) => rt.bus.publish('health:ping', { at: Date.now() });
