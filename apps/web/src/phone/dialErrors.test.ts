import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http';
import { showDialError } from './dialErrors';

// How a refused dial reaches the agent: the calling rules (issue 15) in a dialog with the server's words.

const uiOf = () => {
  const warning = vi.fn();
  const error = vi.fn();
  const confirm = vi.fn();
  const ui = { message: { error }, modal: { warning, confirm } } as unknown as Parameters<typeof showDialError>[1];
  return { ui, warning, error };
};

describe('showDialError', () => {
  it('shows 禁拨, hours and caps refusals in a dialog with the server message', () => {
    for (const [code, msg] of [
      [115001, '该号码已在禁拨名单中（客户拒绝来电），不能拨打'],
      [115002, '该号码5分钟内已呼叫3次，请于10:05:00后再拨'],
      [115003, '该号码24小时内已呼叫5次，请于2026-12-11 09:00:00后再拨'],
      [110024, '当前不在允许外呼的时段（08:00–21:00），请稍后再拨'],
    ] as const) {
      const { ui, warning, error } = uiOf();
      showDialError(new ApiError(msg, code), ui, null);
      expect(warning).toHaveBeenCalledWith({ title: '无法拨打', content: msg, okText: '知道了' });
      expect(error).not.toHaveBeenCalled();
    }
  });

  it('shows other refusals as a message', () => {
    const { ui, warning, error } = uiOf();
    showDialError(new ApiError('请正确输入电话号码', 110001), ui, null);
    expect(error).toHaveBeenCalledWith('请正确输入电话号码');
    expect(warning).not.toHaveBeenCalled();
  });
});
