export type WorkbenchSummary = {
  name: string;
  companyName: string;
  cmDidName: string;
  cmAridName: string;
  lastLoginTime: string;
  lastLoginIp: string;
  staffCount: number;
  departmentCount: number;
  todayLogins: number;
  /** the caller's own customers (issue 3) */
  customers: {
    myCustomers: number;
    todayAppointments: number;
    newThisWeek: number;
    neverContacted: number;
    createdPerDay: { date: string; count: number }[];
  };
};
