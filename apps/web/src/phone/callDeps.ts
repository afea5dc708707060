/** What a call controller talks to (server, softphone, sounds, antd, timers, storage), as types: the browser's in phoneActions.ts, fakes in the tests. */
import type { DialBody, DialResponse, DirectDialResponse, HangupBody, SipDefault } from '@crm/contracts';
import type { LeftCallStorage } from './leftCall';
import type { Softphone } from './softphoneTypes';
import type { TaskCallEvent } from './taskCallEvents';

/** What the phone shows through antd (the app's message and modal; null before <App> mounted). */
export type PhoneUi = {
  message: {
    info: (content: string | { content: string; duration?: number }) => unknown;
    warning: (content: string) => unknown;
    error: (content: string) => unknown;
  } | null;
  modal: { warning: (config: { title: string; content: string; okText: string }) => unknown } | null;
};

export type Timers = { set: (fn: () => void, ms: number) => number; clear: (id: number | undefined) => void };

/** Everything a call controller talks to. */
export type CallDeps = {
  api: {
    dial: (body: DialBody) => Promise<DialResponse>;
    deviceDial: (body: DialBody) => Promise<DirectDialResponse>;
    hangup: (body: HangupBody) => Promise<unknown>;
    deviceHangup: (body: HangupBody) => Promise<unknown>;
    answer: (body: HangupBody) => Promise<unknown>;
    sipDefault: () => Promise<SipDefault>;
    /** the hang-up of a page being left: must outlive the page (keepalive) */
    hangupOnLeave: (body: HangupBody) => void;
  };
  softphone: Pick<Softphone, 'call' | 'answer' | 'hangup'>;
  sounds: { startRing: () => void; stopRing: () => void; answered: () => void; ended: () => void; putThrough: () => void };
  ui: PhoneUi;
  socket: { readonly isOpen: boolean; connect: () => void };
  merchantType: () => number;
  timers: Timers;
  now: () => number;
  /** the tab's session storage (the call left with the page) */
  storage: LeftCallStorage;
  /** a call ended here: lists that show calls refresh */
  onCallOver: (call: { cmCtid: number; isMissed: boolean }) => void;
  /** a dial the server refused: the message, or the SPEC §8 dialog */
  onDialError: (err: unknown) => void;
  /** is this the server's "no such call" answer (an already closed call)? */
  isCallGone: (err: unknown) => boolean;
  /** a seat-task call started or ended here (SPEC §4: endCall 1 s after the end) */
  onTaskCall?: (event: TaskCallEvent) => void;
};
