import { CALL_LIMITS } from '@crm/contracts';

/**
 * SPEC §9: the call socket reconnects after 1000·2^attempt + rand(0..1000) ms, capped at 64 s.
 * `attempt` counts failed tries since the last accepted login (0 for the first retry).
 */
export const reconnectDelay = (attempt: number, random: () => number = Math.random): number => {
  const jitter = Math.floor(random() * 1001);
  const base = CALL_LIMITS.reconnectBaseMs * 2 ** Math.min(Math.max(attempt, 0), 16);
  return Math.min(CALL_LIMITS.reconnectMaxMs, base + jitter);
};
