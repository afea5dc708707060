import type { SipInfo } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { type DialContext, extensionRefusal, formatTalkTime, hangupRefusal, numberRefusal } from './dialRules';

const sip = { cmSipid: 1, cmDeid: 0, user: '8001' } as SipInfo;
const ctx = (over: Partial<DialContext>): DialContext => ({
  callStatus: 1,
  merchantType: 1,
  sip,
  registerStatus: 1,
  ...over,
});

describe('extensionRefusal', () => {
  it('refuses a second dial while a call is ringing or talking', () => {
    expect(extensionRefusal(ctx({ callStatus: 2 }))).toBe('通话中请勿重复拨打');
    expect(extensionRefusal(ctx({ callStatus: 3 }))).toBe('通话中请勿重复拨打');
  });

  it('needs a default extension', () => {
    expect(extensionRefusal(ctx({ sip: null }))).toBe('暂无默认分机');
  });

  it('needs a registered extension for normal accounts', () => {
    expect(extensionRefusal(ctx({ registerStatus: 0 }))).toBe('分机未在线');
    expect(extensionRefusal(ctx({ registerStatus: 0 }), true)).toBe('请点击分机在线');
    expect(extensionRefusal(ctx({ registerStatus: 3 }), true)).toBe('分机注册中');
    expect(extensionRefusal(ctx({ registerStatus: 1 }))).toBeNull();
  });

  it('needs a bound device for merchant accounts, whatever the registration', () => {
    expect(extensionRefusal(ctx({ merchantType: 2, registerStatus: 0 }))).toBe('分机未绑定设备');
    expect(extensionRefusal(ctx({ merchantType: 2, registerStatus: 0, sip: { ...sip, cmDeid: 3 } }))).toBeNull();
  });
});

describe('numberRefusal', () => {
  it('accepts 4 to 20 digits', () => {
    expect(numberRefusal('123')).toBe('请正确输入电话号码');
    expect(numberRefusal('1234')).toBeNull();
    expect(numberRefusal('1'.repeat(20))).toBeNull();
    expect(numberRefusal('1'.repeat(21))).toBe('请正确输入电话号码');
  });

  it('counts digits as the server does, not characters', () => {
    expect(numberRefusal('abcd')).toBe('请正确输入电话号码');
    expect(numberRefusal('010-1234')).toBeNull();
  });

  it('skips the length rule for task calls', () => {
    expect(numberRefusal('12', 5)).toBeNull();
  });
});

describe('hangupRefusal', () => {
  it('counts the seconds left of the first two', () => {
    expect(hangupRefusal(10_000, 10_100)).toBe('2s 后进行挂断');
    expect(hangupRefusal(10_000, 11_500)).toBe('1s 后进行挂断');
    expect(hangupRefusal(10_000, 12_000)).toBeNull();
  });
});

describe('formatTalkTime', () => {
  it('shows mm:ss, and hours past an hour', () => {
    expect(formatTalkTime(0)).toBe('00:00');
    expect(formatTalkTime(65)).toBe('01:05');
    expect(formatTalkTime(3725)).toBe('01:02:05');
  });
});
