import type { SipInfo } from '@crm/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { flush, frame, progress, registered, resetStores, setup } from './callTestKit';
import { LEFT_CALL_POLL_MS } from './leftCallWatch';
import { useCall } from './phoneStore';

beforeEach(resetStores);

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
