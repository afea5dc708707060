/** The actors the calls module acts as when no agent's request is behind it: the system, the owner of a call. */
import { DATA_SCOPE } from '@crm/contracts';
import type { Actor } from '../../lib/auth-context';

/** The system as an actor: a server leg of no one's dial sees every customer of its company. */
export const systemActor = (tenantId: number): Actor => ({
  sessionId: 0,
  staffId: 0,
  tenantId,
  departmentId: null,
  roleId: 0,
  dataScope: DATA_SCOPE.all,
  isSystemRole: true,
  menuIds: new Set(),
  actions: new Set(),
  name: '系统',
});

/** The staff who placed or took a call, as the uploads service sees its owner (0: the system, a call no agent joined). */
export const ownerActor = (call: { staffId: number | null; tenantId: number; departmentId: number | null }): Actor => ({
  sessionId: 0,
  staffId: call.staffId ?? 0,
  tenantId: call.tenantId,
  departmentId: call.departmentId,
  roleId: 0,
  dataScope: DATA_SCOPE.own,
  isSystemRole: false,
  menuIds: new Set(),
  actions: new Set(),
  name: '',
});
