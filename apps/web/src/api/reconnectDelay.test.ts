import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './reconnectDelay';

describe('reconnectDelay', () => {
  it('doubles from one second and adds up to one second of jitter', () => {
    expect(reconnectDelay(0, () => 0)).toBe(1000);
    expect(reconnectDelay(1, () => 0)).toBe(2000);
    expect(reconnectDelay(3, () => 0.5)).toBe(8000 + 500);
    expect(reconnectDelay(2, () => 0.9999)).toBe(4000 + 1000);
  });

  it('never waits longer than 64 s', () => {
    expect(reconnectDelay(6, () => 0)).toBe(64_000);
    expect(reconnectDelay(6, () => 0.99)).toBe(64_000);
    expect(reconnectDelay(40, () => 0.5)).toBe(64_000);
  });
});
