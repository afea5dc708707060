import { CASCADER_PATH_SEPARATOR } from '@crm/contracts';
import { REGIONS, type Region } from '@crm/regions';

/** An option of an approval form's cascader: its value is its label, so an answer reads as it is stored. */
export type PathOption = { value: string; label: string; children?: PathOption[] };

/** The options tree of a kind-24 cascader from its option paths ('华东/上海', '华东/杭州' → 华东 › 上海, 杭州). */
export const optionsOfPaths = (paths: readonly string[]): PathOption[] => {
  const root: PathOption[] = [];
  for (const path of paths) {
    let level = root;
    const levels = path
      .split(CASCADER_PATH_SEPARATOR)
      .map((s) => s.trim())
      .filter(Boolean);
    levels.forEach((label, i) => {
      let node = level.find((o) => o.label === label);
      if (!node) {
        node = { value: label, label };
        level.push(node);
      }
      if (i < levels.length - 1) {
        node.children ??= [];
        level = node.children;
      }
    });
  }
  return root;
};

const toLabelOptions = (nodes: Region[]): PathOption[] =>
  nodes.map((r) => ({
    value: r.label,
    label: r.label,
    ...(r.children.length > 0 ? { children: toLabelOptions(r.children) } : {}),
  }));

let regionOptions: PathOption[] | undefined;
/** The SPEC §1 region tree with the names as values (a kind-11 answer is its path of names), built once. */
export const regionLabelOptions = (): PathOption[] => {
  regionOptions ??= toLabelOptions(REGIONS);
  return regionOptions;
};
