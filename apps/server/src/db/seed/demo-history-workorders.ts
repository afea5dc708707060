import { and, eq } from 'drizzle-orm';
import { workOrderTypes } from '../schema';
import type { History } from './demo-history-kit';
import { HOUR } from './demo-history-kit';

/** Work orders of the demo history: 售后服务 in every stage, one sent back, two past their SLA. */

const WORK = [
  { name: '话机无法注册', days: -40, reach: 3, back: false },
  { name: '坐席耳麦更换', days: -33, reach: 3, back: false },
  { name: '外呼线路杂音排查', days: -21, reach: 3, back: true },
  { name: '新增坐席开通', days: -14, reach: 2, back: false },
  { name: 'AI外呼话术调整', days: -9, reach: 1, back: true },
  { name: '录音下载培训', days: -6, reach: 1, back: false },
  { name: '400号码转接设置', days: -4, reach: 0, back: false },
  { name: '发票信息变更', days: -1, reach: 0, back: false },
];

export const planWorkOrders = async (h: History) => {
  const { call, pick, between, at, steps, counts } = h;
  const [type] = await h.app.db
    .select({ id: workOrderTypes.id })
    .from(workOrderTypes)
    .where(and(eq(workOrderTypes.tenantId, h.tenantId), eq(workOrderTypes.name, '售后服务')));
  const typeDetail = type
    ? (
        await call<{ list: { id: number; stages: { id: number; name: string }[] }[] }>(
          'admin',
          'GET',
          '/api/frontend/workorder/typelist',
        )
      ).list.find((t) => t.id === type.id)
    : undefined;
  if (!typeDetail) return;
  const stages = typeDetail.stages;
  WORK.forEach((w, i) => {
    const createdAt = at(w.days, 10 + (i % 5));
    steps.push({
      at: createdAt,
      run: async () => {
        const target = h.approvedOrders[i % Math.max(1, h.approvedOrders.length)] ?? null;
        const customerId = target?.customerId ?? h.owned[i % h.owned.length].id;
        const created = await call<{ id: number }>('admin', 'POST', '/api/frontend/workorder/create', {
          customer_id: customerId,
          ...(target ? { order_id: target.orderId } : {}),
          workOrderName: w.name,
          type_id: typeDetail.id,
          priority: pick([1, 2, 2, 3] as const),
          description: `客户反馈：${w.name}，请尽快处理。`,
          files: [],
        });
        counts.workOrders++;
        let t = createdAt;
        const move = (stage: number, remark: string) => {
          t += between(4, 30) * HOUR;
          const when = Math.min(t, h.startMs - HOUR);
          steps.push({
            at: when,
            run: async () => {
              await call('zhangsan', 'POST', '/api/frontend/workorder/transition', {
                id: created.id,
                stage_id: stages[stage].id,
                remark,
              });
            },
          });
        };
        if (w.reach >= 1) move(1, '已联系客户，开始处理');
        if (w.back) {
          move(0, '信息不全，退回受理补充');
          move(1, '资料已补齐，继续处理');
        }
        if (w.reach >= 2) move(2, '处理完成，待回访');
        if (w.reach >= 3) move(3, '回访满意，关闭工单');
      },
    });
  });
};
