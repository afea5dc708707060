import { beforeEach, describe, expect, it } from 'vitest';
import { type ActiveCall, useCall, useExtension } from './phoneStore';

const call = (over: Partial<ActiveCall> = {}): ActiveCall => ({
  uuid: 'u1',
  yearMonth: '202405',
  callType: 1,
  phone: '13800001111',
  name: '',
  cmCtid: 0,
  isDevice: false,
  startedAt: 1,
  answeredAt: null,
  ...over,
});

describe('call state machine (SPEC §4)', () => {
  beforeEach(() => useCall.getState().reset());

  it('goes 0 → 1 dialler → 2 dialling → 3 talking → back to 1', () => {
    const s = useCall.getState;
    s().openDialler();
    expect(s().callStatus).toBe(1);
    expect(s().isDialOpen).toBe(true);
    s().started(call());
    expect(s().callStatus).toBe(2);
    expect(s().isDialOpen).toBe(false);
    expect(s().isInCallOpen).toBe(true);
    s().answered();
    expect(s().callStatus).toBe(3);
    expect(s().call?.answeredAt).not.toBeNull();
    s().ended();
    expect(s().callStatus).toBe(1);
    expect(s().call).toBeNull();
    expect(s().isInCallOpen).toBe(false);
  });

  it('closing the dialler without a call returns to idle', () => {
    useCall.getState().openDialler();
    useCall.getState().closeDialler();
    expect(useCall.getState().callStatus).toBe(0);
  });
});

describe('extension store', () => {
  it('follows the registration events and clears on reset', () => {
    const e = useExtension.getState;
    e().registerEvent('register');
    expect(e().registerStatus).toBe(3);
    e().registerEvent('registered');
    expect(e().registerStatus).toBe(1);
    e().reset();
    expect(e().registerStatus).toBe(0);
    expect(e().isLoaded).toBe(false);
  });
});
