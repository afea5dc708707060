import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * A seat task (坐席任务, issue 15, SPEC §3 Call task, cmStid): numbers its agents work with power
 * dialing inside its calling days and time ranges. Its counters are counted from the call records
 * (`call_records.task_id`) and its numbers, never kept apart from them.
 */
export const callTasks = pgTable(
  'call_tasks',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    /** CALLTASK_STATUS: 0 draft, 1 running, 2 paused, 3 stopped, 4 completed */
    status: smallint('status').notNull().default(0),
    blackState: smallint('black_state').notNull().default(1),
    customerInfoState: smallint('customer_info_state').notNull().default(0),
    /** the saved list filter the numbers came from (JSON text), '' for a selection or an import */
    customerWhere: text('customer_where').notNull().default(''),
    /** 1..7, Monday = 1 */
    weeks: jsonb('weeks').$type<number[]>().notNull(),
    /** [{start:'09:00', end:'12:00'}] Beijing time */
    times: jsonb('times').$type<{ start: string; end: string }[]>().notNull(),
    redialMinutes: integer('redial_minutes').notNull(),
    maxAttempts: smallint('max_attempts').notNull(),
    wrapUpSeconds: integer('wrap_up_seconds').notNull(),
    failPoolId: integer('fail_pool_id').notNull().default(0),
    failReasonId: integer('fail_reason_id').notNull().default(0),
    /** CALLTASK_MODE: 0 seat task (power dialing per agent), 1 group call (人工群呼, the predictive dialer), 2 AI task (AI外呼) */
    mode: smallint('mode').notNull().default(0),
    /** group call and AI task: the most customer legs the task holds at once (its line limit) */
    maxLines: integer('max_lines').notNull().default(10),
    /** group call: the abandon rate the dialer keeps under, in 1/1000 of answered calls (default 3%) */
    abandonTarget: integer('abandon_target').notNull().default(30),
    /** AI task (mode 2, issue 16): the 话术 flow; each call takes its published version at its start */
    flowId: integer('flow_id').notNull().default(0),
    /** AI task: the grades whose customers are created or updated in the CRM (['A','B']) */
    assignGrades: jsonb('assign_grades').$type<string[]>().notNull().default([]),
    /** AI task: ASSIGN_RULES — creator, agents (in turn) or none */
    assignRule: text('assign_rule').notNull().default('creator'),
    /** AI task, rule `agents`: how many customers were handed out so far (the next agent in turn) */
    assignCursor: integer('assign_cursor').notNull().default(0),
    creatorId: integer('creator_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('call_tasks_tenant_idx').on(t.tenantId, t.createdAt.desc()).where(sql`${t.deletedAt} is null`),
    index('call_tasks_running_idx').on(t.status).where(sql`${t.status} = 1 and ${t.deletedAt} is null`),
  ],
);

/**
 * A number of a task. state: TASK_NUMBER_STATE (0 pending, 1 dialling, 2 done, 3 failed,
 * 4 skipped: blacklist, 5 invalid: 空号/停机). A pending number is due at `next_at` (null = now).
 */
export const callTaskNumbers = pgTable(
  'call_task_numbers',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    taskId: integer('task_id').notNull(),
    customerId: integer('customer_id'),
    /** normalised */
    phone: text('phone').notNull(),
    state: smallint('state').notNull().default(0),
    attempts: smallint('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }),
    /** the last dial refusal code or hang-up cause */
    lastCode: text('last_code').notNull().default(''),
    /** TASK_OUTCOME the agent gave (0 none) */
    outcome: smallint('outcome').notNull().default(0),
    /** 1: the number was left out because it is blacklisted (zcallBnum) */
    isBlacklisted: boolean('is_blacklisted').notNull().default(false),
    staffId: integer('staff_id'),
    lastCallUuid: text('last_call_uuid'),
    seq: integer('seq').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    // "the next number of this task": pending, due first, in import order
    index('call_task_numbers_next_idx').on(t.taskId, t.nextAt.nullsFirst(), t.seq).where(sql`${t.state} = 0`),
    index('call_task_numbers_task_idx').on(t.taskId, t.state, t.id),
    // the calls being dialled, settled when their record ends
    index('call_task_numbers_dialling_idx').on(t.lastCallUuid).where(sql`${t.state} = 1`),
    uniqueIndex('call_task_numbers_phone_uq').on(t.taskId, t.phone),
  ],
);

/** An agent of a task (cmSidInfo): whether he works it now and when his last task call ended. */
export const callTaskAgents = pgTable(
  'call_task_agents',
  {
    taskId: integer('task_id').notNull(),
    staffId: integer('staff_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
    isWorking: boolean('is_working').notNull().default(false),
    /**
     * the call socket (call_presence.conn_id) the agent started working from: work mode lasts while
     * that socket is alive; a new socket (reconnect, restart) works only after he joins again
     */
    workConnId: text('work_conn_id'),
    lastCallEndAt: timestamp('last_call_end_at', { withTimezone: true }),
    /** the next dial may start at this time (last call end + wrap-up) */
    nextDialAt: timestamp('next_dial_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('call_task_agents_pk').on(t.taskId, t.staffId),
    index('call_task_agents_staff_idx').on(t.tenantId, t.staffId),
    index('call_task_agents_working_idx').on(t.nextDialAt).where(sql`${t.isWorking}`),
  ],
);

/**
 * A group-call task's answered call (人工群呼, issue 15): when the customer answered, which agent
 * was rung for him and when they were bridged, or when he heard the abandon message (no free agent
 * within 2 s). The board's answered / connected / abandoned / wait figures are counted from these
 * rows joined with the call records, never kept apart.
 */
export const groupCallCalls = pgTable(
  'group_call_calls',
  {
    callUuid: text('call_uuid').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    taskId: integer('task_id').notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull(),
    staffId: integer('staff_id'),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    abandonedAt: timestamp('abandoned_at', { withTimezone: true }),
  },
  (t) => [index('group_call_calls_task_idx').on(t.taskId, t.answeredAt)],
);
