import { CALL_MSG_TYPE, type CallFrame, type CallProgress, ERRORS } from '@crm/contracts';

/** What a call socket frame asks of the phone (SPEC §4). */
export type FrameAction =
  | { kind: 'loggedIn' }
  | { kind: 'progress'; progress: CallProgress }
  | { kind: 'incoming'; progress: CallProgress }
  /** SPEC §8: another session took over; the server ended this page's call */
  | { kind: 'takenOver' }
  | { kind: 'none' };

/** Reads one frame; heartbeats, task frames and other errors ask nothing of the phone. */
export const frameAction = (frame: CallFrame): FrameAction => {
  switch (frame.msg_type) {
    case CALL_MSG_TYPE.loginOk:
      return { kind: 'loggedIn' };
    case CALL_MSG_TYPE.dialProgress:
      return frame.data ? { kind: 'progress', progress: frame.data as CallProgress } : { kind: 'none' };
    case CALL_MSG_TYPE.incoming:
      return frame.data ? { kind: 'incoming', progress: frame.data as CallProgress } : { kind: 'none' };
    case CALL_MSG_TYPE.error:
      return frame.msg === ERRORS.MULTI_LOGIN.msg ? { kind: 'takenOver' } : { kind: 'none' };
    default:
      return { kind: 'none' };
  }
};

/**
 * The frames of one page's calls: a dial's frames that arrive before its HTTP answer named the
 * call are held, and calls this page already ended ignore their late frames.
 */
export const createFrameLedger = () => {
  const endedUuids = new Set<string>();
  let held: CallProgress[] = [];
  let isDialling = false;
  return {
    dialStarted() {
      isDialling = true;
      held = [];
    },
    dialSettled() {
      isDialling = false;
    },
    /** true when the frame is kept for the call the pending dial is about to show */
    hold(p: CallProgress, hasCallOnScreen: boolean): boolean {
      if (hasCallOnScreen || !isDialling) return false;
      held.push(p);
      return true;
    },
    /** the held frames of the call now on screen, in order; the others are dropped */
    takeHeld(uuid: string): CallProgress[] {
      const mine = held.filter((p) => p.uuid === uuid);
      held = [];
      return mine;
    },
    started(uuid: string) {
      endedUuids.delete(uuid);
    },
    ended(uuid: string) {
      endedUuids.add(uuid);
    },
    isEnded: (uuid: string) => endedUuids.has(uuid),
    clear() {
      endedUuids.clear();
      held = [];
      isDialling = false;
    },
  };
};
export type FrameLedger = ReturnType<typeof createFrameLedger>;
