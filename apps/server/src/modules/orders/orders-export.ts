import { moneyToYuan, type OrderListQuery } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { requireModuleOn } from '../company/company-modules';
import { defineJob, enqueueJob, restoreActor, type StoredActor, storeActor } from '../jobs/jobs.service';
import { writeExportXlsx } from '../jobs/xlsx-export';
import * as repo from './orders.repo';
import { orderFilter, presentRows } from './orders.service';

const BATCH = 2000;
type ExportPayload = { actor: StoredActor; query: OrderListQuery };

/** order/export: the filtered list as .xlsx, a durable job (poll GET customer/job, download the file). */
export const startOrderExport = async (db: Db, actor: Actor, query: OrderListQuery) => {
  await requireModuleOn(db, actor.tenantId, 'order');
  await orderFilter(db, actor, query);
  return enqueueJob(db, actor, 'order-export', { actor: storeActor(actor), query } satisfies ExportPayload);
};

defineJob<ExportPayload>('order-export', {
  onCrash: 'resume',
  run: async ({ db, dataDir }, ctx, { actor: stored, query }) => {
    const actor = restoreActor(stored);
    const f = await orderFilter(db, actor, query);
    await ctx.setTotal(await repo.countOrders(db, f));
    return writeExportXlsx(
      { db, dataDir },
      actor,
      {
        title: '订单',
        sheet: '订单',
        columns: [
          { header: '订单编号', key: 'id', width: 10 },
          { header: '客户名称', key: 'customer', width: 28 },
          { header: '产品', key: 'products', width: 30 },
          { header: '订单金额(元)', key: 'amount', width: 14 },
          { header: '签约日期', key: 'deal', width: 12 },
          { header: '服务开始', key: 'start', width: 12 },
          { header: '服务结束', key: 'end', width: 12 },
          { header: '负责人', key: 'owner', width: 10 },
          { header: '协同人', key: 'coop', width: 16 },
          { header: '审核状态', key: 'status', width: 10 },
          { header: '低于最低价', key: 'below', width: 10 },
          { header: '创建时间', key: 'created', width: 20 },
        ],
      },
      async (add) => {
        let afterId = 0;
        let done = 0;
        for (;;) {
          const batch = await repo.listOrderBatch(db, f, afterId, BATCH);
          if (batch.length === 0) break;
          for (const r of await presentRows(db, batch)) {
            add({
              id: r.id,
              customer: r.customer_name,
              products: r.product_names,
              amount: Number(moneyToYuan(r.cost_price)),
              deal: r.deal_time,
              start: r.start_time,
              end: r.end_time,
              owner: r.owner,
              coop: r.cooperators.map((c) => c.linkman).join('、'),
              status: r.verify_status_name,
              below: r.is_below_min ? '是' : '',
              created: r.created_at,
            });
          }
          afterId = batch[batch.length - 1].order.id;
          done += batch.length;
          await ctx.progress(done);
        }
      },
    );
  },
});
