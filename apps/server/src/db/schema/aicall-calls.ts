import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** One turn of an AI call as stored: its text, time, node, how it was read, and where its clip is in the call's clip file. */
export type AiCallTurn = {
  isAi: boolean;
  text: string;
  /** ms from the answer */
  atMs: number;
  endMs: number;
  node: string;
  match: string;
  /** the clip's first sample and sample count in the call's clip file (count 0: no audio, a key press) */
  clipFrom: number;
  clipLen: number;
};

/**
 * An AI call (issue 16): one bot call of an AI task (source 1, AI外呼) or of AI reception (source
 * 2, AI接待), connected or not (grade E). The call record (call_uuid) holds the number, the times
 * and the whole recording; this row holds what the bot did: flow version, grade, score, rounds,
 * how it ended, the counters, the turns and their clips (all clips of the call in one WAV file,
 * `clip_file`, cut by each turn's offsets). `staff_ids`: who may see it besides a company-wide
 * scope (the task's creator and agents, or the reception number's agents, and who took a 转人工).
 */
export const aiCalls = pgTable(
  'ai_calls',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    /** 1 AI外呼, 2 AI接待 */
    source: smallint('source').notNull(),
    taskId: integer('task_id').notNull().default(0),
    numberId: integer('number_id').notNull().default(0),
    /** AI接待: the reception setting that answered */
    receptionId: integer('reception_id').notNull().default(0),
    customerId: integer('customer_id'),
    callUuid: text('call_uuid').notNull(),
    flowId: integer('flow_id').notNull(),
    flowVersion: integer('flow_version').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    /** talk seconds (0 when not connected) */
    duration: integer('duration').notNull().default(0),
    grade: text('grade').notNull(),
    score: integer('score').notNull().default(0),
    rounds: integer('rounds').notNull().default(0),
    /** AI_CALL_END */
    end: text('end').notNull(),
    counters: jsonb('counters').$type<Record<string, unknown>>().notNull(),
    turns: jsonb('turns').$type<AiCallTurn[]>().notNull(),
    transferStaffId: integer('transfer_staff_id'),
    clipFile: text('clip_file').notNull().default(''),
    staffIds: integer('staff_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ai_calls_list_idx').on(t.tenantId, t.source, t.startedAt.desc()),
    index('ai_calls_task_idx').on(t.tenantId, t.taskId, t.grade),
    uniqueIndex('ai_calls_call_uq').on(t.callUuid),
  ],
);

/** AI reception (AI接待): an inbound number the bot answers with a flow within its hours (Beijing time). */
export const aireceptionSettings = pgTable(
  'aireception_settings',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    /** the called number of inbound calls; one company per number */
    number: text('number').notNull(),
    flowId: integer('flow_id').notNull(),
    /** HH:mm, Beijing time; to may be 24:00 */
    fromTime: text('from_time').notNull(),
    toTime: text('to_time').notNull(),
    agentIds: jsonb('agent_ids').$type<number[]>().notNull().default([]),
    isEnabled: smallint('is_enabled').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('aireception_number_uq').on(t.number), index('aireception_tenant_idx').on(t.tenantId, t.id)],
);
