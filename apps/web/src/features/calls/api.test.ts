import { describe, expect, it } from 'vitest';
import { billsecText } from './api';

describe('billsecText', () => {
  it('reads as hours, minutes and seconds', () => {
    expect(billsecText(0)).toBe('0秒');
    expect(billsecText(45)).toBe('45秒');
    expect(billsecText(65)).toBe('1分5秒');
    expect(billsecText(3605)).toBe('1时0分5秒');
  });
});
