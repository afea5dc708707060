import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A control of an approval template's form (SPEC §3 template control, kinds of §4). */
export type ApprovalControlDef = {
  coTacid: number;
  name: string;
  dmType: number;
  dmDesc: string;
  dmValue: string[];
  dmMust: number;
};
/** A node of a flow: type 0 approver / 1 CC, mode 1 或签 / 2 会签, preset staff (empty = free). */
export type ApprovalNodeDef = { nodeId: number; name: string; type: number; mode: number; staffIds: number[] };

/** An approval template (coMatid): name and the current version; editing adds a version. */
export const approvalTemplates = pgTable(
  'approval_templates',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    isOrder: smallint('is_order').notNull().default(1),
    /** 0 可用, 1 禁用 */
    actionState: smallint('action_state').notNull().default(0),
    currentVersionId: integer('current_version_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('approval_templates_name_uq').on(t.tenantId, t.name).where(sql`${t.deletedAt} is null`)],
);

/** An immutable version of a template: its form and its ordered nodes. Running instances keep theirs. */
export const approvalTemplateVersions = pgTable(
  'approval_template_versions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    templateId: integer('template_id').notNull(),
    version: integer('version').notNull(),
    controls: jsonb('controls').$type<ApprovalControlDef[]>().notNull(),
    nodes: jsonb('nodes').$type<ApprovalNodeDef[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('approval_template_versions_uq').on(t.templateId, t.version)],
);

/** A running or finished approval of one document (doc type 'order', doc id). */
export const approvalInstances = pgTable(
  'approval_instances',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    docType: text('doc_type').notNull(),
    docId: integer('doc_id').notNull(),
    templateId: integer('template_id').notNull(),
    versionId: integer('version_id').notNull(),
    submitterId: integer('submitter_id').notNull(),
    /** index into the version's nodes of the node waiting for decisions */
    currentNode: integer('current_node').notNull().default(0),
    /** VERIFY_STATUS: 0 pending, 1 approved, 2 rejected, 3 withdrawn */
    status: smallint('status').notNull().default(0),
    /** submitted form values {"<coTacid>": [...]} */
    vals: jsonb('vals').$type<Record<string, string[]>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('approval_instances_doc_idx').on(t.tenantId, t.docType, t.docId),
    index('approval_instances_submitter_idx').on(t.tenantId, t.submitterId, t.createdAt.desc()),
  ],
);

/**
 * One staff on one node of an instance (SPEC §3 staff: actionState, actionTime, remarks).
 * STEP_STATE: 0 waiting (his node is current), 1 approved, 2 rejected, 3 CC received, 4 not reached.
 */
export const approvalSteps = pgTable(
  'approval_steps',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    instanceId: integer('instance_id').notNull(),
    nodeIndex: integer('node_index').notNull(),
    staffId: integer('staff_id').notNull(),
    /** 1 picked by the submitter on a free node */
    freeAdd: smallint('free_add').notNull().default(0),
    state: smallint('state').notNull().default(4),
    remark: text('remark').notNull().default(''),
    actedAt: timestamp('acted_at', { withTimezone: true }),
  },
  (t) => [
    index('approval_steps_instance_idx').on(t.instanceId, t.nodeIndex),
    index('approval_steps_staff_idx').on(t.tenantId, t.staffId, t.state),
  ],
);

/** The trail: every submit, approve, reject, withdraw and CC, who and when. */
export const approvalActions = pgTable(
  'approval_actions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    instanceId: integer('instance_id').notNull(),
    nodeIndex: integer('node_index').notNull().default(-1),
    staffId: integer('staff_id').notNull(),
    action: text('action').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('approval_actions_instance_idx').on(t.instanceId, t.id)],
);
