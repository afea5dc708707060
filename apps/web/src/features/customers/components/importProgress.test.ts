import { describe, expect, it } from 'vitest';
import { importProgressView } from './importProgress';

describe('importProgressView', () => {
  it('reads the file until the job knows its total: never 共 0 条', () => {
    expect(importProgressView(undefined)).toEqual({ phase: 'reading', text: '正在读取文件…' });
    expect(importProgressView({ processed: 0, total: 0 })).toEqual({ phase: 'reading', text: '正在读取文件…' });
  });

  it('then shows the rows done out of the total, from the first known total', () => {
    expect(importProgressView({ processed: 0, total: 1 })).toEqual({
      phase: 'importing',
      percent: 0,
      text: '正在导入：已处理 0 / 共 1 条',
    });
    expect(importProgressView({ processed: 2_500, total: 100_000 })).toMatchObject({
      percent: 2,
      text: '正在导入：已处理 2500 / 共 100000 条',
    });
    expect(importProgressView({ processed: 100_000, total: 100_000 })).toMatchObject({ percent: 100 });
  });
});
