/** What compliance reads of the calls module (a call by uuid, the 禁拨 retention, outbound call starts): handed in by calls at start, so calls uses compliance and never the other way round. */
import type { DbOrTx } from '../../db/client';

/** The part of a call record compliance reads (加入禁拨 from a call record). */
export type CallFact = {
  staffId: number | null;
  callType: number;
  caller: string;
  calledNumber: string;
  customerId: number | null;
};

export type CallFacts = {
  /** a call record of the company by its uuid */
  findTenantCall: (db: DbOrTx, tenantId: number, uuid: string) => Promise<CallFact | undefined>;
  /** the company's 禁拨 retention in months (外呼设置); undefined when it saved no settings */
  dncRetentionMonths: (db: DbOrTx, tenantId: number) => Promise<number | undefined>;
  /** start times of the company's outbound calls to the number since `from` (exclusive), oldest first */
  outboundStartsSince: (db: DbOrTx, tenantId: number, phone: string, from: Date) => Promise<Date[]>;
};

let facts: CallFacts | undefined;

/** The calls module hands its readers in when it starts (calls.plugin.ts). */
export const provideCallFacts = (f: CallFacts) => {
  facts = f;
};

export const callFacts = (): CallFacts => {
  if (!facts) throw new Error('compliance: the calls module has not started (no call facts)');
  return facts;
};
