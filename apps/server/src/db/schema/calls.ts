import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * An extension (SIP account, cmSipid), SPEC §3 Sip info. Bound to at most one staff; one of a
 * staff's extensions is his default (the one he dials through). Device-bound extensions
 * (merchantType 2 accounts) carry the imei of the phone and the secret it logs in with.
 */
export const sipAccounts = pgTable(
  'sip_accounts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    user: text('user').notNull(),
    pwd: text('pwd').notNull(),
    server: text('server').notNull().default(''),
    url: text('url').notNull().default(''),
    inUrl: text('in_url').notNull().default(''),
    /** 1 sip, 2 axb, 3 回呼, 4 本机 */
    dmType: smallint('dm_type').notNull().default(1),
    imei: text('imei').notNull().default(''),
    deviceSecret: text('device_secret').notNull().default(''),
    /** 1 while the bound device holds a connection to the device channel */
    deviceOnline: smallint('device_online').notNull().default(0),
    /** number bound with sipbindhone */
    phone: text('phone').notNull().default(''),
    staffId: integer('staff_id'),
    isDefault: boolean('is_default').notNull().default(false),
    phoneState: smallint('phone_state').notNull().default(0),
    registerStatus: smallint('register_status').notNull().default(0),
    callStatus: smallint('call_status').notNull().default(0),
    callType: smallint('call_type').notNull().default(0),
    lastCallAt: timestamp('last_call_at', { withTimezone: true }),
    actionState: smallint('action_state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sip_accounts_user_uq').on(t.tenantId, sql`lower(${t.user})`).where(sql`${t.deletedAt} is null`),
    // a device logs in by imei alone, so an imei belongs to one extension across companies
    uniqueIndex('sip_accounts_imei_uq').on(t.imei).where(sql`${t.imei} <> '' and ${t.deletedAt} is null`),
    uniqueIndex('sip_accounts_default_uq').on(t.tenantId, t.staffId).where(sql`${t.isDefault} and ${t.deletedAt} is null`),
    index('sip_accounts_staff_idx').on(t.tenantId, t.staffId),
  ],
);

/**
 * A call (uuid), outbound (callType 1) or incoming (4). yearMonth ('YYYYMM') is stored so a
 * later partitioning by month needs no data change. Times follow the business clock.
 * An agent-placed call (origin 0) has its staff from the dial; a server-placed call (origin 1:
 * task, dialer, bot, issue 12) has none until an agent's leg is bridged to it.
 */
export const callRecords = pgTable(
  'call_records',
  {
    uuid: text('uuid').primaryKey(),
    yearMonth: text('year_month').notNull(),
    tenantId: integer('tenant_id').notNull(),
    /** the agent on the call; null while a server-placed call has no agent (bot, dialer not yet connected) */
    staffId: integer('staff_id'),
    departmentId: integer('department_id'),
    sipId: integer('sip_id'),
    sipUser: text('sip_user').notNull().default(''),
    /** 1 extension (softphone or sim line), 2 bound device */
    channel: smallint('channel').notNull().default(1),
    callType: smallint('call_type').notNull().default(1),
    /** caller number: the extension for outbound calls, the customer's number for incoming calls */
    caller: text('caller').notNull().default(''),
    /** the customer's number, normalised */
    calledNumber: text('called_number').notNull(),
    customerId: integer('customer_id'),
    controlId: integer('control_id').notNull().default(0),
    taskId: integer('task_id').notNull().default(0),
    /** 0 created, 1 ringing, 2 answered, 3 ended */
    state: smallint('state').notNull().default(0),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    ringAt: timestamp('ring_at', { withTimezone: true }),
    answerAt: timestamp('answer_at', { withTimezone: true }),
    endAt: timestamp('end_at', { withTimezone: true }),
    billsec: integer('billsec').notNull().default(0),
    /** 0 in progress, 1 agent, 2 customer, 3 system */
    hangupSide: smallint('hangup_side').notNull().default(0),
    hangupCause: text('hangup_cause').notNull().default(''),
    dmMsg: text('dm_msg').notNull().default(''),
    recordFileId: integer('record_file_id'),
    recordFile: text('record_file').notNull().default(''),
    /** sip line: how Kamailio names the call's INVITE and dialog (JSON), so any app instance can end it */
    sipDialog: text('sip_dialog').notNull().default(''),
    /** 0 placed by an agent (browser or bound phone), 1 placed or answered by the server (call control) */
    origin: smallint('origin').notNull().default(0),
    /**
     * an agent's call (origin 0): the instance whose line placed or took it and whose call socket
     * served the agent (INSTANCE_ID); a call in progress of an instance that died is ended when it
     * starts again or by the cluster sweep (server calls end with their legs' owner)
     */
    ownerInstance: text('owner_instance'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('call_records_tenant_start_idx').on(t.tenantId, t.startAt.desc()),
    index('call_records_staff_start_idx').on(t.tenantId, t.staffId, t.startAt.desc()),
    index('call_records_active_idx').on(t.staffId).where(sql`${t.state} < 3`),
    index('call_records_number_idx').on(t.tenantId, t.calledNumber),
    // per-number caps (issue 15): the company's calls to a number in the last 5 minutes / 24 hours
    index('call_records_number_start_idx').on(t.tenantId, t.calledNumber, t.startAt),
    // a recording download looks its call up by the file (call-access.ts)
    index('call_records_record_file_idx').on(t.tenantId, t.recordFileId),
    // a seat task's counters (issue 15) are counted from its calls
    index('call_records_task_idx').on(t.tenantId, t.taskId).where(sql`${t.taskId} > 0`),
    // the calls in progress of an instance that died (issue 22)
    index('call_records_owner_active_idx').on(t.ownerInstance).where(sql`${t.state} < 3`),
  ],
);

/**
 * A logged-in call socket /ws/call (issue 22): written at its login, `seen_at` moved by each
 * heartbeat, deleted when it closes. Dialers count an agent only while his work mode's socket has
 * a row seen recently (call-presence.ts); a row of an instance that died (kill -9) is removed
 * when that instance starts again or by the cluster sweep, and goes stale on its own anyway.
 */
export const callPresence = pgTable(
  'call_presence',
  {
    connId: text('conn_id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    staffId: integer('staff_id').notNull(),
    instanceId: text('instance_id').notNull(),
    loggedInAt: timestamp('logged_in_at', { withTimezone: true }).notNull(),
    /** real time (not the business clock) of the login or the latest heartbeat */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('call_presence_staff_idx').on(t.staffId), index('call_presence_instance_idx').on(t.instanceId)],
);

/**
 * The app instances alive (issue 22): each beats every few seconds (real time). One silent for
 * longer than the limit died: the cluster sweep ends its calls and legs and removes its sockets.
 */
export const appInstances = pgTable('app_instances', {
  instanceId: text('instance_id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
});

/**
 * A leg of a call (issue 12): one party the server reaches or answers (customer, agent, bot), with
 * its own progress, cause and recording. The instance whose line holds the leg is its owner: a
 * command for the leg goes to that instance; `lineHandle` is what the sip line needs to end the
 * leg from another instance (JSON).
 */
export const callLegs = pgTable(
  'call_legs',
  {
    id: text('id').primaryKey(),
    callUuid: text('call_uuid')
      .notNull()
      .references(() => callRecords.uuid),
    tenantId: integer('tenant_id').notNull(),
    /** customer, agent, bot */
    role: text('role').notNull(),
    /** 'number' (the normalised customer number) or 'extension' (an agent's extension user) */
    targetKind: text('target_kind').notNull(),
    target: text('target').notNull(),
    /** an agent leg: the staff its extension belongs to */
    staffId: integer('staff_id'),
    /** 0 created, 1 ringing, 2 answered, 3 ended */
    state: smallint('state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    ringAt: timestamp('ring_at', { withTimezone: true }),
    answerAt: timestamp('answer_at', { withTimezone: true }),
    endAt: timestamp('end_at', { withTimezone: true }),
    /** 0 in progress, 1 agent, 2 customer, 3 system */
    hangupSide: smallint('hangup_side').notNull().default(0),
    hangupCause: text('hangup_cause').notNull().default(''),
    /** keys pressed on the leg (RFC 4733), in order */
    digits: text('digits').notNull().default(''),
    recordFileId: integer('record_file_id'),
    recordFile: text('record_file').notNull().default(''),
    ownerInstance: text('owner_instance').notNull(),
    bridgedWith: text('bridged_with'),
    lineHandle: text('line_handle').notNull().default(''),
  },
  (t) => [
    index('call_legs_call_idx').on(t.callUuid),
    index('call_legs_owner_active_idx').on(t.ownerInstance).where(sql`${t.state} < 3`),
  ],
);

/**
 * A company's calling rules for server-placed legs (issue 12): the caller number shown to
 * customers (外显号码; empty: the extension or the line's own) and the hours in which the server
 * may call customers (Beijing time, 'HH:mm', from inclusive, to exclusive). No row: the defaults.
 */
export const callSettings = pgTable('call_settings', {
  tenantId: integer('tenant_id').primaryKey(),
  callerNumber: text('caller_number').notNull().default(''),
  callHoursFrom: text('call_hours_from').notNull().default('08:00'),
  callHoursTo: text('call_hours_to').notNull().default('21:00'),
  /** how an agent is joined to a customer leg: '3pcc' (media stays in rtpengine) or 'forward' (the app relays RTP) */
  bridgeMode: text('bridge_mode').notNull().default('3pcc'),
  /** issue 15: agents' manual dials obey the calling hours too */
  manualObeysHours: boolean('manual_obeys_hours').notNull().default(true),
  /** calls to one number across the company: at most this many per 5 minutes / 24 hours (0 = no cap) */
  capPer5Min: integer('cap_per_5min').notNull().default(3),
  capPerDay: integer('cap_per_day').notNull().default(5),
  /** months a 禁拨 entry is kept (0 = forever) */
  dncRetentionMonths: integer('dnc_retention_months').notNull().default(6),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A company's line test (线路测试, one at a time): the admin's call to a number that plays a
 * synthesized prompt and hangs up. One row per company, its latest test; `legId` empty while the
 * test is being placed (a placement older than a minute is taken as abandoned).
 */
export const callTests = pgTable('call_tests', {
  tenantId: integer('tenant_id').primaryKey(),
  staffId: integer('staff_id').notNull(),
  callUuid: text('call_uuid').notNull().default(''),
  legId: text('leg_id').notNull().default(''),
  prompt: text('prompt').notNull().default(''),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  playStartAt: timestamp('play_start_at', { withTimezone: true }),
  playEndAt: timestamp('play_end_at', { withTimezone: true }),
  /** how the prompt ended: done, stopped, ended (the leg ended first); empty until then */
  playResult: text('play_result').notNull().default(''),
});

/** A blacklist file: numbers imported from .xlsx/.txt; switched off files are not checked. */
export const blackFiles = pgTable(
  'black_files',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    dmState: smallint('dm_state').notNull().default(0),
    numberCount: integer('number_count').notNull().default(0),
    invalidCount: integer('invalid_count').notNull().default(0),
    staffId: integer('staff_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('black_files_tenant_idx').on(t.tenantId, t.createdAt.desc())],
);

/** A blacklisted number, from a file (fileId) or entered by hand (fileId 0). */
export const blackNumbers = pgTable(
  'black_numbers',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    fileId: integer('file_id').notNull().default(0),
    phone: text('phone').notNull(),
    remark: text('remark').notNull().default(''),
    staffId: integer('staff_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('black_numbers_phone_idx').on(t.tenantId, t.phone),
    uniqueIndex('black_numbers_file_phone_uq').on(t.tenantId, t.fileId, t.phone),
  ],
);
