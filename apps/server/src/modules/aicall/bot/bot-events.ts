import { onEvent } from '../../../lib/events/events';

// The leg events a running bot call follows: key presses (RFC 4733) and the leg's end, from the
// `call.leg` domain events of this instance's legs (call-control-events.ts publishes them).

export type BotLegListener = { digit: (digit: string) => void; ended: () => void };

const listeners = new Map<string, BotLegListener>();

/** Follows a leg's digits and end until the returned function is called. */
export const followLeg = (legId: string, l: BotLegListener) => {
  listeners.set(legId, l);
  return () => {
    if (listeners.get(legId) === l) listeners.delete(legId);
  };
};

/** Bot calls in progress on this instance (the lines in use). */
export const botCallsInProgress = () => listeners.size;

/** Wires the `call.leg` events into the running bot calls (once per process; the name makes it idempotent). */
export const wireBotEvents = () =>
  onEvent('call.leg', 'aicall-bot', async (_tx, e) => {
    const l = listeners.get(e.payload.legId);
    if (!l) return;
    if (e.payload.kind === 'digit' && e.payload.digit) {
      l.digit(e.payload.digit);
    } else if (e.payload.kind === 'ended') l.ended();
  });
