import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Contracts and e-signature (issue 26). Money in 1/1000 yuan integers. Owned by modules/contract.
 */

/** The company's signing identity (one row per company) and its certificate; the key is sealed with CONTRACT_KEY_SECRET. */
export const contractAccounts = pgTable('contract_accounts', {
  tenantId: integer('tenant_id').primaryKey(),
  companyName: text('company_name').notNull(),
  /** 统一社会信用代码, checked by its GB 32100 check character */
  creditCode: text('credit_code').notNull(),
  legalRep: text('legal_rep').notNull(),
  /** 1 正常, 2 停用 */
  status: smallint('status').notNull().default(1),
  certPem: text('cert_pem'),
  /** never leaves the server: not in any response or log */
  encryptedKey: text('encrypted_key'),
  certFingerprint: text('cert_fingerprint').notNull().default(''),
  certNotAfter: timestamp('cert_not_after', { withTimezone: true }),
  /** the company name the certificate was made for (a new name makes a new certificate) */
  certName: text('cert_name').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Signing credits used: one per archived contract (the count later billing charges). */
export const contractAccountLogs = pgTable(
  'contract_account_logs',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    contractId: integer('contract_id').notNull(),
    credits: integer('credits').notNull(),
    /** 'archive' */
    kind: text('kind').notNull(),
    staffId: integer('staff_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    /** a contract consumes its archive credit once, however often the call races */
    uniqueIndex('contract_account_logs_once_idx').on(t.tenantId, t.contractId, t.kind),
    index('contract_account_logs_list_idx').on(t.tenantId, t.id),
  ],
);

/** A contract template: a body with `{{fields}}` (kind 1) or an uploaded PDF with placed fields (kind 2). */
export const contractTemplates = pgTable(
  'contract_templates',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    kind: smallint('kind').notNull(),
    body: text('body').notNull().default(''),
    pdfFileId: integer('pdf_file_id'),
    fields: jsonb('fields')
      .$type<
        {
          key: string;
          label: string;
          page?: number;
          x?: number;
          y?: number;
          width?: number;
          height?: number;
          font_size?: number;
        }[]
      >()
      .notNull()
      .default(sql`'[]'::jsonb`),
    signAreas: jsonb('sign_areas')
      .$type<{ party: number; page: number; x: number; y: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** 0 可用, 1 禁用 */
    status: smallint('status').notNull().default(0),
    createdBy: integer('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('contract_templates_name_idx').on(t.tenantId, t.name)],
);

/** The company's numbering rule: prefix + date + zero-padded sequence. */
export const contractRules = pgTable('contract_rules', {
  tenantId: integer('tenant_id').primaryKey(),
  prefix: text('prefix').notNull(),
  dateFormat: text('date_format').notNull(),
  seqDigits: smallint('seq_digits').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * The sequence of one period of the numbering rule ('' when the rule has no date part): one row
 * bumped by `insert … on conflict do update … returning`, so racing creates never share a number.
 */
export const contractCounters = pgTable(
  'contract_counters',
  {
    tenantId: integer('tenant_id').notNull(),
    period: text('period').notNull(),
    value: integer('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period] })],
);

/** A seal: drawn by the platform (合同专用章 / 公章) or an uploaded transparent PNG. Destroyed seals stay. */
export const contractSeals = pgTable(
  'contract_seals',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    kind: smallint('kind').notNull(),
    /** kind 3: the uploaded PNG */
    fileId: integer('file_id'),
    /** who may use it; empty = everyone */
    staffIds: jsonb('staff_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    needsApproval: smallint('needs_approval').notNull().default(0),
    approvalTemplateId: integer('approval_template_id'),
    /** 0 在用, 1 已销毁 */
    status: smallint('status').notNull().default(0),
    createdBy: integer('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    destroyedBy: integer('destroyed_by'),
    destroyedAt: timestamp('destroyed_at', { withTimezone: true }),
  },
  (t) => [index('contract_seals_tenant_idx').on(t.tenantId, t.status)],
);

/** A contract (one version). A discard writes a new version stamped 已作废 (parent_id → the original). */
export const contracts = pgTable(
  'contracts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    contractNo: text('contract_no').notNull(),
    version: smallint('version').notNull().default(1),
    parentId: integer('parent_id'),
    /** set on the original when a discard made its 已作废 version */
    discardedById: integer('discarded_by_id'),
    title: text('title').notNull(),
    orderId: integer('order_id').notNull(),
    customerId: integer('customer_id').notNull(),
    ownerId: integer('owner_id').notNull(),
    creatorId: integer('creator_id').notNull(),
    templateId: integer('template_id').notNull(),
    sealId: integer('seal_id').notNull(),
    /** 0 草稿, 1 签署中, 2 已签署, 3 已归档, 4 已作废 */
    status: smallint('status').notNull().default(0),
    amount: integer('amount').notNull(),
    fields: jsonb('fields').$type<Record<string, string>>().notNull(),
    products: jsonb('products').$type<{ name: string; spec: string; price: number; num: number; total: number }[]>().notNull(),
    /** 付款条款 (分期): amount (1/1000 yuan) and day of each instalment; archiving makes them the order's receipt plans */
    paymentTerms: jsonb('payment_terms')
      .$type<{ amount: number; plan_at: string; remark: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** the receipt plans made from paymentTerms at archive (null: not made; the archive records why) */
    receiptPlanIds: jsonb('receipt_plan_ids').$type<number[]>(),
    signOrder: smallint('sign_order').notNull(),
    sealApproval: smallint('seal_approval').notNull().default(0),
    approvalInstanceId: integer('approval_instance_id'),
    linkDays: smallint('link_days').notNull().default(7),
    draftFileId: integer('draft_file_id'),
    signedFileId: integer('signed_file_id'),
    archivedFileId: integer('archived_file_id'),
    dismissedFileId: integer('dismissed_file_id'),
    sha256Before: text('sha256_before').notNull().default(''),
    archivedSha256: text('archived_sha256').notNull().default(''),
    discardReason: text('discard_reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    discardedAt: timestamp('discarded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('contracts_no_idx').on(t.tenantId, t.contractNo, t.version),
    index('contracts_list_idx').on(t.tenantId, t.createdAt),
    index('contracts_order_idx').on(t.tenantId, t.orderId),
    index('contracts_customer_idx').on(t.tenantId, t.customerId),
    index('contracts_owner_idx').on(t.tenantId, t.ownerId, t.status),
    /** the verify page finds an archived file by its SHA-256 */
    index('contracts_sha_idx').on(t.archivedSha256),
  ],
);

/** A party that signs: the company (its seal, applied by the platform) or the customer (link + one-time code). */
export const contractSigners = pgTable(
  'contract_signers',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    contractId: integer('contract_id').notNull(),
    /** 1 company, 2 customer */
    party: smallint('party').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull().default(''),
    /** SHA-256 of the link token (the token itself is shown once) */
    tokenHash: text('token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    otpHash: text('otp_hash'),
    otpExpiresAt: timestamp('otp_expires_at', { withTimezone: true }),
    otpAttempts: smallint('otp_attempts').notNull().default(0),
    otpSentAt: timestamp('otp_sent_at', { withTimezone: true }),
    /** business day (YYYY-MM-DD) and sends that day */
    otpDay: text('otp_day').notNull().default(''),
    otpSends: smallint('otp_sends').notNull().default(0),
    /** only on the sim line (no real SMS): the last code sent, shown to the agent */
    demoCode: text('demo_code').notNull().default(''),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    signatureFileId: integer('signature_file_id'),
    typedName: text('typed_name').notNull().default(''),
  },
  (t) => [
    index('contract_signers_contract_idx').on(t.tenantId, t.contractId),
    uniqueIndex('contract_signers_token_idx').on(t.tokenHash),
  ],
);

/** The append-only audit trail of a contract: each entry's hash covers the previous one's. */
export const contractEvents = pgTable(
  'contract_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    contractId: integer('contract_id').notNull(),
    seq: integer('seq').notNull(),
    action: text('action').notNull(),
    actorName: text('actor_name').notNull(),
    detail: text('detail').notNull().default(''),
    ip: text('ip').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [uniqueIndex('contract_events_seq_idx').on(t.contractId, t.seq)],
);
