import type { Actor } from '../../lib/auth-context';
import { saveType } from '../../modules/workorders/workorders-types';
import type { Db } from '../client';

/**
 * Demo work-order type (issue 14): 售后服务 with 受理 → 处理中 (may go back) → 回访 → 已完成, handled
 * by default by the sales supervisor within 48 hours.
 */
export const seedDemoWorkOrders = async (db: Db, admin: Actor, supervisorId: number) => {
  await saveType(db, admin, {
    name: '售后服务',
    default_handler_id: supervisorId,
    sla_hours: 48,
    stages: [
      { name: '受理', rollback: false },
      { name: '处理中', rollback: true },
      { name: '回访', rollback: false },
      { name: '已完成', rollback: false },
    ],
  });
};
