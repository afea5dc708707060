import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A company using the product. Every business row belongs to one (DESIGN §4). */
export const tenants = pgTable('tenants', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  contactName: text('contact_name').notNull().default(''),
  contactPhone: text('contact_phone').notNull().default(''),
  address: text('address').notNull().default(''),
  industry: text('industry').notNull().default(''),
  intro: text('intro').notNull().default(''),
  logoFileId: integer('logo_file_id'),
  isDemo: boolean('is_demo').notNull().default(false),
  actionState: smallint('action_state').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const departments = pgTable(
  'departments',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    pid: integer('pid').notNull().default(0),
    name: text('name').notNull(),
    sortNum: integer('sort_num').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('departments_tenant_idx').on(t.tenantId, t.pid)],
);

export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    /** 1 own, 2 department, 3 department tree, 4 all */
    dataScope: smallint('data_scope').notNull().default(1),
    menuIds: integer('menu_ids').array().notNull().default(sql`'{}'::integer[]`),
    actions: text('actions').array().notNull().default(sql`'{}'::text[]`),
    /** The company's super-admin role: every menu and action, not editable. */
    isSystem: boolean('is_system').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_tenant_name_uq').on(t.tenantId, t.name)],
);

export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    // Deleting a department or role keeps soft-deleted staff rows, detached.
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    roleId: integer('role_id').references(() => roles.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    workNumber: text('work_number').notNull().default(''),
    idNumber: text('id_number').notNull().default(''),
    sex: smallint('sex').notNull().default(1),
    email: text('email').notNull().default(''),
    avatarFileId: integer('avatar_file_id'),
    merchantType: smallint('merchant_type').notNull().default(1),
    actionState: smallint('action_state').notNull().default(0),
    expireAt: timestamp('expire_at', { withTimezone: true }),
    /** The company's first admin; cannot be disabled or deleted. */
    isOwner: boolean('is_owner').notNull().default(false),
    isDeleted: boolean('is_deleted').notNull().default(false),
    lastLoginIp: text('last_login_ip').notNull().default(''),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** SPEC §2 call button badge: missed incoming calls after this moment are not yet seen */
    missedCallsSeenAt: timestamp('missed_calls_seen_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Login is by account name or phone across companies, so both are globally unique.
    uniqueIndex('staff_username_uq').on(sql`lower(${t.username})`),
    uniqueIndex('staff_phone_uq').on(t.phone).where(sql`${t.isDeleted} = false`),
    index('staff_tenant_idx').on(t.tenantId, t.departmentId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id),
    tenantId: integer('tenant_id').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_staff_idx').on(t.staffId)],
);

export const loginLogs = pgTable(
  'login_logs',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id'),
    staffId: integer('staff_id'),
    username: text('username').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    isSuccess: boolean('is_success').notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_logs_tenant_idx').on(t.tenantId, t.createdAt),
    index('login_logs_fail_idx').on(t.username, t.ip, t.createdAt),
    // failed logins per address across accounts (auth.repo countAddressFailures: password spraying)
    index('login_logs_ip_time_idx').on(t.ip, t.createdAt),
  ],
);

export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    staffId: integer('staff_id').notNull(),
    originalName: text('original_name').notNull(),
    storedName: text('stored_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    scene: text('scene').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('files_stored_uq').on(t.storedName)],
);

/**
 * A company's module switches (issue 14): orders, receipts and work orders, all on by default (no
 * row = all on). A module switched off refuses its creation and list entry points with the SPEC alert.
 */
export const companyModules = pgTable('company_modules', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  orderOn: boolean('order_on').notNull().default(true),
  receiptOn: boolean('receipt_on').notNull().default(true),
  workOn: boolean('work_on').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
