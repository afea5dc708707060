import type { CallFrame, CallProgress, DialResponse, SipInfo } from '@crm/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CallDeps, createCallController, LEFT_CALL_POLL_MS } from './callController';
import type { LeftCallStorage } from './leftCall';
import { useCall, useExtension } from './phoneStore';

/** A test clock with timers that run when it is moved on. */
const makeClock = () => {
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

const memory = (): LeftCallStorage => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
};

const flush = () => new Promise((r) => setTimeout(r, 0));

const progress = (over: Partial<CallProgress>): CallProgress => ({
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
const frame = (msg_type: number, data: unknown, msg = ''): CallFrame => ({ code: 0, msg_type, msg, data });

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

const setup = (onTaskCall?: CallDeps['onTaskCall']) => {
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

const registered = () => {
  useExtension.getState().setSip({ cmSipid: 1, cmDeid: 0, user: '8001', telephony: 'sim' } as unknown as SipInfo);
  useExtension.getState().registerEvent('register');
  useExtension.getState().registerEvent('registered');
};

beforeEach(() => {
  useCall.getState().reset();
  useExtension.getState().reset();
});

describe('dial', () => {
  it('refuses without an online extension and with a bad typed number', async () => {
    const t = setup();
    expect(await t.c.dial({ dstNumber: '13800001111' })).toBe(false);
    expect(t.said).toEqual(['暂无默认分机']);
    registered();
    expect(await t.c.dial({ dstNumber: 'abcd' })).toBe(false);
    expect(t.said.at(-1)).toBe('请正确输入电话号码');
    expect(t.calls).toEqual([]);
  });

  it('holds the frames that beat the HTTP answer, then plays them on the call: 2 → 3', async () => {
    registered();
    const t = setup();
    const dialling = t.c.dial({ dstNumber: '13800001111' });
    t.c.handleFrame(frame(4, progress({ event: 'answered', callStatus: 3 })));
    expect(useCall.getState().call).toBeNull();
    t.resolveDial();
    expect(await dialling).toBe(true);
    expect(useCall.getState()).toMatchObject({ callStatus: 3, isInCallOpen: true });
    expect(useCall.getState().call?.answeredAt).not.toBeNull();
  });

  it('ends an unanswered call after the 60 s set-up time with 呼叫超时!', async () => {
    registered();
    const t = setup();
    const dialling = t.c.dial({ dstNumber: '13800001111' });
    t.resolveDial();
    await dialling;
    t.clock.advance(59_999);
    expect(useCall.getState().callStatus).toBe(2);
    t.clock.advance(1);
    await flush();
    expect(t.said).toContain('呼叫超时!');
    expect(t.calls).toContain('hangup u1');
    expect(useCall.getState()).toMatchObject({ callStatus: 1, call: null });
  });
});

describe('hang-up countdown', () => {
  it('refuses in the first 2 s with the seconds left, then hangs up and goes back to status 1', async () => {
    registered();
    const t = setup();
    const dialling = t.c.dial({ dstNumber: '13800001111' });
    t.resolveDial();
    await dialling;
    t.clock.advance(500);
    await t.c.hangup();
    expect(t.said.at(-1)).toBe('2s 后进行挂断');
    t.clock.advance(1_000);
    await t.c.hangup();
    expect(t.said.at(-1)).toBe('1s 后进行挂断');
    expect(t.calls.filter((x) => x.startsWith('hangup'))).toEqual([]);
    t.clock.advance(500);
    await t.c.hangup();
    expect(t.calls).toContain('hangup u1');
    expect(useCall.getState()).toMatchObject({ callStatus: 1, call: null, isInCallOpen: false });
    expect(t.over).toEqual([{ cmCtid: 7, isMissed: false }]);
    // a late frame of the ended call changes nothing
    t.c.handleFrame(frame(4, progress({ event: 'answered', callStatus: 3 })));
    expect(useCall.getState().callStatus).toBe(1);
  });
});

describe('incoming calls', () => {
  it('rings, and counts as missed when it ends unanswered', () => {
    const t = setup();
    t.c.handleFrame(frame(5, progress({ uuid: 'in1', callType: 4, event: 'ringing' })));
    expect(useCall.getState()).toMatchObject({ callStatus: 2, isInCallOpen: true });
    expect(t.said).toContain('ring');
    t.c.handleFrame(frame(5, progress({ uuid: 'in1', callType: 4, event: 'ended' })));
    expect(useCall.getState().callStatus).toBe(1);
    expect(t.over).toEqual([{ cmCtid: 7, isMissed: true }]);
  });

  it('is answered: status 3', async () => {
    const t = setup();
    t.c.handleFrame(frame(5, progress({ uuid: 'in1', callType: 4, event: 'ringing' })));
    await t.c.answer();
    expect(t.calls).toEqual(['answer in1']);
    expect(useCall.getState().callStatus).toBe(3);
  });

  it("a group dialer's put-through (autoAnswer) is answered at once: a short tone, the customer, no ring (issue 23)", async () => {
    const t = setup();
    t.c.handleFrame(frame(5, progress({ uuid: 'gc1', callType: 1, cmStid: 9, event: 'ringing', autoAnswer: 1 })));
    expect(useCall.getState()).toMatchObject({ isInCallOpen: true, call: { uuid: 'gc1', name: '张三', isPutThrough: true } });
    expect(t.said).toContain('put-through tone');
    expect(t.said).not.toContain('ring');
    expect(t.said).toContain('群呼接通：张三');
    await Promise.resolve();
    await Promise.resolve();
    expect(t.calls).toEqual(['answer gc1']);
    expect(useCall.getState().callStatus).toBe(3);
    expect(useCall.getState().call?.answeredAt).not.toBeNull();
    // without the flag the same frame rings and waits for 接听
    useCall.getState().reset();
    const other = setup();
    other.c.handleFrame(frame(5, progress({ uuid: 'gc2', callType: 1, cmStid: 9, event: 'ringing' })));
    expect(other.said).toContain('ring');
    expect(other.calls).toEqual([]);
  });
});

describe('another session takes over (SPEC §8)', () => {
  it('ends the call on this page', () => {
    const t = setup();
    t.c.handleFrame(frame(5, progress({ uuid: 'in1', callType: 4 })));
    expect(t.c.handleFrame(frame(3, null, '请勿多端登录'))).toBe(false);
    expect(useCall.getState().call).toBeNull();
  });

  it('reports the socket login', () => {
    expect(setup().c.handleFrame(frame(1, { cmSid: 3 }))).toBe(true);
  });
});

describe('a page left during a call, on every line', () => {
  it('hangs the call up and tells the next page once the extension has no call', async () => {
    registered();
    const t = setup();
    const dialling = t.c.dial({ dstNumber: '13800001111' });
    t.resolveDial();
    await dialling;
    t.c.leavePage();
    expect(t.calls).toContain('leave u1');

    // the next page (same tab storage): the server still has the call, then ends it
    useCall.getState().reset();
    const next = setup();
    Object.assign(next.storage, t.storage);
    next.setSip({ callStatus: 0 } as SipInfo);
    await next.c.checkLeftCall({ callStatus: 2 } as SipInfo);
    expect(next.said).toEqual([]);
    next.clock.advance(LEFT_CALL_POLL_MS);
    await flush();
    expect(next.said).toEqual(['离开页面时的通话已由系统挂断']);
    // once only: the late 'ended' frame says nothing more
    next.c.handleFrame(frame(4, progress({ event: 'ended', billsec: 3 })));
    expect(next.said).toEqual(['离开页面时的通话已由系统挂断']);
  });

  it("is told by the call's 'ended' frame when it comes first, with the talk time", async () => {
    registered();
    const t = setup();
    const dialling = t.c.dial({ dstNumber: '13800001111' });
    t.resolveDial();
    await dialling;
    t.c.leavePage();
    useCall.getState().reset();
    const next = setup();
    Object.assign(next.storage, t.storage);
    next.c.handleFrame(frame(4, progress({ event: 'ended', billsec: 12 })));
    expect(next.said).toEqual(['离开页面时的通话已由系统挂断，通话时长 12 秒']);
  });

  it('lets a device call go on (it is on the phone)', () => {
    const t = setup();
    useCall.getState().started({
      uuid: 'd1',
      yearMonth: '202611',
      callType: 1,
      phone: '1',
      name: '',
      cmCtid: 0,
      isDevice: true,
      startedAt: 0,
      answeredAt: null,
    });
    t.c.leavePage();
    expect(t.calls).toEqual([]);
  });
});

describe('seat-task calls (issue 15)', () => {
  it('shows a call the server dialled for the task, back to idle at its end, endCall 1 s later', () => {
    const events: string[] = [];
    const t = setup((e) => events.push(`${e.code} ${e.uuid}`));
    const { c } = t;
    registered();
    c.handleFrame(frame(4, progress({ uuid: 't1', event: 'created', cmStid: 9, cmCtid: 0, name: '' })));
    expect(useCall.getState().call?.uuid).toBe('t1');
    expect(useCall.getState().call?.name).toBe('');
    expect(useCall.getState().isInCallOpen).toBe(true);
    expect(events).toEqual(['startCall t1']);
    c.handleFrame(frame(4, progress({ uuid: 't1', event: 'answered', cmStid: 9 })));
    expect(useCall.getState().callStatus).toBe(3);
    c.handleFrame(frame(4, progress({ uuid: 't1', event: 'ended', cmStid: 9 })));
    expect(useCall.getState().call).toBeNull();
    expect(useCall.getState().callStatus).toBe(0);
    expect(events).toEqual(['startCall t1']);
    t.clock.advance(999);
    expect(events).toEqual(['startCall t1']);
    t.clock.advance(1);
    expect(events).toEqual(['startCall t1', 'endCall t1']);
  });

  it('ignores the frames of a call that is not a task call, or an ended task call it never showed', () => {
    const events: string[] = [];
    const { c } = setup((e) => events.push(e.code));
    c.handleFrame(frame(4, progress({ uuid: 'x', event: 'created', cmStid: 0 })));
    c.handleFrame(frame(4, progress({ uuid: 'y', event: 'ended', cmStid: 9 })));
    expect(useCall.getState().call).toBeNull();
    expect(events).toEqual([]);
  });
});
