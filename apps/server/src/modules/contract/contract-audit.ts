import { createHash } from 'node:crypto';
import type { AuditEntry } from '@crm/contracts';
import type { DbOrTx, Tx } from '../../db/client';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import * as repo from './contract.repo';

/**
 * The append-only audit trail of a contract (issue 26): every entry's hash covers the one before it,
 * so a changed or removed entry breaks the chain (`chainOk`). Appended inside the transaction that
 * holds the contract's row lock, which orders the entries of one contract.
 */

export const AUDIT_ACTIONS: Record<string, string> = {
  create: '创建合同',
  send: '发起签署',
  approval: '用印审批',
  seal: '我方盖章',
  link: '生成签署链接',
  view: '查看合同',
  code: '发送验证码',
  code_wrong: '验证码错误',
  sign: '客户签署',
  signed: '签署完成',
  archive: '归档',
  receipt_plan: '生成回款计划',
  discard: '作废',
};

const GENESIS = '0'.repeat(64);

const hashOf = (
  prev: string,
  e: {
    tenantId: number;
    contractId: number;
    seq: number;
    action: string;
    actorName: string;
    detail: string;
    ip: string;
    at: Date;
  },
) =>
  createHash('sha256')
    .update(
      `${prev}\n${JSON.stringify([e.tenantId, e.contractId, e.seq, e.action, e.actorName, e.detail, e.ip, e.at.toISOString()])}`,
    )
    .digest('hex');

/** Appends one entry (the caller holds the contract's row lock). */
export const appendAudit = async (
  tx: Tx,
  e: { tenantId: number; contractId: number; action: string; actorName: string; detail?: string; ip?: string },
) => {
  const last = await repo.lastEvent(tx, e.tenantId, e.contractId);
  const at = now();
  // timestamps are stored to the microsecond: keep the millisecond the hash covers
  const row = { ...e, detail: e.detail ?? '', ip: e.ip ?? '', seq: (last?.seq ?? 0) + 1, at };
  const prevHash = last?.hash ?? GENESIS;
  await repo.insertEvent(tx, { ...row, prevHash, hash: hashOf(prevHash, row) });
};

/** The trail, oldest first, and whether its chain checks out. */
export const auditTrail = async (db: DbOrTx, tenantId: number, contractId: number) => {
  const rows = await repo.eventsOf(db, tenantId, contractId);
  let prev = GENESIS;
  let isOk = true;
  for (const r of rows) {
    if (r.prevHash !== prev || hashOf(prev, r) !== r.hash) isOk = false;
    prev = r.hash;
  }
  const entries: AuditEntry[] = rows.map((r) => ({
    seq: r.seq,
    action: r.action,
    action_name: AUDIT_ACTIONS[r.action] ?? r.action,
    actor: r.actorName,
    detail: r.detail,
    ip: r.ip,
    at: formatDateTime(r.at),
    hash: r.hash,
  }));
  return { entries, isOk };
};
