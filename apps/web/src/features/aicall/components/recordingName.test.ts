import { describe, expect, it } from 'vitest';
import { recordingFileName } from './AiCallDetailModal';

describe('the AI call recording’s download name', () => {
  it('names the number and the start time', () => {
    expect(recordingFileName({ phone: '13800138000', call_starttime: '2026-11-25 09:05:07' })).toBe(
      'AI通话录音_13800138000_20261125_090507.wav',
    );
  });
  it('a masked number keeps its shape without the asterisks a file name should not hold', () => {
    expect(recordingFileName({ phone: '138****8000', call_starttime: '2026-01-01 00:00:00' })).toBe(
      'AI通话录音_138xxxx8000_20260101_000000.wav',
    );
  });
});
