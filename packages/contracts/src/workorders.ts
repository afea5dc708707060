import { z } from 'zod';
import { qNum, zId, zText } from './common';
import { UPLOAD_MAX_FILES } from './uploads';

/**
 * Work orders (工单, issue 14, SPEC §3 Work order: id, workOrderName, follow_staff_id_name,
 * node_name, created_at, last_time). An admin sets work-order types, each with ordered stages
 * (the node_names) and a default handler; staff open a work order on a customer (optionally an
 * order); its handler moves it through the stages. Every change, comment and attachment is an
 * append-only event; last_time is the last event's time.
 */
export const WORK_ORDER_LIMITS = {
  typeName: 20,
  stageName: 20,
  stagesMin: 2,
  stagesMax: 10,
  typesMax: 50,
  name: 50,
  description: 500,
  comment: 500,
  remark: 200,
  files: UPLOAD_MAX_FILES,
  pageSize: 10,
  exportRows: 100_000,
  /** SLA of a type in hours: the default due time of a new work order */
  slaHoursMax: 24 * 365,
} as const;

export const WORK_PRIORITY = { low: 1, normal: 2, high: 3, urgent: 4 } as const;
export const WORK_PRIORITY_LABEL: Record<number, string> = { 1: '低', 2: '普通', 3: '高', 4: '紧急' };

/**
 * 0 未完结 (in one of the stages before the last), 1 已完结 (reached the last stage). Not 处理中: that
 * is a usual stage name, and a new order in 受理 read "处理中" (issue 23).
 */
export const WORK_STATUS = { open: 0, done: 1 } as const;
export const WORK_STATUS_LABEL: Record<number, string> = { 0: '未完结', 1: '已完结' };

/** Thread event kinds (append-only). */
export const WORK_EVENT = {
  created: 'created',
  edited: 'edited',
  transition: 'transition',
  rollback: 'rollback',
  comment: 'comment',
  transfer: 'transfer',
  overdue: 'overdue',
} as const;
export type WorkEventKind = (typeof WORK_EVENT)[keyof typeof WORK_EVENT];
export const WORK_EVENT_LABEL: Record<WorkEventKind, string> = {
  created: '创建工单',
  edited: '编辑工单',
  transition: '推进阶段',
  rollback: '回退阶段',
  comment: '评论',
  transfer: '转交',
  overdue: '已超时',
};

/** The socket message type of a work-order notice (assigned, transferred, overdue); orders 20, receipts 21. */
export const WORK_ORDER_MSG_TYPE = 22;

const name = (max: number, required: string) =>
  zText()
    .trim()
    .min(1, required)
    .max(max, `${required.replace(/^请输入/, '')}最多${max}个字符`);
const dateTime = z
  .string({ message: '请选择截止时间' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/, '请选择截止时间');
const fileIds = z.array(zId()).max(WORK_ORDER_LIMITS.files, `最多上传${WORK_ORDER_LIMITS.files}个附件`).default([]);
const staffId = (msg: string) => z.number({ message: msg }).int().positive(msg).max(2_147_483_647, msg);

/** A stage of a type; `rollback`: from this stage the handler may go back to an earlier one. */
export const workStageSchema = z.object({ id: z.number(), name: z.string(), sort: z.number(), rollback: z.boolean() });
export type WorkStage = z.infer<typeof workStageSchema>;
export const workTypeSchema = z.object({
  id: z.number(),
  name: z.string(),
  default_handler_id: z.number(),
  default_handler_name: z.string(),
  sla_hours: z.number(),
  stages: z.array(workStageSchema),
  /** work orders of this type (a type in use keeps its stages' ids) */
  used: z.number(),
  created_at: z.string(),
});
export type WorkType = z.infer<typeof workTypeSchema>;

/** POST workorder/typesave: create (no id) or edit a type. Stages in order; an existing stage keeps its id. */
export const workTypeSaveBody = z.object({
  id: zId().optional(),
  name: name(WORK_ORDER_LIMITS.typeName, '请输入类型名称'),
  default_handler_id: staffId('请选择默认处理人'),
  sla_hours: z
    .number({ message: '请输入处理时限' })
    .int('处理时限必须是整数')
    .min(1, '处理时限至少1小时')
    .max(WORK_ORDER_LIMITS.slaHoursMax, `处理时限不能超过${WORK_ORDER_LIMITS.slaHoursMax}小时`),
  stages: z
    .array(
      z.object({
        id: zId().optional(),
        name: name(WORK_ORDER_LIMITS.stageName, '请输入阶段名称'),
        rollback: z.boolean().default(false),
      }),
      { message: '请设置阶段' },
    )
    .min(WORK_ORDER_LIMITS.stagesMin, `至少设置${WORK_ORDER_LIMITS.stagesMin}个阶段`)
    .max(WORK_ORDER_LIMITS.stagesMax, `最多设置${WORK_ORDER_LIMITS.stagesMax}个阶段`),
});
export type WorkTypeSaveBody = z.infer<typeof workTypeSaveBody>;

/** POST workorder/create (from the customer drawer). */
export const workOrderCreateBody = z.object({
  customer_id: z.number({ message: '请选择客户' }).int().positive('请选择客户').max(2_147_483_647, '请选择客户'),
  order_id: zId().optional(),
  workOrderName: name(WORK_ORDER_LIMITS.name, '请输入工单名称'),
  type_id: z.number({ message: '请选择工单类型' }).int().positive('请选择工单类型').max(2_147_483_647, '请选择工单类型'),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { message: '请选择优先级' }).default(2),
  /** omitted: the type's default handler */
  handler_id: staffId('请选择处理人').optional(),
  /** omitted: now + the type's SLA hours */
  due_at: dateTime.optional(),
  description: zText().trim().max(WORK_ORDER_LIMITS.description, `描述最多${WORK_ORDER_LIMITS.description}个字符`).default(''),
  files: fileIds,
});
export type WorkOrderCreateBody = z.infer<typeof workOrderCreateBody>;

/** POST workorder/edit: name, priority, due time, description (an `edited` event lists what changed). */
export const workOrderEditBody = workOrderCreateBody
  .pick({ workOrderName: true, priority: true, description: true })
  .extend({ id: zId(), due_at: dateTime });
export type WorkOrderEditBody = z.infer<typeof workOrderEditBody>;

/** POST workorder/transition: to the next stage, or back to an earlier one when the current stage allows it. */
export const workOrderTransitionBody = z.object({
  id: zId(),
  stage_id: z.number({ message: '请选择阶段' }).int().positive('请选择阶段').max(2_147_483_647, '请选择阶段'),
  remark: zText().trim().max(WORK_ORDER_LIMITS.remark, `备注最多${WORK_ORDER_LIMITS.remark}个字符`).default(''),
});
export type WorkOrderTransitionBody = z.infer<typeof workOrderTransitionBody>;

/** POST workorder/comment: text and/or attachments (at least one). */
export const workOrderCommentBody = z
  .object({
    id: zId(),
    content: zText().trim().max(WORK_ORDER_LIMITS.comment, `评论最多${WORK_ORDER_LIMITS.comment}个字符`).default(''),
    files: fileIds,
  })
  .refine((b) => b.content.length > 0 || b.files.length > 0, { message: '请输入评论内容或上传附件', path: ['content'] });
export type WorkOrderCommentBody = z.infer<typeof workOrderCommentBody>;

/** POST workorder/transfer. */
export const workOrderTransferBody = z.object({
  id: zId(),
  handler_id: staffId('请选择处理人'),
  remark: zText().trim().max(WORK_ORDER_LIMITS.remark, `备注最多${WORK_ORDER_LIMITS.remark}个字符`).default(''),
});
export type WorkOrderTransferBody = z.infer<typeof workOrderTransferBody>;

/** 工单管理 tabs: mine (I created), assigned (I handle), overdue (in scope, past due, open), all (data scope). */
export const WORK_LIST_TABS = ['all', 'mine', 'assigned', 'overdue'] as const;
const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), z.number().int().min(1).max(100_000).default(1));
const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? WORK_ORDER_LIMITS.pageSize : Number(v)),
  z.number().int().min(1).max(200).default(WORK_ORDER_LIMITS.pageSize),
);
/** GET workorder/list: a customer's work orders (drawer tab) or 工单管理's (no customer_id). */
export const workOrderListQuery = z.object({
  page,
  limit,
  customer_id: qNum,
  order_id: qNum,
  tab: z.enum(WORK_LIST_TABS).default('all'),
  type_id: qNum,
  stage_id: qNum,
  status: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(0).max(1).optional()),
  priority: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(1).max(4).optional()),
  keyword: zText().trim().max(50).default(''),
});
export type WorkOrderListQuery = z.infer<typeof workOrderListQuery>;

/** SPEC §3 Work order row (plus what the lists show). */
export const workOrderRowSchema = z.object({
  id: z.number(),
  workOrderName: z.string(),
  follow_staff_id: z.number(),
  follow_staff_id_name: z.string(),
  node_id: z.number(),
  node_name: z.string(),
  created_at: z.string(),
  last_time: z.string(),
  customer_id: z.number(),
  customer_name: z.string(),
  order_id: z.number(),
  type_id: z.number(),
  type_name: z.string(),
  priority: z.number(),
  status: z.number(),
  due_at: z.string(),
  overdue: z.boolean(),
  creator_id: z.number(),
  creator_name: z.string(),
});
export type WorkOrderRow = z.infer<typeof workOrderRowSchema>;

export const workFileSchema = z.object({ id: z.number(), url: z.string(), name: z.string(), size: z.number() });
/** One thread event; `data` carries the kind's facts (from/to stage names, changed fields, handler names). */
export const workEventSchema = z.object({
  id: z.number(),
  kind: z.string(),
  kind_name: z.string(),
  staff_id: z.number(),
  staff_name: z.string(),
  content: z.string(),
  files: z.array(workFileSchema),
  from_name: z.string(),
  to_name: z.string(),
  created_at: z.string(),
});
export type WorkEvent = z.infer<typeof workEventSchema>;

/** GET workorder/detail ?id: the row, its type's stages, description and the thread (oldest first). */
export const workOrderDetailSchema = workOrderRowSchema.extend({
  description: z.string(),
  stages: z.array(workStageSchema),
  events: z.array(workEventSchema),
  /** what the caller may do now */
  can: z.object({ edit: z.boolean(), transition: z.boolean(), comment: z.boolean(), transfer: z.boolean() }),
});
export type WorkOrderDetail = z.infer<typeof workOrderDetailSchema>;

/** Counts for the 工单管理 tabs and the workbench (the caller's scope). */
export const workOrderCountsSchema = z.object({ mine: z.number(), assigned: z.number(), overdue: z.number(), all: z.number() });
export type WorkOrderCounts = z.infer<typeof workOrderCountsSchema>;
