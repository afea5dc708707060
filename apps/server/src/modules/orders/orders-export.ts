import { moneyToYuan, type OrderListQuery } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { requireModuleOn } from '../company/company-modules';
import { defineExportJob, keysetRows } from '../jobs/xlsx-export';
import * as repo from './orders.repo';
import { orderFilter, presentRows } from './orders.service';

const BATCH = 2000;

const startExport = defineExportJob<{ query: OrderListQuery }>('order-export', async (db, actor, { query }) => {
  const f = await orderFilter(db, actor, query);
  return {
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
    total: await repo.countOrders(db, f),
    rows: keysetRows(
      BATCH,
      (afterId, limit) => repo.listOrderBatch(db, f, afterId, limit),
      (r) => r.order.id,
      async (batch) =>
        (await presentRows(db, batch)).map((r) => ({
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
        })),
    ),
  };
});

/** order/export: the filtered list as .xlsx, a durable job (poll GET customer/job, download the file). */
export const startOrderExport = async (db: Db, actor: Actor, query: OrderListQuery) => {
  await requireModuleOn(db, actor.tenantId, 'order');
  await orderFilter(db, actor, query);
  return startExport(db, actor, { query });
};
