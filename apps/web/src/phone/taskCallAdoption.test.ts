import { beforeEach, describe, expect, it } from 'vitest';
import { frame, progress, registered, resetStores, setup } from './callTestKit';
import { useCall } from './phoneStore';

beforeEach(resetStores);

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
