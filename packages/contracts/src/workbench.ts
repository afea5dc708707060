import { z } from 'zod';
import { workbenchOrdersSchema } from './orders';
import { workbenchReceiptsSchema } from './receipts';
import { workOrderCountsSchema } from './workorders';

export const workbenchSummarySchema = z.object({
  name: z.string(),
  companyName: z.string(),
  cmDidName: z.string(),
  cmAridName: z.string(),
  lastLoginTime: z.string(),
  lastLoginIp: z.string(),
  staffCount: z.number(),
  departmentCount: z.number(),
  todayLogins: z.number(),
  /** the caller's own customers (issue 3) */
  customers: z.object({
    myCustomers: z.number(),
    todayAppointments: z.number(),
    newThisWeek: z.number(),
    neverContacted: z.number(),
    createdPerDay: z.array(z.object({ date: z.string(), count: z.number() })),
  }),
  /** deal orders in the caller's data scope (issue 13): submitted or approved today / this month, and approvals waiting for him; absent while the company's 订单 module is off */
  orders: workbenchOrdersSchema.optional(),
  /** receipts in the caller's data scope (issue 14): received this month, open plans due in 30 days, overdue plans; absent while 回款 is off */
  receipts: workbenchReceiptsSchema.optional(),
  /** open work orders (issue 14): created by me, handled by me, overdue and all in the caller's data scope; absent while 工单 is off */
  workOrders: workOrderCountsSchema.optional(),
});
export type WorkbenchSummary = z.infer<typeof workbenchSummarySchema>;
