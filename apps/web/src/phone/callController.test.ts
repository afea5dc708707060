import { beforeEach, describe, expect, it } from 'vitest';
import { flush, frame, progress, registered, resetStores, setup } from './callTestKit';
import { useCall } from './phoneStore';

beforeEach(resetStores);

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
