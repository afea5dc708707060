import type { CompanyModule, CompanyModules } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import * as repo from './company.repo';

/**
 * A company's module switches (issue 14): 订单 / 回款 / 工单, on unless the company switched them off
 * (企业资料). Services call `requireModuleOn` at their creation and list entry points; work on
 * documents that already exist (approvals, edits) goes on. Menus of a switched-off module hide.
 */
export const companyModules = async (db: DbOrTx, tenantId: number): Promise<CompanyModules> => {
  const row = await repo.findModules(db, tenantId);
  return { order: row?.orderOn ?? true, receipt: row?.receiptOn ?? true, work: row?.workOn ?? true };
};

export const saveCompanyModules = (db: DbOrTx, tenantId: number, m: CompanyModules) =>
  repo.saveModules(db, tenantId, { orderOn: m.order, receiptOn: m.receipt, workOn: m.work });

const OFF = { order: 'MODULE_ORDER_OFF', receipt: 'MODULE_RECEIPT_OFF', work: 'MODULE_WORK_OFF' } as const;

/** Refuses (403, 暂无订单接口 / 暂无回款接口 / 暂无工单接口) when the company switched the module off. */
export const requireModuleOn = async (db: DbOrTx, tenantId: number, module: CompanyModule) => {
  if (!(await companyModules(db, tenantId))[module]) throw new AppError(OFF[module]);
};

/** The side-menu entries of each module: 161 订单管理, 163 回款管理, 171 工单管理. */
const MODULE_MENUS: Record<CompanyModule, number[]> = { order: [161], receipt: [163], work: [171] };

/** Menu ids the company's switched-off modules hide. */
export const hiddenMenuIds = (m: CompanyModules): number[] =>
  (Object.keys(MODULE_MENUS) as CompanyModule[]).filter((k) => !m[k]).flatMap((k) => MODULE_MENUS[k]);
