import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dialBody } from './calls';
import { INT4_MAX, INT4_MIN, int4, isStorableText, qId, zId, zText, zUint } from './common';

/** Issue 11 hole 7: the building blocks every contract uses for what reaches PostgreSQL. */

describe('int4 building blocks', () => {
  it('zId takes 1 … 2^31-1 and refuses 0, 2^31 and fractions', () => {
    expect(zId().safeParse(1).success).toBe(true);
    expect(zId().safeParse(INT4_MAX).success).toBe(true);
    expect(zId().safeParse(INT4_MAX + 1).success).toBe(false);
    expect(zId().safeParse(0).success).toBe(false);
    expect(zId().safeParse(1.5).success).toBe(false);
  });
  it('zUint takes 0 … 2^31-1; int4 takes -2^31 … 2^31-1', () => {
    expect(zUint().safeParse(0).success).toBe(true);
    expect(zUint().safeParse(-1).success).toBe(false);
    expect(zUint().safeParse(INT4_MAX + 1).success).toBe(false);
    expect(int4().safeParse(INT4_MIN).success).toBe(true);
    expect(int4().safeParse(INT4_MIN - 1).success).toBe(false);
    expect(int4().safeParse(INT4_MAX).success).toBe(true);
  });
  it('qId coerces a query string and keeps the bounds', () => {
    expect(qId().parse('2147483647')).toBe(INT4_MAX);
    expect(qId().safeParse('2147483648').success).toBe(false);
    expect(qId().safeParse('1e400').success).toBe(false);
  });
});

describe('storable text', () => {
  it('refuses NUL and lone surrogates, keeps pairs', () => {
    for (const bad of ['\u0000', 'a\u0000', '\ud800', 'x\udfff', '\udc00\ud800']) expect(isStorableText(bad), bad).toBe(false);
    for (const good of ['', '客户', '😀', 'a\ud83d\ude00b']) expect(isStorableText(good), good).toBe(true);
    expect(zText().safeParse('a\u0000').error?.issues[0]?.message).toBe('内容包含无法保存的字符');
  });
  it('a dial frame of the call socket refuses a number with NUL', () => {
    expect(dialBody.safeParse({ dstNumber: '1380013800\u0000' }).success).toBe(false);
    expect(dialBody.safeParse({ dstNumber: '13800138000' }).success).toBe(true);
  });
});

describe('Chinese messages for zod checks', () => {
  const s = z.object({ limit: z.number().max(200), name: z.string().min(1).max(3), ids: z.array(z.number()).min(1) });
  const messages = (v: unknown) => s.safeParse(v).error?.issues.map((i) => i.message);
  it('names the field and the limit', () => {
    expect(messages({ limit: 201, name: 'abcd', ids: [] })).toEqual([
      '参数 limit 不能大于200',
      '参数 name 最多3个字符',
      '参数 ids 不能为空',
    ]);
    expect(messages({ limit: 'x', name: '', ids: [1] })).toEqual(['参数 limit 类型错误，应为数字', '参数 name 不能为空']);
    expect(messages({ name: 'a', ids: [1] })).toEqual(['参数 limit 缺少必填项']);
  });
  it('a message written in the contract wins', () => {
    expect(z.string().max(2, '最多2个字').safeParse('abc').error?.issues[0]?.message).toBe('最多2个字');
  });
});
