/** Staff as the users of departments and roles: the staff counts their pages show and their delete checks. */
import { registerDepartmentUser } from '../departments/department-usage';
import { registerRoleUser } from '../roles/role-usage';
import { countLiveStaffBy, countLiveStaffIn } from './staff.repo';

/** Called once at startup (app.ts). */
export const registerStaffUsage = () => {
  registerDepartmentUser({
    countsBy: (db, tenantId) => countLiveStaffBy(db, tenantId, 'departmentId'),
    countIn: (db, tenantId, id) => countLiveStaffIn(db, tenantId, 'departmentId', id),
  });
  registerRoleUser({
    countsBy: (db, tenantId) => countLiveStaffBy(db, tenantId, 'roleId'),
    countIn: (db, tenantId, id) => countLiveStaffIn(db, tenantId, 'roleId', id),
  });
};
