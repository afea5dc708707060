/** Customer template contracts: control kinds and limits, template controls and their edit bodies, submitted control values. */
import { z } from 'zod';
import { int4, zId, zUint } from './common';

/** Control kinds by dmType (SPEC §4); 99 is the group control that holds a text input plus children. */
export const DM_TYPE = {
  text: 0,
  textarea: 1,
  integer: 2,
  number: 3,
  date: 4,
  datetime: 5,
  phone: 6,
  select: 7,
  multiSelect: 8,
  address: 11,
  file: 12,
  staticText: 14,
  customCascader: 15,
  selectByText: 18,
  tags: 19,
  company: 20,
  cascader: 24,
  group: 99,
} as const;
export type DmType = (typeof DM_TYPE)[keyof typeof DM_TYPE];

export const DM_TYPE_LABEL: Record<number, string> = {
  0: '单行文本',
  1: '多行文本',
  2: '整数',
  3: '数字',
  4: '日期',
  5: '日期时间',
  6: '电话',
  7: '单选',
  8: '多选',
  11: '地址',
  12: '附件',
  14: '说明文字',
  15: '自定义级联',
  18: '下拉选择',
  19: '标签',
  20: '关联企业',
  24: '级联',
  99: '分组',
};
export const DM_TYPES: number[] = Object.values(DM_TYPE);

/** SPEC §5 limits of control values. */
export const CONTROL_LIMITS = { text: 50, textarea: 500, number: 20, phone: 20, customerName: 50 } as const;

/** Kinds whose options (dmValue) are a flat list of option texts. */
export const OPTION_KINDS: readonly number[] = [DM_TYPE.select, DM_TYPE.multiSelect, DM_TYPE.selectByText];
/** Kinds whose options are a tree ({value,label,children}). */
export const TREE_KINDS: readonly number[] = [DM_TYPE.customCascader, DM_TYPE.cascader];
/** Kinds that hold no value. */
export const VALUELESS_KINDS: readonly number[] = [DM_TYPE.staticText];
/** Kinds that can be a list filter (isSearch). */
export const SEARCHABLE_KINDS: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 15, 18, 19, 24];
/** Kinds whose value can be the isJudge duplicate check. */
export const JUDGE_KINDS: readonly number[] = [0, 2, 3, 6];

export type CascaderOption = { value: string; label: string; children?: CascaderOption[] };
const cascaderOption: z.ZodType<CascaderOption> = z
  .lazy(() =>
    z.object({
      value: z.string().min(1).max(50),
      label: z.string().trim().min(1, '选项名称不能为空').max(50),
      children: z.array(cascaderOption).max(200).optional(),
    }),
  )
  .meta({ id: 'CascaderOptionEdit' });

/** A template control as the API sends it (SPEC §3 Template control). */
export type TemplateControl = {
  cbTacid: number;
  coTacid: number;
  cmAtid: number;
  pid: number;
  name: string;
  dmType: number;
  dmDesc: string;
  /** option texts for select kinds, the text for static text, '' otherwise */
  dmValue: string[] | string;
  /** parsed options for tree kinds (ctrlList in SPEC) */
  ctrlList: CascaderOption[];
  dmMust: number;
  isJudge: number;
  isFollowShow: number;
  isSearch: number;
  sortNum: number;
  actionState: number;
  children: TemplateControl[];
};

export type TemplateInfo = { isMustName: number; cmAtid: number; templateControls: TemplateControl[] };

/** Answer schemas of the template calls (what the server sends, no input limits). */
const cascaderOptionOut: z.ZodType<CascaderOption> = z
  .lazy(() => z.object({ value: z.string(), label: z.string(), children: z.array(cascaderOptionOut).optional() }))
  .meta({ id: 'CascaderOption' });
export const templateControlSchema: z.ZodType<TemplateControl> = z
  .lazy(() =>
    z.object({
      cbTacid: z.number(),
      coTacid: z.number(),
      cmAtid: z.number(),
      pid: z.number(),
      name: z.string(),
      dmType: z.number(),
      dmDesc: z.string(),
      dmValue: z.union([z.array(z.string()), z.string()]),
      ctrlList: z.array(cascaderOptionOut),
      dmMust: z.number(),
      isJudge: z.number(),
      isFollowShow: z.number(),
      isSearch: z.number(),
      sortNum: z.number(),
      actionState: z.number(),
      children: z.array(templateControlSchema),
    }),
  )
  .meta({ id: 'TemplateControl' });
export const templateInfoSchema = z.object({
  isMustName: z.number(),
  cmAtid: z.number(),
  templateControls: z.array(templateControlSchema),
});

export const templateInfoQuery = z.object({
  isSearch: z.preprocess((v) => (v === undefined || v === '' ? 0 : Number(v)), z.number().int().min(0).max(1)),
});

const flag = () => z.union([z.literal(0), z.literal(1)]);
/** A template control's fields, without defaults: the edit call takes any subset of them. */
const controlFields = {
  pid: zUint(),
  name: z.string().trim().min(1, '请输入控件名称').max(20, '控件名称最多20个字符'),
  dmType: z
    .number()
    .int()
    .refine((v) => DM_TYPES.includes(v), '不支持的控件类型'),
  dmDesc: z.string().trim().max(50, '提示文字最多50个字符'),
  options: z.array(z.string().trim().min(1, '选项不能为空').max(50, '选项最多50个字符')).max(200),
  tree: z.array(cascaderOption).max(200),
  staticText: z.string().max(500, '说明文字最多500个字符'),
  dmMust: flag(),
  isJudge: flag(),
  isFollowShow: flag(),
  isSearch: flag(),
  sortNum: z.number().int().min(0).max(9999),
  actionState: flag(),
};

export const templateControlBody = z
  .object({
    ...controlFields,
    pid: controlFields.pid.default(0),
    dmDesc: controlFields.dmDesc.default(''),
    options: controlFields.options.default([]),
    tree: controlFields.tree.default([]),
    staticText: controlFields.staticText.default(''),
    dmMust: controlFields.dmMust.default(0),
    isJudge: controlFields.isJudge.default(0),
    isFollowShow: controlFields.isFollowShow.default(0),
    isSearch: controlFields.isSearch.default(0),
    sortNum: controlFields.sortNum.default(0),
    actionState: controlFields.actionState.default(0),
  })
  .superRefine((v, ctx) => {
    if (OPTION_KINDS.includes(v.dmType) && v.options.length === 0)
      ctx.addIssue({ code: 'custom', message: '请至少添加一个选项', path: ['options'] });
    if (OPTION_KINDS.includes(v.dmType) && new Set(v.options).size !== v.options.length)
      ctx.addIssue({ code: 'custom', message: '选项不能重复', path: ['options'] });
    if (TREE_KINDS.includes(v.dmType) && v.tree.length === 0)
      ctx.addIssue({ code: 'custom', message: '请至少添加一个级联选项', path: ['tree'] });
    if (v.isJudge === 1 && !JUDGE_KINDS.includes(v.dmType))
      ctx.addIssue({ code: 'custom', message: '只有文本、数字和电话控件可以设置查重', path: ['isJudge'] });
    if (v.dmType === DM_TYPE.group && v.pid !== 0)
      ctx.addIssue({ code: 'custom', message: '分组控件不能放在分组内', path: ['pid'] });
  });
export type TemplateControlBody = z.infer<typeof templateControlBody>;
/**
 * Editing a control changes only the fields sent (issue 11 hole 13); the server checks the rules of
 * templateControlBody on the stored control with the changes applied.
 */
export const templateControlEditBody = z.object({ cbTacid: zId(), ...z.object(controlFields).partial().shape });
export type TemplateControlEditBody = z.infer<typeof templateControlEditBody>;
export const templateSortBody = z.object({ ids: z.array(zId()).min(1).max(500) });
export const templateSetBody = z.object({ isMustName: z.union([z.literal(0), z.literal(1)]) });

/** One submitted control value (SPEC §3): dmValue is always a list of strings. */
export type SubmittedControl = {
  cbAcid?: number;
  cbTacid: number;
  dmValue: string[];
  dmValueText?: string[];
  children?: SubmittedControl[];
};
const submittedControl: z.ZodType<SubmittedControl> = z
  .lazy(() =>
    z.object({
      cbAcid: int4().optional(),
      cbTacid: zId(),
      // Generous here: the per-kind limits (50/500/20) are checked by the server with their own messages.
      dmValue: z.array(z.string().max(10_000)).max(200).default([]),
      dmValueText: z.array(z.string()).optional(),
      children: z.array(submittedControl).max(100).optional(),
    }),
  )
  .meta({ id: 'SubmittedControl' });
export const templateControlsInput = z.array(submittedControl).max(300).default([]);
