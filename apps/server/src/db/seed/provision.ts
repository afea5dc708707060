import { ACTIONS, DATA_SCOPE } from '@crm/contracts';
import { hashPassword } from '../../lib/password';
import { createCompanyRow } from '../../modules/company/company.service';
import { insertRole } from '../../modules/roles/roles.service';
import { insertStaffRow } from '../../modules/staff/staff.service';
import type { Db } from '../client';

export type ProvisionInput = {
  companyName: string;
  adminUsername: string;
  adminName: string;
  adminPhone: string;
  password: string;
  isDemo?: boolean;
};

/** Creates a company with its 超级管理员 role and first (owner) admin, in one transaction. */
export const provisionCompany = async (db: Db, input: ProvisionInput) => {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const tenantId = await createCompanyRow(tx, { name: input.companyName, isDemo: input.isDemo ?? false });
    const adminRoleId = await insertRole(tx, {
      tenantId,
      name: '超级管理员',
      remark: '拥有全部菜单与操作权限',
      dataScope: DATA_SCOPE.all,
      menuIds: [],
      actions: ACTIONS.map((a) => a.key),
      isSystem: true,
    });
    const adminId = await insertStaffRow(tx, {
      tenantId,
      username: input.adminUsername,
      passwordHash,
      name: input.adminName,
      phone: input.adminPhone,
      workNumber: 'A001',
      sex: 1,
      email: '',
      departmentId: null,
      roleId: adminRoleId,
      merchantType: 1,
      actionState: 0,
      expireAt: null,
      isOwner: true,
    });
    return { tenantId, adminRoleId, adminId };
  });
};
