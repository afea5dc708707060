/** Who is calling, resolved once per request by the auth plugin. */
export type Actor = {
  sessionId: number;
  staffId: number;
  tenantId: number;
  departmentId: number | null;
  roleId: number;
  dataScope: number;
  isSystemRole: boolean;
  menuIds: ReadonlySet<number>;
  actions: ReadonlySet<string>;
  name: string;
};
