import { moneyToYuan, type PlanListQuery, RECEIPT_LIMITS, type ReceiptListQuery, VERIFY_STATUS_LABEL } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { defineExportJob, pagedRows } from '../jobs/xlsx-export';
import { listPlans, listReceipts, planFilter, receiptFilter } from './receipts-lists';

const BATCH = 2000;
const PAGES = { batch: BATCH, max: RECEIPT_LIMITS.exportRows };

const startPlanExport = defineExportJob<{ query: PlanListQuery }>('receipt-export', async (db, actor, { query }) => ({
  title: '回款计划',
  sheet: '回款计划',
  columns: [
    { header: '计划编号', key: 'id', width: 10 },
    { header: '订单编号', key: 'order', width: 10 },
    { header: '客户名称', key: 'customer', width: 28 },
    { header: '负责人', key: 'owner', width: 10 },
    { header: '计划回款日期', key: 'planAt', width: 14 },
    { header: '计划金额(元)', key: 'amount', width: 14 },
    { header: '已回款(元)', key: 'repaid', width: 14 },
    { header: '状态', key: 'status', width: 10 },
    { header: '备注', key: 'remark', width: 30 },
  ],
  total: Math.min((await listPlans(db, actor, { ...query, page: 1, limit: 1 })).count, PAGES.max),
  rows: pagedRows(
    PAGES,
    (page, limit) => listPlans(db, actor, { ...query, page, limit }).then((r) => r.list),
    (r) => ({
      id: r.id,
      order: r.order_id,
      customer: r.customer_name,
      owner: r.owner,
      planAt: r.plan_at,
      amount: Number(moneyToYuan(r.amount)),
      repaid: Number(moneyToYuan(r.repaid_amount_sum)),
      status: r.status_name,
      remark: r.remark,
    }),
  ),
}));

/** receipt/export: 回款管理's filtered plans as .xlsx, a durable job like the order export. */
export const startReceiptExport = async (db: Db, actor: Actor, query: PlanListQuery) => {
  await planFilter(db, actor, query);
  return startPlanExport(db, actor, { query });
};

const startListExport = defineExportJob<{ query: ReceiptListQuery }>('receipt-list-export', async (db, actor, { query }) => ({
  title: '回款记录',
  sheet: '回款记录',
  columns: [
    { header: '回款编号', key: 'id', width: 10 },
    { header: '订单编号', key: 'order', width: 10 },
    { header: '客户名称', key: 'customer', width: 28 },
    { header: '负责人', key: 'owner', width: 10 },
    { header: '回款日期', key: 'repaymentAt', width: 14 },
    { header: '计划回款日期', key: 'planAt', width: 14 },
    { header: '回款金额(元)', key: 'amount', width: 14 },
    { header: '付款方式', key: 'payType', width: 12 },
    { header: '审批状态', key: 'verify', width: 10 },
    { header: '备注', key: 'remark', width: 30 },
    { header: '创建时间', key: 'createdAt', width: 20 },
  ],
  total: Math.min((await listReceipts(db, actor, { ...query, page: 1, limit: 1 })).count, PAGES.max),
  rows: pagedRows(
    PAGES,
    (page, limit) => listReceipts(db, actor, { ...query, page, limit }).then((r) => r.list),
    (r) => ({
      id: r.id,
      order: r.order_id,
      customer: r.customer_name,
      owner: r.owner,
      repaymentAt: r.repayment_at,
      planAt: r.plan_at,
      amount: Number(moneyToYuan(r.amount)),
      payType: r.pay_type_name,
      verify: r.verify_status === -1 ? '无需审批' : (VERIFY_STATUS_LABEL[r.verify_status] ?? ''),
      remark: r.remark,
      createdAt: r.created_at,
    }),
  ),
}));

/** receipt/listexport: 回款管理's filtered receipts (回款记录) as .xlsx, the same durable job as the plans'. */
export const startReceiptListExport = async (db: Db, actor: Actor, query: ReceiptListQuery) => {
  await receiptFilter(db, actor, query);
  return startListExport(db, actor, { query });
};
