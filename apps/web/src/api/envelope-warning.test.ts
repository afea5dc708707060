import { describe, expect, it } from 'vitest';
import { warningOf } from './envelope-warning';

describe('SPEC §8: data.code 1 is a warning with data.msg (issue 23)', () => {
  it('reads the warning of {code: 1, msg}', () => {
    expect(warningOf({ code: 1, msg: '合同模板未配置' })).toBe('合同模板未配置');
    expect(warningOf({ code: 1, msg: '合同模板未配置', url: '' })).toBe('合同模板未配置');
  });

  it('ignores every other data', () => {
    for (const data of [
      null,
      undefined,
      1,
      'x',
      [],
      { code: 0, msg: 'ok' },
      { code: '1', msg: 'x' },
      { code: 1 },
      { code: 1, msg: ' ' },
    ]) {
      expect(warningOf(data)).toBeNull();
    }
    // a product's code is its number, a string: not a warning
    expect(warningOf({ id: 3, code: 'QC-001', name: '云呼' })).toBeNull();
  });
});
