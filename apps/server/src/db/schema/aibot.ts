import type { FlowGraph } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * A 话术 flow of the AI voice bot (issue 16): the draft graph the designer edits. Publishing freezes
 * the draft into aibot_flow_versions; `version` is the last published number (0: never published).
 */
export const aibotFlows = pgTable(
  'aibot_flows',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    graph: jsonb('graph').$type<FlowGraph>().notNull(),
    /** FLOW_STATUS: 0 草稿, 1 已发布, 2 有未发布修改 */
    status: smallint('status').notNull().default(0),
    version: integer('version').notNull().default(0),
    creatorId: integer('creator_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('aibot_flows_name_uq').on(t.tenantId, t.name).where(sql`${t.deletedAt} is null`),
    index('aibot_flows_tenant_idx').on(t.tenantId, t.id).where(sql`${t.deletedAt} is null`),
  ],
);

/** A published version of a flow: the graph frozen as it was; never updated, so a call keeps its version. */
export const aibotFlowVersions = pgTable(
  'aibot_flow_versions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    flowId: integer('flow_id').notNull(),
    version: integer('version').notNull(),
    graph: jsonb('graph').$type<FlowGraph>().notNull(),
    publisherId: integer('publisher_id').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('aibot_flow_versions_uq').on(t.tenantId, t.flowId, t.version)],
);

/** The company's AI settings: the optional OpenAI-compatible classifier. The key stays on the server. */
export const aibotSettings = pgTable('aibot_settings', {
  tenantId: integer('tenant_id').primaryKey(),
  llmEnabled: boolean('llm_enabled').notNull().default(false),
  llmUrl: text('llm_url').notNull().default(''),
  llmModel: text('llm_model').notNull().default(''),
  llmKey: text('llm_key').notNull().default(''),
  llmTimeoutMs: integer('llm_timeout_ms').notNull().default(1500),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
