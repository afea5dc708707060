import { describe, expect, it } from 'vitest';
import { extensionDisplay, nextRegisterStatus } from './extensionState';

describe('nextRegisterStatus', () => {
  it('goes 0 → 3 registering → 1 registered', () => {
    expect(nextRegisterStatus(0, 'register')).toBe(3);
    expect(nextRegisterStatus(3, 'registered')).toBe(1);
  });

  it('goes 3 → 4 failed, and a retry registers again', () => {
    expect(nextRegisterStatus(3, 'failed')).toBe(4);
    expect(nextRegisterStatus(4, 'register')).toBe(3);
  });

  it('returns to 0 on unregister from any state', () => {
    for (const s of [0, 1, 2, 3, 4]) expect(nextRegisterStatus(s, 'unregister')).toBe(0);
  });

  it('ignores a late registered event after an unregister', () => {
    expect(nextRegisterStatus(0, 'registered')).toBe(0);
    expect(nextRegisterStatus(1, 'register')).toBe(1);
  });
});

describe('extensionDisplay', () => {
  it('shows the SPEC §4 words', () => {
    expect(extensionDisplay(1, 1)).toBe('在线');
    expect(extensionDisplay(1, 2)).toBe('忙线');
    expect(extensionDisplay(2, 1)).toBe('忙线');
    expect(extensionDisplay(3, 1)).toBe('注册中');
    expect(extensionDisplay(4, 1)).toBe('注册失败');
    expect(extensionDisplay(0, 1)).toBe('离线');
    expect(extensionDisplay(1, 0)).toBe('离线');
  });
});
