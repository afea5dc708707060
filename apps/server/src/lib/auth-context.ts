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

/** The role holds a named action permission (the company's super admin holds them all). */
export const canDoAction = (actor: Actor, action: string): boolean => actor.isSystemRole || actor.actions.has(action);
