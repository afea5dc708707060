import type { PlayResult } from '../../../telephony/control';
import type { CallRuntime } from '../../calls/call-bus';
import { playInto, stopPlay } from '../../calls/call-control';
import type { Ear } from './bot-ear';

/**
 * Plays a prompt into the leg, the ear told what is playing (its echo reference). `interrupt` (打断):
 * the customer's first voiced frame or key press stops the prompt at once (the line drops its
 * queue); otherwise what he says over the prompt is not heard (his key presses are kept).
 */
export const speak = async (rt: CallRuntime, legId: string, ear: Ear, audio: Int16Array, interrupt: boolean) => {
  ear.setReference(audio);
  let stopped = false;
  const off = interrupt
    ? ear.onInput(() => {
        if (stopped) return;
        stopped = true;
        void stopPlay(rt, legId).catch(() => undefined);
      })
    : () => undefined;
  let result: PlayResult;
  // where the line detects voice itself it stops the prompt at once, without waiting for this loop
  ear.setInterruptible(interrupt);
  try {
    result = await playInto(rt, legId, audio).catch(() => 'ended' as const);
  } finally {
    off();
    ear.setInterruptible(false);
    ear.setReference(null);
  }
  if (!interrupt) ear.ignoreSpeechBefore(ear.nowMs());
  return ear.isEnded ? ('ended' as const) : result;
};
