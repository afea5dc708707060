import type { Db } from '../../db/client';
import { AppError, onlyRefusal } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { requireTemplate } from '../approvals/approval-templates.service';
import * as repo from './receipts.repo';
import { RECEIPT_TEMPLATE_KIND } from './receipts.service';

/** The company's receipt settings (回款设置): reminder lead days and the receipt approval flow. */

export const receiptSettings = async (db: Db, tenantId: number) => {
  const s = await repo.findSettings(db, tenantId);
  return { remind_days: s?.remindDays ?? 3, approval_template_id: s?.approvalTemplateId ?? 0 };
};

export const saveReceiptSettings = async (db: Db, actor: Actor, body: { remind_days: number; approval_template_id: number }) => {
  if (body.approval_template_id) {
    const t = await requireTemplate(db, actor.tenantId, body.approval_template_id).catch(onlyRefusal(undefined));
    if (t?.template.isOrder !== RECEIPT_TEMPLATE_KIND) throw new AppError('RECEIPT_TEMPLATE_INVALID');
  }
  await repo.saveSettings(db, actor.tenantId, body.remind_days, body.approval_template_id || null);
};
