import { describe, expect, it } from 'vitest';
import { describeFilters, rangeProblem, toFilterValues, toLeadFilters } from './leadFilters';

describe('lead filters', () => {
  it('sends the deepest region, the checked contacts and nothing for empty fields', () => {
    expect(
      toLeadFilters({
        region: [440000, 440100, 440106],
        industryCode: '65',
        capitalMin: 100,
        capitalMax: null,
        statuses: [3, 1],
        contact: ['mobile'],
        scopeKeyword: '  软件 ',
        keyword: '   ',
      }),
    ).toEqual({
      regionCode: 440106,
      industryCode: '65',
      capitalMin: 100,
      statuses: [1, 3],
      hasMobile: true,
      scopeKeyword: '软件',
    });
    expect(toLeadFilters({})).toEqual({});
  });

  it('reads a template back into the form (region path from its code)', () => {
    const values = toFilterValues({ regionCode: 440100, capitalMin: 0, hasPhone: true, foundedFrom: 2010 });
    expect(values.region).toEqual([440000, 440100]);
    expect(values.contact).toEqual(['phone']);
    expect(toLeadFilters(values)).toEqual({ regionCode: 440100, capitalMin: 0, hasPhone: true, foundedFrom: 2010 });
  });

  it('refuses a range whose start is after its end, and takes equal edges', () => {
    expect(rangeProblem({ capitalMin: 101, capitalMax: 100 })).toBe('注册资本的最小值不能大于最大值');
    expect(rangeProblem({ capitalMin: 100, capitalMax: 100 })).toBeNull();
    expect(rangeProblem({ foundedFrom: 2021, foundedTo: 2020 })).toBe('成立年份的起始年不能晚于结束年');
    expect(rangeProblem({ foundedFrom: 2020, foundedTo: 2020 })).toBeNull();
  });

  it('describes a template in words', () => {
    expect(describeFilters({ regionCode: 440000, industryCode: '65', capitalMin: 100, statuses: [1] })).toEqual([
      '广东省',
      '软件和信息技术服务业',
      '注册资本 ≥ 100万',
      '存续',
    ]);
  });
});
