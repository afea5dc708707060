import { describe, expect, it } from 'vitest';
import { creditCodeProblem } from './components/AccountPanel';

// 91350100M000100Y43: a published sample code whose last character is its checksum
describe('统一社会信用代码 in the account form', () => {
  it('accepts a valid code, typed in lower case too', () => {
    expect(creditCodeProblem('91350100M000100Y43')).toBeNull();
    expect(creditCodeProblem(' 91350100m000100y43 ')).toBeNull();
  });
  it('names what is wrong: empty, length at both edges, letters the code does not use, the check character', () => {
    expect(creditCodeProblem('')).toBe('请输入统一社会信用代码');
    expect(creditCodeProblem('91350100M000100Y4')).toBe('统一社会信用代码应为18位');
    expect(creditCodeProblem('91350100M000100Y433')).toBe('统一社会信用代码应为18位');
    expect(creditCodeProblem('91350100I000100Y43')).toBe('统一社会信用代码只能包含数字和大写字母（不含I、O、S、V、Z）');
    expect(creditCodeProblem('91350100M000100Y44')).toBe('统一社会信用代码校验位不正确，请核对');
  });
});
