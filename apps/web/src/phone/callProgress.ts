import type { CallProgress } from '@crm/contracts';

/** What a progress frame means for the call on screen. */
export type CallStep = { kind: 'ringing' } | { kind: 'answered' } | { kind: 'ended'; error: string };

/**
 * Reads a msg_type 4/5 frame. Extension calls follow the event; device calls (merchantType 2)
 * follow SPEC §4's direct-dial fields: dmMsg → error and reset, dialedTime → ended,
 * dialingTime → talking (3), dialTime → dialling (2).
 */
export const progressStep = (p: CallProgress, isDevice: boolean): CallStep => {
  if (isDevice) {
    if (p.dmMsg) return { kind: 'ended', error: p.dmMsg };
    if (p.dialedTime) return { kind: 'ended', error: '' };
    if (p.dialingTime) return { kind: 'answered' };
    return { kind: 'ringing' };
  }
  if (p.event === 'ended') return { kind: 'ended', error: p.dmMsg };
  if (p.event === 'answered') return { kind: 'answered' };
  return { kind: 'ringing' };
};
