import { describe, expect, it } from 'vitest';
import { emptyFollowMessage } from './followFormRules';

const stored = [{ cbTacid: 5, dmValue: ['A'] }];
const draft = { remark: '', hasNextFollowTime: false, controls: stored, storedControls: stored };

describe('emptyFollowMessage', () => {
  it('refuses an empty or blank remark with nothing else changed', () => {
    expect(emptyFollowMessage(draft)).toBe('请填写跟进内容');
    expect(emptyFollowMessage({ ...draft, remark: '   \n ' })).toBe('请填写跟进内容');
    expect(emptyFollowMessage({ ...draft, remark: undefined })).toBe('请填写跟进内容');
  });

  it('accepts a remark, a next appointment or a changed follow control', () => {
    expect(emptyFollowMessage({ ...draft, remark: '客户有意向' })).toBeNull();
    expect(emptyFollowMessage({ ...draft, hasNextFollowTime: true })).toBeNull();
    expect(emptyFollowMessage({ ...draft, controls: [{ cbTacid: 5, dmValue: ['B'] }] })).toBeNull();
  });
});
