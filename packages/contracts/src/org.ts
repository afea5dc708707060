import { z } from 'zod';
import { menuListSchema, passwordSchema } from './auth';
import { actionStateSchema, INT4_MAX, int4, pageQuery, qCode, qNum, zId, zUint } from './common';

/** Data scope of a role (issue 2): own / department / department and below / all. */
export const DATA_SCOPE = { own: 1, department: 2, departmentTree: 3, all: 4 } as const;
export const DATA_SCOPE_LABEL: Record<number, string> = { 1: '本人', 2: '本部门', 3: '本部门及下级部门', 4: '全部' };
export const dataScopeSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

// ---------- departments ----------
export type DepartmentNode = {
  cmDid: number;
  pid: number;
  name: string;
  sortNum: number;
  staffNum: number;
  createTime: string;
  children: DepartmentNode[];
};
export const departmentNodeSchema: z.ZodType<DepartmentNode> = z
  .lazy(() =>
    z.object({
      cmDid: z.number(),
      pid: z.number(),
      name: z.string(),
      sortNum: z.number(),
      staffNum: z.number(),
      createTime: z.string(),
      children: z.array(departmentNodeSchema),
    }),
  )
  .meta({ id: 'DepartmentNode' });
export const departmentBody = z.object({
  pid: zUint(),
  name: z.string().trim().min(1, '请输入部门名称').max(30, '部门名称最多30个字符'),
  sortNum: z.number().int().min(0).max(9999).default(0),
});
export const departmentEditBody = departmentBody.extend({ cmDid: zId() });
export type DepartmentBody = z.infer<typeof departmentBody>;
export type DepartmentEditBody = z.infer<typeof departmentEditBody>;

// ---------- roles ----------
/** GET role/menus: what a role may be granted (applications with their menus, and named actions). */
export const roleMenusSchema = z.object({
  applications: menuListSchema,
  actions: z.array(z.object({ key: z.string(), name: z.string() })).readonly(),
});
export const roleSchema = z.object({
  cmArid: z.number(),
  name: z.string(),
  remark: z.string(),
  dataScope: z.number(),
  menuIds: z.array(z.number()),
  actions: z.array(z.string()),
  isSystem: z.number(),
  staffNum: z.number(),
  createTime: z.string(),
});
export type Role = z.infer<typeof roleSchema>;
export const roleBody = z.object({
  name: z.string().trim().min(1, '请输入角色名称').max(20, '角色名称最多20个字符'),
  remark: z.string().max(100, '备注最多100个字符').default(''),
  dataScope: dataScopeSchema,
  menuIds: z.array(int4()),
  actions: z.array(z.string()),
});
export const roleEditBody = roleBody.extend({ cmArid: zId() });
export type RoleBody = z.infer<typeof roleBody>;
export type RoleEditBody = z.infer<typeof roleEditBody>;

// ---------- staff ----------
export const PHONE_CN = /^1[3-9]\d{9}$/;
export const staffSchema = z.object({
  cmSid: z.number(),
  username: z.string(),
  name: z.string(),
  phone: z.string(),
  workNumber: z.string(),
  sex: z.number(),
  email: z.string(),
  cmDid: z.number().nullable(),
  cmDidName: z.string(),
  cmArid: z.number(),
  cmAridName: z.string(),
  merchantType: z.number(),
  actionState: z.number(),
  expireTime: z.string(),
  lastLoginTime: z.string(),
  lastLoginIp: z.string(),
  isOwner: z.number(),
  createTime: z.string(),
});
export type Staff = z.infer<typeof staffSchema>;

const staffFields = {
  name: z.string().trim().min(1, '请输入姓名').max(20, '姓名最多20个字符'),
  phone: z.string().trim().regex(PHONE_CN, '请输入正确的11位手机号'),
  workNumber: z.string().trim().max(20, '工号最多20个字符').default(''),
  sex: z.union([z.literal(1), z.literal(2)]),
  email: z.union([z.literal(''), z.email('邮箱格式不正确').max(50)]).default(''),
  cmDid: z.number({ error: '请选择部门' }).int().positive('请选择部门').max(INT4_MAX),
  cmArid: z.number({ error: '请选择角色' }).int().positive('请选择角色').max(INT4_MAX),
  merchantType: z.union([z.literal(1), z.literal(2)]),
  actionState: actionStateSchema.default(0),
  /** '' = never expires; otherwise `YYYY-MM-DD HH:mm:ss`. */
  expireTime: z
    .union([z.literal(''), z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, '到期时间格式不正确')])
    .default(''),
};
export const USERNAME_RULE = /^[A-Za-z][A-Za-z0-9_]{3,19}$/;
export const staffCreateBody = z.object({
  username: z.string().trim().regex(USERNAME_RULE, '账号为4-20位字母、数字或下划线，以字母开头'),
  password: passwordSchema,
  ...staffFields,
});
export const staffEditBody = z.object({ cmSid: zId(), ...staffFields });
export type StaffCreateBody = z.infer<typeof staffCreateBody>;
export type StaffEditBody = z.infer<typeof staffEditBody>;
export const staffListQuery = pageQuery.extend({
  name: z.string().optional(),
  cmDid: qNum,
  cmArid: qNum,
  actionState: qCode,
  merchantType: qCode,
});
export type StaffListQuery = z.infer<typeof staffListQuery>;
export const staffResetPasswordBody = z.object({ cmSid: zId(), password: passwordSchema });
export const staffStateBody = z.object({ cmSid: zId(), actionState: actionStateSchema });
export const staffOptionSchema = z.object({ staff_id: z.number(), linkman: z.string(), cmDid: z.number().nullable() });
export type StaffOption = z.infer<typeof staffOptionSchema>;

// ---------- company ----------
export const companySchema = z.object({
  id: z.number(),
  name: z.string(),
  contactName: z.string(),
  contactPhone: z.string(),
  address: z.string(),
  industry: z.string(),
  intro: z.string(),
  logoFileId: z.number().nullable(),
  logoUrl: z.string(),
  staffNum: z.number(),
  createTime: z.string(),
});
export type Company = z.infer<typeof companySchema>;
export const companyEditBody = z.object({
  name: z.string().trim().min(1, '请输入企业名称').max(50, '企业名称最多50个字符'),
  contactName: z.string().trim().max(20, '联系人最多20个字符').default(''),
  contactPhone: z.string().trim().max(20, '联系电话最多20个字符').default(''),
  address: z.string().trim().max(100, '地址最多100个字符').default(''),
  industry: z.string().trim().max(30, '行业最多30个字符').default(''),
  intro: z.string().trim().max(500, '简介最多500个字符').default(''),
  logoFileId: zId().nullable().default(null),
});
export type CompanyEditBody = z.infer<typeof companyEditBody>;

/**
 * A company's module switches (issue 14): 订单 / 回款 / 工单, on by default. Off, the module's creation
 * and lists refuse with the SPEC alerts (暂无订单接口 / 暂无回款接口 / 暂无工单接口) and its menus hide.
 */
export const companyModulesSchema = z.object({ order: z.boolean(), receipt: z.boolean(), work: z.boolean() });
export type CompanyModules = z.infer<typeof companyModulesSchema>;
export type CompanyModule = keyof CompanyModules;
const moduleSwitch = (label: string) => z.boolean({ message: `请选择${label}模块开关` });
export const companyModulesBody = z.object({
  order: moduleSwitch('订单'),
  receipt: moduleSwitch('回款'),
  work: moduleSwitch('工单'),
});
/** The SPEC alert a switched-off module shows where its list would be. */
export const MODULE_OFF_TEXT: Record<CompanyModule, string> = {
  order: '暂无订单接口',
  receipt: '暂无回款接口',
  work: '暂无工单接口',
};

// ---------- login log ----------
export const loginLogSchema = z.object({
  id: z.number(),
  cmSid: z.number().nullable(),
  staffName: z.string(),
  username: z.string(),
  ip: z.string(),
  browser: z.string(),
  os: z.string(),
  isSuccess: z.number(),
  reason: z.string(),
  createTime: z.string(),
});
export type LoginLog = z.infer<typeof loginLogSchema>;
export const loginLogQuery = pageQuery.extend({
  cmSid: qNum,
  isSuccess: qCode,
  startTime: z.string().optional(),
  endTime: z.string().optional(),
});
export type LoginLogQuery = z.infer<typeof loginLogQuery>;
