import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A follow record (cmCtfid) in a customer's history, SPEC §3/§4: written follow-ups,
 * stage changes, pool operations (1 discard, 2 claim), phone calls (3) and AI calls (4).
 */
export const followRecords = pgTable(
  'follow_records',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    customerId: integer('customer_id').notNull(),
    /** who wrote it (or whose call it was); null for the system (recycling) */
    staffId: integer('staff_id'),
    followType: smallint('follow_type').notNull().default(0),
    /** 1 written in the CRM, 2 from a call, 3 from the system */
    sourceType: smallint('source_type').notNull().default(1),
    stageId: integer('stage_id'),
    remark: text('remark').notNull().default(''),
    nextFollowAt: timestamp('next_follow_at', { withTimezone: true }),
    /** values of the isFollowShow controls at the time of the follow-up: {"<cbTacid>": [...]} */
    vals: jsonb('vals').$type<Record<string, string[]>>().notNull().default({}),
    billsec: integer('billsec').notNull().default(0),
    recordFile: text('record_file').notNull().default(''),
    /** call record id (phone calls) or AI call id (AI follow-ups) */
    recordId: text('record_id').notNull().default(''),
    /** 1 when a person may delete it (written follow-ups only; calls and pool moves are evidence) */
    isDelete: smallint('is_delete').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('follow_records_customer_idx').on(t.tenantId, t.customerId, t.createdAt.desc()).where(sql`${t.deletedAt} is null`),
  ],
);

/** Extra phone numbers of a customer (the phone tab, SPEC §3 Contact), beside its template phone controls. */
export const customerContacts = pgTable(
  'customer_contacts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    customerId: integer('customer_id').notNull(),
    contactPerson: text('contact_person').notNull().default(''),
    /** normalised number (digits, leading 0 for landlines) */
    contactNo: text('contact_no').notNull(),
    /** 1 mobile, 2 landline, 3 other */
    contactType: smallint('contact_type').notNull().default(1),
    contactPosition: text('contact_position').notNull().default(''),
    /** heat, SPEC §9: 0 no, 1 popular number, 3 likely active, 4 from company site */
    kpType: smallint('kp_type').notNull().default(0),
    recommend: smallint('recommend').notNull().default(0),
    /** 2 added by a person (1 is reserved for numbers taken from the template) */
    sourceType: smallint('source_type').notNull().default(2),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('customer_contacts_customer_idx').on(t.tenantId, t.customerId, t.id),
    index('customer_contacts_phone_idx').on(t.tenantId, t.contactNo),
  ],
);

/** One reveal of a masked number (counts against decryptPhoneNum per staff per day). */
export const phoneReveals = pgTable(
  'phone_reveals',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    staffId: integer('staff_id').notNull(),
    customerId: integer('customer_id').notNull(),
    /** Asia/Shanghai calendar day of the reveal, YYYY-MM-DD */
    day: text('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('phone_reveals_staff_day_idx').on(t.tenantId, t.staffId, t.day)],
);
