/** The control form's values: from a control (or the defaults of a new one), to the saved body, and to the live preview's draft control. */
import {
  DM_TYPE,
  JUDGE_KINDS,
  OPTION_KINDS,
  SEARCHABLE_KINDS,
  type TemplateControl,
  type TemplateControlBody,
  TREE_KINDS,
} from '@crm/contracts';
import { enabledControls } from '../../../../components/TemplateForm';
import { bodyOf, finishTree, nextSortNum } from './control-tree';
import { type EditorOption, withUids } from './TreeOptionsEditor';

export type ControlFormTarget = { mode: 'create'; pid?: number } | { mode: 'edit'; control: TemplateControl };

export type Values = {
  name: string;
  dmType: number;
  pid: number;
  dmDesc: string;
  options: string[];
  tree: EditorOption[];
  staticText: string;
  dmMust: boolean;
  isJudge: boolean;
  isFollowShow: boolean;
  isSearch: boolean;
  actionState: 0 | 1;
  sortNum: number;
};

const yes = (b: boolean): 0 | 1 => (b ? 1 : 0);

export const initialOf = (target: ControlFormTarget | null, controls: TemplateControl[]): Partial<Values> => {
  if (target?.mode === 'edit') {
    const c = target.control;
    const body = bodyOf(c);
    return {
      name: c.name,
      dmType: c.dmType,
      pid: c.pid,
      dmDesc: c.dmDesc,
      options: body.options,
      tree: withUids(body.tree),
      staticText: body.staticText,
      dmMust: c.dmMust === 1,
      isJudge: c.isJudge === 1,
      isFollowShow: c.isFollowShow === 1,
      isSearch: c.isSearch === 1,
      actionState: body.actionState,
      sortNum: c.sortNum,
    };
  }
  const pid = target?.pid ?? 0;
  const siblings = pid === 0 ? controls : (controls.find((g) => g.cbTacid === pid)?.children ?? []);
  return {
    dmType: DM_TYPE.text,
    pid,
    dmDesc: '',
    options: ['', ''],
    tree: [],
    staticText: '',
    dmMust: false,
    isJudge: false,
    isFollowShow: false,
    isSearch: false,
    actionState: 0,
    sortNum: nextSortNum(siblings),
  };
};

/** The values as the body of control/add or control/edit: what the kind cannot have is left out. */
export const bodyOfValues = (v: Values): TemplateControlBody => {
  const isStatic = v.dmType === DM_TYPE.staticText;
  return {
    pid: v.dmType === DM_TYPE.group ? 0 : (v.pid ?? 0),
    name: v.name.trim(),
    dmType: v.dmType,
    dmDesc: isStatic ? '' : (v.dmDesc ?? '').trim(),
    options: OPTION_KINDS.includes(v.dmType) ? v.options.map((o) => o.trim()) : [],
    tree: TREE_KINDS.includes(v.dmType) ? finishTree(v.tree ?? []) : [],
    staticText: v.dmType === DM_TYPE.staticText ? (v.staticText ?? '') : '',
    dmMust: isStatic ? 0 : yes(v.dmMust),
    isJudge: JUDGE_KINDS.includes(v.dmType) ? yes(v.isJudge) : 0,
    isFollowShow: yes(v.isFollowShow),
    isSearch: SEARCHABLE_KINDS.includes(v.dmType) ? yes(v.isSearch) : 0,
    sortNum: v.sortNum ?? 0,
    actionState: v.actionState ?? 0,
  };
};

const sampleChild: TemplateControl = {
  cbTacid: -2,
  coTacid: -2,
  cmAtid: 0,
  pid: -1,
  name: '子控件',
  dmType: DM_TYPE.text,
  dmDesc: '分组内的控件显示在这里',
  dmValue: '',
  ctrlList: [],
  dmMust: 0,
  isJudge: 0,
  isFollowShow: 0,
  isSearch: 0,
  sortNum: 0,
  actionState: 0,
  children: [],
};

/** The values as the control they would save, for the live preview of the control being edited. */
export const draftOf = (v: Partial<Values>, editing: TemplateControl | null): TemplateControl => {
  const dmType = v.dmType ?? DM_TYPE.text;
  return {
    cbTacid: editing?.cbTacid ?? -1,
    coTacid: editing?.coTacid ?? -1,
    cmAtid: editing?.cmAtid ?? 0,
    pid: 0,
    name: v.name?.trim() || '未命名控件',
    dmType,
    dmDesc: v.dmDesc ?? '',
    dmValue: OPTION_KINDS.includes(dmType)
      ? [...new Set((v.options ?? []).map((o) => o?.trim()).filter(Boolean))]
      : dmType === DM_TYPE.staticText
        ? (v.staticText ?? '')
        : '',
    ctrlList: TREE_KINDS.includes(dmType) ? finishTree((v.tree ?? []).filter((o) => o.label.trim())) : [],
    dmMust: v.dmMust ? 1 : 0,
    isJudge: 0,
    isFollowShow: 0,
    isSearch: 0,
    sortNum: 0,
    actionState: 0,
    // A group previews with a sample child so its bordered block shows.
    children:
      dmType === DM_TYPE.group
        ? enabledControls(editing?.children ?? []).length > 0
          ? enabledControls(editing?.children ?? [])
          : [{ ...sampleChild, pid: editing?.cbTacid ?? -1 }]
        : [],
  };
};
