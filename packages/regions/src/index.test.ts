import { describe, expect, it } from 'vitest';
import { findRegion, isValidRegionLabelPath, isValidRegionPath, REGIONS, regionLabelPath, regionPath } from './index';

describe('@crm/regions', () => {
  it('has 31 provinces, 342 cities and 3,056 districts with unique values', () => {
    expect(REGIONS).toHaveLength(31);
    const cities = REGIONS.flatMap((p) => p.children);
    const districts = cities.flatMap((c) => c.children);
    expect(cities).toHaveLength(342);
    expect(districts).toHaveLength(3056);
    const values = [...REGIONS, ...cities, ...districts].map((r) => r.value);
    expect(new Set(values).size).toBe(values.length);
    for (const v of values) expect(Number.isInteger(v) && v > 0 && v <= 2_147_483_647).toBe(true);
    for (const p of REGIONS) expect(p.parent_id).toBe(0);
  });

  it('pads codes to 6 digits and gives the root-to-node path', () => {
    const path = regionPath(110101);
    expect(path.map((r) => r.value)).toEqual([110000, 110100, 110101]);
    expect(path.map((r) => r.label)).toEqual(['北京市', '北京市', '东城区']);
    expect(regionLabelPath([110000, 110100, 110101])).toEqual(['北京市', '北京市', '东城区']);
    expect(regionPath(110000).map((r) => r.value)).toEqual([110000]);
    expect(regionPath(999999)).toEqual([]);
  });

  it('relabels 市辖区 with the province name and keeps 省直辖县级行政区划', () => {
    const all = REGIONS.flatMap((p) => [p, ...p.children, ...p.children.flatMap((c) => c.children)]);
    expect(all.some((r) => r.label === '市辖区')).toBe(false);
    expect(findRegion(310100)?.label).toBe('上海市');
    expect(findRegion(500100)?.label).toBe('重庆市');
    expect(findRegion(469000)?.label).toBe('省直辖县级行政区划');
    expect(findRegion(469000)?.parent_id).toBe(460000);
  });

  it('has children [] at the lowest level', () => {
    const leaf = findRegion(110101);
    expect(leaf?.children).toEqual([]);
    expect(leaf?.parent_id).toBe(110100);
    for (const p of REGIONS) for (const c of p.children) expect(c.children.length).toBeGreaterThan(0);
  });

  it('accepts valid paths and rejects invalid ones', () => {
    expect(isValidRegionPath([110000, 110100, 110101])).toBe(true);
    expect(isValidRegionPath([110000, 110100])).toBe(true);
    expect(isValidRegionPath([110000])).toBe(true);
    expect(isValidRegionPath([])).toBe(false);
    expect(isValidRegionPath([110100, 110101])).toBe(false); // does not start at a province
    expect(isValidRegionPath([120000, 110100, 110101])).toBe(false); // city of another province
    expect(isValidRegionPath([110000, 110101])).toBe(false); // skips the city level
    expect(isValidRegionPath([110000, 110100, 110101, 110102])).toBe(false); // too deep
    expect(isValidRegionPath([110000, 110100, 999999])).toBe(false); // unknown value
    expect(findRegion(0)).toBeUndefined();
  });

  it('accepts a path of region names (approval forms, issue 23) and rejects others', () => {
    const [p, c, d] = regionLabelPath([330000, 330100, 330106]);
    expect(isValidRegionLabelPath([p, c, d])).toBe(true);
    expect(isValidRegionLabelPath([p, c])).toBe(true);
    expect(isValidRegionLabelPath([])).toBe(false);
    expect(isValidRegionLabelPath([c, d])).toBe(false);
    expect(isValidRegionLabelPath([p, '不存在市'])).toBe(false);
    expect(isValidRegionLabelPath([p, c, d, d])).toBe(false);
  });
});
