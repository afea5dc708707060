/** Fakes for the call controller's tests: a test clock, session storage, frames, and a controller wired to recording fakes. */
import type { CallFrame, CallProgress, DialResponse, SipInfo } from '@crm/contracts';
import { createCallController } from './callController';
import type { CallDeps } from './callDeps';
import type { LeftCallStorage } from './leftCall';
import { useCall, useExtension } from './phoneStore';

/** A test clock with timers that run when it is moved on. */
export const makeClock = () => {
  let now = 1_000_000;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    timers: {
      set: (fn: () => void, ms: number) => {
        seq += 1;
        due.set(seq, { at: now + ms, fn });
        return seq;
      },
      clear: (id: number | undefined) => {
        if (id !== undefined) due.delete(id);
      },
    },
    advance: (ms: number) => {
      now += ms;
      for (const [id, t] of [...due].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now && due.has(id)) {
          due.delete(id);
          t.fn();
        }
      }
    },
  };
};

export const memory = (): LeftCallStorage => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
};

export const flush = () => new Promise((r) => setTimeout(r, 0));

export const progress = (over: Partial<CallProgress>): CallProgress => ({
  uuid: 'u1',
  yearMonth: '202611',
  callType: 1,
  event: 'ringing',
  callStatus: 2,
  cmCtid: 7,
  cmAtid: 1,
  name: '张三',
  phone: '13800001111',
  encryptPhone: 0,
  cmStid: 0,
  dialTime: '',
  dialingTime: '',
  dialedTime: '',
  dmMsg: '',
  billsec: 0,
  hangupPeople: 0,
  hangupCause: '',
  hangupCauseName: '',
  recordFile: '',
  at: 0,
  ...over,
});
export const frame = (msg_type: number, data: unknown, msg = ''): CallFrame => ({ code: 0, msg_type, msg, data });

const dialAnswer: DialResponse = {
  uuid: 'u1',
  yearMonth: '202611',
  callType: 1,
  phone: '13800001111',
  name: '张三',
  cmCtid: 7,
  cmAtid: 1,
  createTime: '',
} as DialResponse;

export const setup = (onTaskCall?: CallDeps['onTaskCall']) => {
  const clock = makeClock();
  const said: string[] = [];
  const calls: string[] = [];
  const over: { cmCtid: number; isMissed: boolean }[] = [];
  const storage = memory();
  let sipDefault: SipInfo | null = null;
  let resolveDial: (r: DialResponse) => void = () => undefined;
  const deps: CallDeps = {
    api: {
      dial: (body) => {
        calls.push(`dial ${JSON.stringify(body)}`);
        return new Promise((r) => {
          resolveDial = r;
        });
      },
      deviceDial: () => Promise.reject(new Error('no device')),
      hangup: async (b) => calls.push(`hangup ${b.uuid}`),
      deviceHangup: async (b) => calls.push(`deviceHangup ${b.uuid}`),
      answer: async (b) => calls.push(`answer ${b.uuid}`),
      sipDefault: async () => sipDefault,
      hangupOnLeave: (b) => calls.push(`leave ${b.uuid}`),
    },
    softphone: {},
    sounds: {
      startRing: () => said.push('ring'),
      stopRing: () => undefined,
      answered: () => undefined,
      ended: () => undefined,
      putThrough: () => said.push('put-through tone'),
    },
    ui: {
      message: {
        info: (c) => said.push(typeof c === 'string' ? c : c.content),
        warning: (c) => said.push(c),
        error: (c) => said.push(c),
      },
      modal: null,
    },
    socket: { isOpen: true, connect: () => undefined },
    merchantType: () => 1,
    timers: clock.timers,
    now: clock.now,
    storage,
    onCallOver: (c) => over.push(c),
    onDialError: (err) => said.push(`dial error ${String(err)}`),
    isCallGone: () => false,
    onTaskCall,
  };
  const c = createCallController(deps);
  return {
    c,
    clock,
    said,
    calls,
    over,
    storage,
    setSip: (s: SipInfo | null) => {
      sipDefault = s;
    },
    resolveDial: (r = dialAnswer) => resolveDial(r),
  };
};

export const registered = () => {
  useExtension.getState().setSip({ cmSipid: 1, cmDeid: 0, user: '8001', telephony: 'sim' } as unknown as SipInfo);
  useExtension.getState().registerEvent('register');
  useExtension.getState().registerEvent('registered');
};

/** Both stores back to their start, before each test. */
export const resetStores = () => {
  useCall.getState().reset();
  useExtension.getState().reset();
};
