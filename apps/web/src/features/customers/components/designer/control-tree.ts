import {
  type CascaderOption,
  DM_TYPE,
  OPTION_KINDS,
  type TemplateControl,
  type TemplateControlEditBody,
  TREE_KINDS,
} from '@crm/contracts';

const flag = (n: number): 0 | 1 => (n === 1 ? 1 : 0);

/** The edit body that saves a control as it is (state toggles change one field of it). */
export const bodyOf = (c: TemplateControl): Required<TemplateControlEditBody> => ({
  cbTacid: c.cbTacid,
  pid: c.pid,
  name: c.name,
  dmType: c.dmType,
  dmDesc: c.dmDesc ?? '',
  options: OPTION_KINDS.includes(c.dmType) && Array.isArray(c.dmValue) ? c.dmValue : [],
  tree: TREE_KINDS.includes(c.dmType) ? (c.ctrlList ?? []) : [],
  staticText: c.dmType === DM_TYPE.staticText && typeof c.dmValue === 'string' ? c.dmValue : '',
  dmMust: flag(c.dmMust),
  isJudge: flag(c.isJudge),
  isFollowShow: flag(c.isFollowShow),
  isSearch: flag(c.isSearch),
  sortNum: c.sortNum,
  actionState: flag(c.actionState),
});

/** Every id in display order: each top-level control followed by its children. */
export const flatIds = (controls: TemplateControl[]): number[] =>
  controls.flatMap((c) => [c.cbTacid, ...(c.children ?? []).map((x) => x.cbTacid)]);

/** The siblings of a control (top level or its group's children). */
export const siblingsOf = (controls: TemplateControl[], c: TemplateControl): TemplateControl[] =>
  c.pid === 0 ? controls : (controls.find((g) => g.cbTacid === c.pid)?.children ?? []);

/** The whole order after moving `c` one step up (-1) or down (+1) among its siblings, or null at an end. */
export const movedOrder = (controls: TemplateControl[], c: TemplateControl, step: -1 | 1): number[] | null => {
  const siblings = siblingsOf(controls, c);
  const from = siblings.findIndex((s) => s.cbTacid === c.cbTacid);
  const to = from + step;
  if (from < 0 || to < 0 || to >= siblings.length) return null;
  const swap = <T>(list: T[]) => {
    const next = [...list];
    [next[from], next[to]] = [next[to], next[from]];
    return next;
  };
  const reordered =
    c.pid === 0 ? swap(controls) : controls.map((g) => (g.cbTacid === c.pid ? { ...g, children: swap(g.children ?? []) } : g));
  return flatIds(reordered);
};

/** The controls sorted as `ids` says (for showing a new order before the server confirms it). */
export const sortedByIds = (controls: TemplateControl[], ids: number[]): TemplateControl[] => {
  const rank = new Map(ids.map((id, i) => [id, i]));
  const byRank = (a: TemplateControl, b: TemplateControl) =>
    (rank.get(a.cbTacid) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.cbTacid) ?? Number.MAX_SAFE_INTEGER);
  return [...controls].sort(byRank).map((c) => ({ ...c, children: [...(c.children ?? [])].sort(byRank) }));
};

/** A sortNum that puts a new control after its future siblings (server range 0–9999). */
export const nextSortNum = (siblings: TemplateControl[]): number =>
  Math.min(9999, siblings.reduce((max, s) => Math.max(max, s.sortNum), 0) + 10);

/** Every value used in a tree of options. */
export const treeValues = (tree: CascaderOption[]): string[] => tree.flatMap((o) => [o.value, ...treeValues(o.children ?? [])]);

/** The first problem of a tree of cascader options, or null (server: label 1–50, value 1–50, at most 200 per level). */
export const treeProblem = (tree: CascaderOption[]): string | null => {
  if (tree.length === 0) return '请至少添加一个级联选项';
  const check = (level: CascaderOption[]): string | null => {
    if (level.length > 200) return '每一级最多200个选项';
    const labels = new Set<string>();
    const values = new Set<string>();
    for (const o of level) {
      const label = o.label.trim();
      if (!label) return '选项名称不能为空';
      if (label.length > 50) return '选项名称最多50个字符';
      if (labels.has(label)) return `同一级的选项名称不能重复：${label}`;
      labels.add(label);
      if (o.value.length > 50) return '选项值最多50个字符';
      if (o.value && values.has(o.value)) return `同一级的选项值不能重复：${o.value}`;
      values.add(o.value);
      const inner = check(o.children ?? []);
      if (inner) return inner;
    }
    return null;
  };
  return check(tree);
};

/** The tree as saved: labels trimmed, missing values generated, empty children dropped. */
export const finishTree = (tree: CascaderOption[]): CascaderOption[] => {
  let next = Math.max(0, ...treeValues(tree).map((v) => (/^\d+$/.test(v) ? Number(v) : 0)));
  const walk = (level: CascaderOption[]): CascaderOption[] =>
    level.map((o) => {
      const children = walk(o.children ?? []);
      const value = o.value.trim() || String(++next);
      return children.length ? { value, label: o.label.trim(), children } : { value, label: o.label.trim() };
    });
  return walk(tree);
};
