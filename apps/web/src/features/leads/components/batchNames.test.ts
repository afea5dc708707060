import { describe, expect, it } from 'vitest';
import { parseNames, tooManyNames } from './batchNames';

describe('batch names', () => {
  it('takes one name a line, trimmed, without blank lines', () => {
    expect(parseNames(' 甲公司 \r\n\n乙（深圳）有限公司\r丙公司\n   \n')).toEqual(['甲公司', '乙（深圳）有限公司', '丙公司']);
    expect(parseNames('')).toEqual([]);
  });

  it('takes 10,000 names and refuses 10,001', () => {
    expect(tooManyNames(10_000)).toBeNull();
    expect(tooManyNames(10_001)).toBe('一次最多查询10000个企业，当前10001个，请删减后分批查询');
    expect(parseNames(Array.from({ length: 10_001 }, (_, i) => `企业${i}`).join('\n'))).toHaveLength(10_001);
  });
});
