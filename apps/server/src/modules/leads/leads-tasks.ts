/** 加入任务: the selected leads' numbers into a seat task, a group call or an AI task (through the calltasks service). */
import type { LeadTaskAddBody } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { normalisePhone } from '../../lib/phone';
import { appendTaskNumbers } from '../calltasks/calltasks-for-leads';
import * as repo from './leads.repo';

export const addLeadsToTask = async (db: Db, actor: Actor, body: LeadTaskAddBody) => {
  const rows = await repo.rowsByIds(db, actor.tenantId, [...new Set(body.ids)]);
  if (rows.length !== new Set(body.ids).size) throw new AppError('LEAD_NOT_FOUND');
  // every number a lead has (mobile and landline), normalized as the dialer takes them
  const phones = rows.flatMap((r) =>
    r.phones.flatMap((p) => {
      const n = normalisePhone(p);
      return n ? [n.phone] : [];
    }),
  );
  const noPhone = rows.filter((r) => !r.phones.some((p) => normalisePhone(p))).length;
  if (phones.length === 0) throw new AppError('LEAD_NO_PHONE');
  const { added, skipped } = await appendTaskNumbers(db, actor, body.taskKind, body.taskId, phones);
  return { added, noPhone, skipped };
};
