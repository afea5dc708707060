import type { ContractRule } from '@crm/contracts';
import type { DbOrTx, Tx } from '../../db/client';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import * as repo from './contract.repo';

/**
 * Contract numbers (合同编号, issue 26): prefix + the business day's date part + a zero-padded
 * sequence. The sequence lives in one counter row per company and date part, bumped atomically in
 * the create's transaction: racing creates never share a number, and a number once used is never
 * handed out again (a rolled-back create gives its value back with its row; later ones go on).
 */

export const DEFAULT_RULE = { prefix: 'HT', dateFormat: 'YYYYMMDD', seqDigits: 4 } as const;

const RESET_OF: Record<string, string> = { '': 'never', YYYY: 'year', YYYYMM: 'month', YYYYMMDD: 'day' };

/** The date part of a number for the business day (Asia/Shanghai). */
export const datePart = (format: string, at: Date = now()) => {
  const day = formatDateTime(at).slice(0, 10).replace(/-/g, '');
  return format === 'YYYY' ? day.slice(0, 4) : format === 'YYYYMM' ? day.slice(0, 6) : format === 'YYYYMMDD' ? day : '';
};

export const formatNumber = (rule: { prefix: string; seqDigits: number }, date: string, seq: number) =>
  `${rule.prefix}${date}${String(seq).padStart(rule.seqDigits, '0')}`;

export const ruleOf = async (db: DbOrTx, tenantId: number) => (await repo.findRule(db, tenantId)) ?? DEFAULT_RULE;

/** The rule as the settings page shows it, with what the next number would look like now. */
export const presentRule = async (db: DbOrTx, tenantId: number): Promise<ContractRule> => {
  const rule = await ruleOf(db, tenantId);
  const date = datePart(rule.dateFormat);
  const period = `${rule.prefix}${date}`;
  return {
    prefix: rule.prefix,
    date_format: rule.dateFormat,
    seq_digits: rule.seqDigits,
    reset: RESET_OF[rule.dateFormat] ?? 'never',
    example: formatNumber(rule, date, (await repo.peekSequence(db, tenantId, period)) + 1),
  };
};

/**
 * The next free number, inside the create's transaction. The counter is kept per prefix + date part;
 * a rule changed since could make a number an older format already gave, so a taken one is skipped.
 */
export const nextContractNo = async (tx: Tx, tenantId: number, taken: (no: string) => Promise<boolean>) => {
  const rule = await ruleOf(tx, tenantId);
  const date = datePart(rule.dateFormat);
  for (;;) {
    const no = formatNumber(rule, date, await repo.nextSequence(tx, tenantId, `${rule.prefix}${date}`));
    if (!(await taken(no))) return no;
  }
};
