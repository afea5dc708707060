import { describe, expect, it } from 'vitest';
import { dialNumberRefusal, hangupRefusal, hangupWaitSeconds, requiredControlMessage } from './rules';

describe('dialNumberRefusal (SPEC §5)', () => {
  it('accepts 4 to 20 digits, both edges', () => {
    expect(dialNumberRefusal('123')).toBe('请正确输入电话号码');
    expect(dialNumberRefusal('1234')).toBeNull();
    expect(dialNumberRefusal('1'.repeat(20))).toBeNull();
    expect(dialNumberRefusal('1'.repeat(21))).toBe('请正确输入电话号码');
  });

  it('counts digits, not characters', () => {
    expect(dialNumberRefusal('abcd')).toBe('请正确输入电话号码');
    expect(dialNumberRefusal(' 1-2 ')).toBe('请正确输入电话号码');
    expect(dialNumberRefusal('010-1234')).toBeNull();
  });

  it('skips the length rule for task calls, but not the need for a digit', () => {
    expect(dialNumberRefusal('12', true)).toBeNull();
    expect(dialNumberRefusal('', true)).toBe('请正确输入电话号码');
  });
});

describe('hang-up countdown (SPEC §5)', () => {
  it('counts the whole seconds left of the first two, both edges', () => {
    expect(hangupWaitSeconds(10_000, 10_000)).toBe(2);
    expect(hangupWaitSeconds(10_000, 10_001)).toBe(2);
    expect(hangupWaitSeconds(10_000, 11_000)).toBe(1);
    expect(hangupWaitSeconds(10_000, 11_999)).toBe(1);
    expect(hangupWaitSeconds(10_000, 12_000)).toBe(0);
    expect(hangupRefusal(10_000, 10_100)).toBe('2s 后进行挂断');
    expect(hangupRefusal(10_000, 11_500)).toBe('1s 后进行挂断');
    expect(hangupRefusal(10_000, 12_000)).toBeNull();
  });
});

describe('requiredControlMessage (SPEC §5)', () => {
  it('words the message by kind', () => {
    expect(requiredControlMessage({ name: '生日', dmType: 4 })).toBe('请选择日期');
    expect(requiredControlMessage({ name: '合同', dmType: 12 })).toBe('请上传合同');
    expect(requiredControlMessage({ name: '行业', dmType: 7 })).toBe('请选择行业');
    expect(requiredControlMessage({ name: '备注', dmType: 0 })).toBe('备注不能为空');
  });
});
