import { describe, expect, it } from 'vitest';
import { pagedRows, withProgress } from './xlsx-export';

const run = async (rows: number, opts: { batch: number; max: number }) => {
  const source = Array.from({ length: rows }, (_, i) => i + 1);
  const reads: number[] = [];
  const progress: number[] = [];
  const added: unknown[] = [];
  const ctx = { progress: async (n: number) => void progress.push(n) };
  const batches = withProgress(
    ctx,
    pagedRows(
      opts,
      async (page, limit) => {
        reads.push(page);
        return source.slice((page - 1) * limit, page * limit);
      },
      (n) => ({ n }),
    ),
  );
  for await (const batch of batches) added.push(...batch);
  return { added: added.length, reads, progress, last: added.at(-1) };
};

describe('pagedRows counted by withProgress', () => {
  it('reads pages until a short one and reports progress after each', async () => {
    expect(await run(5, { batch: 2, max: 100 })).toEqual({ added: 5, reads: [1, 2, 3], progress: [2, 4, 5], last: { n: 5 } });
    // a full last page costs one empty read
    expect(await run(4, { batch: 2, max: 100 })).toMatchObject({ added: 4, reads: [1, 2, 3] });
    expect(await run(0, { batch: 2, max: 100 })).toMatchObject({ added: 0, reads: [1], progress: [0] });
  });

  it('writes exactly max rows: one under, at and over the cap', async () => {
    expect(await run(4, { batch: 3, max: 5 })).toMatchObject({ added: 4, last: { n: 4 } });
    expect(await run(5, { batch: 3, max: 5 })).toMatchObject({ added: 5, last: { n: 5 } });
    expect(await run(6, { batch: 3, max: 5 })).toMatchObject({ added: 5, reads: [1, 2], last: { n: 5 } });
  });
});
