import { z } from 'zod';

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
});
export type WorkbenchSummary = z.infer<typeof workbenchSummarySchema>;
