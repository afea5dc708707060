import { z } from 'zod';
import { pageQuery, qId, zId, zText, zUint } from './common';

/**
 * Approval engine (issue 13, SPEC §3 Approval node, §4, §7 templatelist/templateinfo/templatecreate).
 * Generic over document types: orders use it first (doc type 'order').
 */
export const APPROVAL_DOC_TYPES = ['order'] as const;
export type ApprovalDocType = (typeof APPROVAL_DOC_TYPES)[number];

/** SPEC §4: node type 0 approver, any other value a CC (抄送) recipient. */
export const NODE_TYPE = { approver: 0, cc: 1 } as const;
export const NODE_TYPE_LABEL: Record<number, string> = { 0: '审批人', 1: '抄送人' };
/** How several approvers of one node decide: 1 或签 (first approval advances), 2 会签 (all must approve). */
export const NODE_MODE = { any: 1, all: 2 } as const;
export const NODE_MODE_LABEL: Record<number, string> = { 1: '或签', 2: '会签' };

/** verify_status of an instance and of its document (SPEC §4 plus 3 withdrawn); -1 = 待提交 (no instance yet). */
export const VERIFY_STATUS = { draft: -1, pending: 0, approved: 1, rejected: 2, withdrawn: 3 } as const;
export const VERIFY_STATUS_LABEL: Record<number, string> = {
  [-1]: '待提交',
  0: '待审核',
  1: '已通过',
  2: '已驳回',
  3: '已撤回',
};

/** A staff's state on a node (SPEC §3 staff.actionState): 0 waiting, 1 approved, 2 rejected, 3 CC received, 4 not reached/skipped. */
export const STEP_STATE = { waiting: 0, approved: 1, rejected: 2, cc: 3, idle: 4 } as const;
export const STEP_STATE_LABEL: Record<number, string> = { 0: '审批中', 1: '已同意', 2: '已驳回', 3: '已抄送', 4: '未开始' };

export const APPROVAL_LIMITS = {
  /** SPEC §5/§9: staff per node */
  staffPerNode: 3,
  nodes: 10,
  controls: 20,
  name: 30,
  remark: 500,
  controlText: 30,
  /** SPEC §5 deal form: integer, number and phone inputs take 20 characters, other inputs 30 (textarea: remark) */
  numberInput: 20,
} as const;

/** The control kind that holds the document's id (SPEC §4 dmType 17: hidden link to order id). */
export const DOC_LINK_DM_TYPE = 17;
/** Control kinds an approval template may hold (SPEC §4 "phone/order forms"). */
export const APPROVAL_CONTROL_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 17, 24] as const;
/** Separates the levels of a kind-24 cascader's option paths ('华东/上海') and answers. */
export const CASCADER_PATH_SEPARATOR = '/';
const normalisePath = (path: string) =>
  path
    .split(CASCADER_PATH_SEPARATOR)
    .map((level) => level.trim())
    .filter(Boolean)
    .join(CASCADER_PATH_SEPARATOR);

// ---------- templates ----------

export const approvalStaffSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** 1 when the submitter added him on a free node */
  freeAdd: z.number(),
  actionState: z.number(),
  /** unix seconds of his action, 0 none */
  actionTime: z.number(),
  remarks: z.string(),
});
export type ApprovalStaff = z.infer<typeof approvalStaffSchema>;
/** A node (SPEC §3): type 0 approver / CC, preset staff (staffS) or free (the submitter picks up to 3). */
export const approvalNodeSchema = z.object({
  nodeId: z.number(),
  name: z.string(),
  type: z.number(),
  mode: z.number(),
  /** 1 no preset staff: the submitter adds them */
  free: z.number(),
  staffS: z.array(approvalStaffSchema),
});
export type ApprovalNode = z.infer<typeof approvalNodeSchema>;

export const approvalControlSchema = z.object({
  coTacid: z.number(),
  name: z.string(),
  dmType: z.number(),
  dmDesc: z.string(),
  /** options of select kinds */
  dmValue: z.array(z.string()),
  dmMust: z.number(),
});
export type ApprovalControl = z.infer<typeof approvalControlSchema>;

/** templatelist row / templateinfo (coMatid = template id). */
export const approvalTemplateSchema = z.object({
  coMatid: z.number(),
  name: z.string(),
  isOrder: z.number(),
  actionState: z.number(),
  version: z.number(),
  templateControls: z.array(approvalControlSchema),
  nodes: z.array(approvalNodeSchema),
  updated_at: z.string(),
});
export type ApprovalTemplate = z.infer<typeof approvalTemplateSchema>;

/** GET templatelist ?isAll (1: disabled ones too, admin) &isOrder (1: order templates only). */
export const templateListQuery = z.object({
  isAll: z.coerce.number().int().min(0).max(1).default(0),
  isOrder: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(0).max(3).optional()),
});
export const approvalTemplateInfoQuery = z.object({ id: qId() });

const text = (what: string, max: number) => zText().trim().min(1, `请输入${what}`).max(max, `${what}最多${max}个字符`);
export const templateNodeInput = z.object({
  name: zText().trim().max(APPROVAL_LIMITS.name).default(''),
  type: z.union([z.literal(0), z.literal(1)]),
  mode: z.union([z.literal(1), z.literal(2)]).default(1),
  /** preset staff; empty = a free node */
  staffIds: z.array(zId()).max(APPROVAL_LIMITS.staffPerNode, `最多选择${APPROVAL_LIMITS.staffPerNode}名！`).default([]),
});
export const templateControlInput = z
  .object({
    name: text('控件名称', APPROVAL_LIMITS.name),
    dmType: z
      .number()
      .int()
      .refine((v) => (APPROVAL_CONTROL_TYPES as readonly number[]).includes(v), '控件类型不正确'),
    dmDesc: zText().max(APPROVAL_LIMITS.controlText).default(''),
    dmValue: z.array(zText().trim().min(1).max(APPROVAL_LIMITS.controlText)).max(50).default([]),
    dmMust: z.union([z.literal(0), z.literal(1)]).default(0),
  })
  // kind 24 options are paths: their levels trimmed, empty levels dropped ('华东 / 上海' → '华东/上海')
  .transform((c) => (c.dmType === 24 ? { ...c, dmValue: [...new Set(c.dmValue.map(normalisePath).filter(Boolean))] } : c))
  .refine((c) => c.dmType !== 24 || c.dmValue.length > 0, {
    message: '请为级联选择添加选项（用 / 分级，如 华东/上海）',
    path: ['dmValue'],
  });
export const templateSaveBody = z.object({
  name: text('审批流程名称', APPROVAL_LIMITS.name),
  /** 1 order flows, 2 receipt flows (issue 14), 3 seal-use flows (用印审批, issue 26), 0 other */
  isOrder: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).default(1),
  actionState: z.union([z.literal(0), z.literal(1)]).default(0),
  controls: z.array(templateControlInput).max(APPROVAL_LIMITS.controls).default([]),
  nodes: z.array(templateNodeInput).min(1, '请至少添加一个审批节点').max(APPROVAL_LIMITS.nodes),
});
export type TemplateSaveBody = z.infer<typeof templateSaveBody>;
export const templateEditBody = templateSaveBody.extend({ coMatid: zId() });
export type TemplateEditBody = z.infer<typeof templateEditBody>;
export const templateDelBody = z.object({ coMatid: zId() });

// ---------- starting and acting ----------

/** SPEC §3 staff-create payload: a submitted control value. */
export const submittedApprovalControl = z.object({
  coAcid: zUint().optional(),
  coTacid: zId(),
  dmValue: z.array(zText().max(500)).max(50).default([]),
  children: z.array(z.unknown()).max(0).optional(),
});
/** The staff the submitter picked for a free node. */
export const staffApproveNodeInput = z.object({
  nodeId: zId(),
  staffS: z
    .array(z.object({ id: zId() }))
    .max(APPROVAL_LIMITS.staffPerNode, `最多选择${APPROVAL_LIMITS.staffPerNode}名！`)
    .default([]),
});
/**
 * POST api/v1/staff/templatecreate (SPEC §7): isSave 2 submits; the document's id travels in the
 * template's dmType 17 control (an order template always has one).
 */
export const templateCreateBody = z.object({
  isSave: z.union([z.literal(1), z.literal(2)]).default(2),
  coMatid: z.number({ message: '请选择审批流程' }).int().positive('请选择审批流程').max(2_147_483_647, '请选择审批流程'),
  templateControls: z
    .array(submittedApprovalControl)
    .max(APPROVAL_LIMITS.controls + 1)
    .default([]),
  staffApproveNode: z.array(staffApproveNodeInput).max(APPROVAL_LIMITS.nodes).default([]),
});
export type TemplateCreateBody = z.infer<typeof templateCreateBody>;
export const templateCreateResultSchema = z.object({ instanceId: z.number(), verify_status: z.number() });

/** The message for an action that does not name its node (a client older than issue 22). */
export const APPROVAL_NODE_MISSING = '审批页面已过期，请刷新后重试';
/** The node an action acts on: its nodeId (as in `nodes`); a repeated action is then refused, never applied to the next node. */
export const approvalNodeRef = () =>
  z
    .number({ message: APPROVAL_NODE_MISSING })
    .int(APPROVAL_NODE_MISSING)
    .positive(APPROVAL_NODE_MISSING)
    .max(1000, APPROVAL_NODE_MISSING);
/**
 * Approve (1) or reject (2) with a remark; only a current approver of the current node. `nodeId` names
 * the node the approver saw as current: an action on a node already passed is answered 409 您已审批过该节点.
 */
export const approvalActBody = z.object({
  instanceId: zId(),
  nodeId: approvalNodeRef(),
  status: z.union([z.literal(1), z.literal(2)], { message: '请选择审核结果' }),
  remark: zText().max(APPROVAL_LIMITS.remark, `审核意见最多${APPROVAL_LIMITS.remark}个字符`).default(''),
});
export const approvalWithdrawBody = z.object({ instanceId: zId() });

/** 我的审批 tabs. */
export const APPROVAL_TABS = ['todo', 'done', 'cc', 'mine'] as const;
export const APPROVAL_TAB_LABEL: Record<(typeof APPROVAL_TABS)[number], string> = {
  todo: '待我审批',
  done: '我已审批',
  cc: '抄送我的',
  mine: '我发起的',
};
export const approvalListQuery = pageQuery.extend({
  tab: z.enum(APPROVAL_TABS).default('todo'),
  status: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(0).max(3).optional()),
});
export type ApprovalListQuery = z.infer<typeof approvalListQuery>;

/** One action of the trail: who, when, what, remark. */
export const approvalActionSchema = z.object({
  staff_id: z.number(),
  staff_name: z.string(),
  /** submit / approve / reject / withdraw / cc */
  action: z.string(),
  action_name: z.string(),
  remark: z.string(),
  created_at: z.string(),
});
/** An instance as the trail shows it. */
export const approvalInstanceSchema = z.object({
  instanceId: z.number(),
  docType: z.string(),
  docId: z.number(),
  coMatid: z.number(),
  templateName: z.string(),
  version: z.number(),
  status: z.number(),
  statusName: z.string(),
  currentNode: z.number(),
  submitter: z.object({ id: z.number(), name: z.string() }),
  created_at: z.string(),
  finished_at: z.string(),
  templateControls: z.array(approvalControlSchema.extend({ value: z.array(z.string()) })),
  nodes: z.array(approvalNodeSchema.extend({ state: z.number() })),
  actions: z.array(approvalActionSchema),
  /** what the caller may do now */
  canAct: z.number(),
  canWithdraw: z.number(),
});
export type ApprovalInstance = z.infer<typeof approvalInstanceSchema>;

export const approvalRowSchema = z.object({
  instanceId: z.number(),
  docType: z.string(),
  docId: z.number(),
  templateName: z.string(),
  /** what the document is, e.g. 订单 · 客户名 · ¥金额 */
  title: z.string(),
  customer_id: z.number(),
  customer_name: z.string(),
  amount: z.number(),
  submitter_name: z.string(),
  status: z.number(),
  statusName: z.string(),
  current_node_name: z.string(),
  created_at: z.string(),
  finished_at: z.string(),
});
export type ApprovalRow = z.infer<typeof approvalRowSchema>;
export const approvalCountsSchema = z.object({ todo: z.number(), done: z.number(), cc: z.number(), mine: z.number() });
export type ApprovalCounts = z.infer<typeof approvalCountsSchema>;
export const approvalInfoQuery = z.object({ instanceId: qId() });

/** The socket frame kind sent to a staff when an approval concerns him (msg_type of the call socket). */
export const APPROVAL_SOCKET_MSG_TYPE = 20;
export const approvalSocketPayloadSchema = z.object({
  kind: z.enum(['todo', 'cc', 'result']),
  instanceId: z.number(),
  docType: z.string(),
  docId: z.number(),
  status: z.number(),
  text: z.string(),
});
