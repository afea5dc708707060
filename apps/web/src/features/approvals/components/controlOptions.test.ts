import { describe, expect, it } from 'vitest';
import { optionsOfPaths, regionLabelOptions } from './controlOptions';

describe('approval form cascaders (issue 23, SPEC §4 kinds 11 and 24)', () => {
  it('builds a kind-24 tree from option paths, levels trimmed, shared prefixes merged', () => {
    expect(optionsOfPaths(['华东/上海', ' 华东 / 杭州 ', '华南'])).toEqual([
      {
        value: '华东',
        label: '华东',
        children: [
          { value: '上海', label: '上海' },
          { value: '杭州', label: '杭州' },
        ],
      },
      { value: '华南', label: '华南' },
    ]);
  });

  it('offers the region tree by names, leaves without children', () => {
    const zj = regionLabelOptions().find((o) => o.label === '浙江省');
    const hz = zj?.children?.find((o) => o.label === '杭州市');
    expect(hz?.children?.find((o) => o.label === '西湖区')).toEqual({ value: '西湖区', label: '西湖区' });
    expect(regionLabelOptions()).toBe(regionLabelOptions());
  });
});
