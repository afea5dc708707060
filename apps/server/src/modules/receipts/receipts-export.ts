import { moneyToYuan, type PlanListQuery, RECEIPT_LIMITS } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { defineJob, enqueueJob, restoreActor, type StoredActor, storeActor } from '../jobs/jobs.service';
import { addPages, writeExportXlsx } from '../jobs/xlsx-export';
import { listPlans, planFilter } from './receipts-lists';

const BATCH = 2000;
type ExportPayload = { actor: StoredActor; query: PlanListQuery };

/** receipt/export: 回款管理's filtered plans as .xlsx, a durable job like the order export. */
export const startReceiptExport = async (db: Db, actor: Actor, query: PlanListQuery) => {
  await planFilter(db, actor, query);
  return enqueueJob(db, actor, 'receipt-export', { actor: storeActor(actor), query } satisfies ExportPayload);
};

defineJob<ExportPayload>('receipt-export', {
  onCrash: 'resume',
  run: async ({ db, dataDir }, ctx, { actor: stored, query }) => {
    const actor = restoreActor(stored);
    const first = await listPlans(db, actor, { ...query, page: 1, limit: 1 });
    await ctx.setTotal(Math.min(first.count, RECEIPT_LIMITS.exportRows));
    return writeExportXlsx(
      { db, dataDir },
      actor,
      {
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
      },
      (add) =>
        addPages(
          ctx,
          add,
          { batch: BATCH, max: RECEIPT_LIMITS.exportRows },
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
    );
  },
});
