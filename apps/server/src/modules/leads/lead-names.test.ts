import { describe, expect, it } from 'vitest';
import { coreName, nameGrams, nameScore, normalizeName, queryGrams } from './lead-names';

describe('company names', () => {
  it('full- and half-width brackets, spaces and 有限责任公司/有限公司 read the same', () => {
    const a = normalizeName('华信（深圳）科技有限责任公司');
    expect(a).toBe('华信(深圳)科技有限公司');
    expect(normalizeName('华信(深圳)科技有限公司')).toBe(a);
    expect(normalizeName(' 华信 【深圳】科技 有限公司。')).toBe(a);
    expect(normalizeName('ABC贸易有限公司')).toBe('abc贸易有限公司');
  });

  it('股份有限公司 stays a different form from 有限公司', () => {
    expect(normalizeName('华信股份有限公司')).not.toBe(normalizeName('华信有限公司'));
  });

  it('grams: distinct 2-character pieces; a lookup leaves 有限公司 and brackets out', () => {
    expect(nameGrams('华信华信')).toEqual(['华信', '信华']);
    expect(nameGrams('华')).toEqual([]);
    expect(queryGrams(normalizeName('华信（深圳）有限公司'))).toEqual(['华信', '深圳']);
    expect(queryGrams(normalizeName('有限公司'))).toEqual([]);
  });

  it('score: 100 for the same normalized name, lower as names part, 0 with nothing shared', () => {
    const n = normalizeName;
    expect(nameScore(n('华信科技有限公司'), n('华信科技有限责任公司'))).toBe(100);
    const near = nameScore(n('深圳华信科技有限公司'), n('深圳市华信科技有限公司'));
    expect(near).toBeGreaterThanOrEqual(80);
    expect(near).toBeLessThan(100);
    expect(nameScore(n('华信'), n('腾达'))).toBe(0);
  });

  it('the core name drops the leading province or city, written with or without 市', () => {
    expect(coreName(normalizeName('深圳市华信科技有限公司'))).toBe('华信科技');
    expect(coreName(normalizeName('深圳华信科技有限公司'))).toBe('华信科技');
    expect(coreName(normalizeName('广东省深圳市华信科技有限公司'))).toBe('华信科技');
    expect(coreName(normalizeName('华信科技股份有限公司'))).toBe('华信科技');
  });
});
