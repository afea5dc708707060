import { z } from 'zod';
import { zId } from './common';
import type { MenuNode } from './menus';

export const loginBody = z.object({
  username: z.string().trim().min(1, '请输入账号或手机号').max(50),
  password: z.string().min(1, '请输入密码').max(64),
});
export type LoginBody = z.infer<typeof loginBody>;

/** SPEC §3 session / user info. Times are `YYYY-MM-DD HH:mm:ss` or ''. */
export const userInfoSchema = z.object({
  cmSid: z.number(),
  cmDid: z.number().nullable(),
  cmDidName: z.string(),
  cmArid: z.number(),
  cmAridName: z.string(),
  username: z.string(),
  name: z.string(),
  phone: z.string(),
  workNumber: z.string(),
  idNumber: z.string(),
  sex: z.number(),
  email: z.string(),
  cbAhid: z.number().nullable(),
  cbAhidUrl: z.string(),
  isMerchant: z.number(),
  lastLoginIp: z.string(),
  lastLoginTime: z.string(),
  actionState: z.number(),
  isBindWeiXin: z.number(),
  createTime: z.string(),
  expireTime: z.string(),
  merchantType: z.number(),
  companyName: z.string(),
  dataScope: z.number(),
  isAdmin: z.number(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

const menuNode: z.ZodType<MenuNode> = z
  .lazy(() =>
    z.object({
      cmMid: z.number(),
      name: z.string(),
      frontRoute: z.string(),
      icon: z.string(),
      isMenu: z.union([z.literal(0), z.literal(1)]),
      children: z.array(menuNode),
    }),
  )
  .meta({ id: 'MenuNode' });
export const menuListSchema = z.array(
  z.object({ cbAid: z.number(), name: z.string(), homeRoute: z.string(), menus: z.array(menuNode) }),
);
export type MenuList = z.infer<typeof menuListSchema>;

/** `hasPremisson` (sic, SPEC §3) per menu route and per named action. */
export const permissionsSchema = z.record(z.string(), z.object({ hasPremisson: z.union([z.literal(0), z.literal(1)]) }));
export type Permissions = z.infer<typeof permissionsSchema>;

export const sessionSchema = z.object({
  userInfo: userInfoSchema,
  menulist: menuListSchema,
  permissions: permissionsSchema,
});
export type SessionData = z.infer<typeof sessionSchema>;
export const loginResult = sessionSchema.extend({ token: z.string() });
export type LoginResult = z.infer<typeof loginResult>;

/** Demo accounts shown on the login page when demo data is in use. */
export const demoInfoSchema = z.object({
  isDemo: z.boolean(),
  accounts: z.array(z.object({ username: z.string(), roleName: z.string(), name: z.string() })),
  password: z.string(),
});
export type DemoInfo = z.infer<typeof demoInfoSchema>;

export const PASSWORD_RULE = { min: 6, max: 32, msg: '密码长度为6-32位，需同时包含字母和数字' } as const;
export const passwordSchema = z
  .string()
  .min(PASSWORD_RULE.min, PASSWORD_RULE.msg)
  .max(PASSWORD_RULE.max, PASSWORD_RULE.msg)
  .regex(/^(?=.*[A-Za-z])(?=.*\d).+$/, PASSWORD_RULE.msg);

export const changePasswordBody = z.object({
  oldPassword: z.string().min(1, '请输入原密码'),
  newPassword: passwordSchema,
  confirmPassword: z.string().min(1, '请再次输入新密码'),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const personalEditBody = z.object({
  name: z.string().trim().min(1, '请输入姓名').max(20, '姓名最多20个字符'),
  sex: z.union([z.literal(1), z.literal(2)]),
  email: z.union([z.literal(''), z.email('邮箱格式不正确').max(50)]).default(''),
  cbAhid: zId().nullable().default(null),
});
export type PersonalEditBody = z.infer<typeof personalEditBody>;
