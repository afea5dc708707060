import { LIMITS } from '@crm/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readToken, useSession } from './session';

/** A Map-backed localStorage for the node test environment, there before the store is created. */
const items = vi.hoisted(() => {
  const map = new Map<string, string>();
  const storage = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, String(v)),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
    key: (i: number) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
  return map;
});

const session = { userInfo: null as never, menulist: [], permissions: {} };

describe('the stored token (SPEC §9: it expires with the 1-day cookie)', () => {
  beforeEach(() => items.clear());

  it('is read until 1 day after login, then forgotten', () => {
    const loginAt = Date.now();
    useSession.getState().setSession({ ...session, token: 'tok-1' });
    expect(LIMITS.tokenCookieSeconds).toBe(24 * 60 * 60);
    expect(readToken(loginAt + 23 * 3600_000)).toBe('tok-1');
    expect(readToken(loginAt + 24 * 3600_000 + 1_000)).toBe('');
    // gone from storage, not only hidden
    expect([...items.keys()].filter((k) => k.startsWith('crm.token'))).toEqual([]);
  });

  it('counts a token stored without its expiry (before this change) as expired', () => {
    items.set('crm.token', 'old');
    expect(readToken()).toBe('');
  });

  it('is removed with its expiry at logout', () => {
    useSession.getState().setSession({ ...session, token: 'tok-2' });
    expect(readToken()).toBe('tok-2');
    useSession.getState().clear();
    expect(readToken()).toBe('');
    expect([...items.keys()].filter((k) => k.startsWith('crm.token'))).toEqual([]);
  });
});
