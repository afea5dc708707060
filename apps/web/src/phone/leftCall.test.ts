import { describe, expect, it } from 'vitest';
import { type LeftCallStorage, leftCallNotice, pendingLeftCall, rememberLeftCall, takeLeftCall } from './leftCall';

const memory = (): LeftCallStorage => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
};

describe('the call left with the page', () => {
  it('is told once, for its own uuid, within a minute', () => {
    const s = memory();
    rememberLeftCall(s, 'u1', 1_000);
    expect(pendingLeftCall(s, 2_000)).toBe('u1');
    expect(takeLeftCall(s, 'other', 2_000)).toBe(false);
    expect(takeLeftCall(s, 'u1', 61_000)).toBe(true);
    expect(takeLeftCall(s, 'u1', 61_000)).toBe(false);
    expect(pendingLeftCall(s, 61_000)).toBeNull();
  });

  it('is forgotten after a minute', () => {
    const s = memory();
    rememberLeftCall(s, 'u1', 1_000);
    expect(pendingLeftCall(s, 61_001)).toBeNull();
    expect(takeLeftCall(s, 'u1', 61_001)).toBe(false);
  });

  it('survives broken storage', () => {
    const s = memory();
    s.setItem('crm.leftCall', '{not json');
    expect(pendingLeftCall(s, 0)).toBeNull();
  });

  it('says how long the call lasted when it was answered', () => {
    expect(leftCallNotice(0)).toBe('离开页面时的通话已由系统挂断');
    expect(leftCallNotice(12)).toBe('离开页面时的通话已由系统挂断，通话时长 12 秒');
  });
});
