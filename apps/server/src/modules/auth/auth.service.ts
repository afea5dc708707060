import { createHash, randomBytes } from 'node:crypto';
import {
  ACTIONS,
  ALL_MENUS,
  type ChangePasswordBody,
  isMenuGranted,
  LIMITS,
  LIVE_APPLICATIONS,
  LIVE_MENU_IDS,
  type LoginBody,
  type LoginResult,
  type MenuList,
  type MenuNode,
  type Permissions,
  type PersonalEditBody,
  type SessionData,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password';
import { type PubSub, staffChannel } from '../../lib/pubsub';
import { formatDateTime } from '../../lib/time';
import { companyName as companyNameOf, companyState } from '../company/company-lookup';
import { companyModules, hiddenMenuIds } from '../company/company-modules';
import { departmentNames } from '../departments/departments.service';
import { countAccountFailures, countAddressFailures, insertLoginLog } from '../login-logs/login-attempts';
import { findRole } from '../roles/roles.service';
import {
  findAccount,
  findLoginAccount,
  findPasswordHash,
  markLoggedIn,
  setPasswordHash,
  updatePersonal,
} from '../staff/staff-accounts';
import { onStaffLockout } from '../staff/staff-lockout';
import { fileInfosByIds, requireOwnFile } from '../uploads/uploads.service';
import * as repo from './auth.repo';
import { runLogoutHooks } from './logout-hooks';
import { keptSession, readSession, type SessionRow, sessionSeen } from './session-actors';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const TOUCH_EVERY_MS = 60_000;

type Client = { ip: string; userAgent: string };

/** Where revocations are published: the pub/sub the call sockets listen on (crosses instances). */
export type Publisher = Pick<PubSub, 'publish'>;

/**
 * Published on the staff's channel when sessions end (logout, password change, account disabled,
 * deleted or expired): every call socket of those sessions, on any instance, is closed at once.
 */
export type SessionsRevoked = { kind: 'revoked'; sessionIds: number[] };

const publishRevoked = async (bus: Publisher, staffId: number, sessionIds: number[]) => {
  if (sessionIds.length === 0) return;
  await bus.publish(staffChannel(staffId), { kind: 'revoked', sessionIds } satisfies SessionsRevoked);
};

/** Logs a staff member in by account name or phone (issue 2). Every attempt is logged. */
export const login = async (db: Db, body: LoginBody, client: Client): Promise<LoginResult> => {
  const username = body.username.trim();
  const since = new Date(Date.now() - LIMITS.loginFailWindowSeconds * 1000);
  const fail = async (
    key: 'LOGIN_FAILED' | 'LOGIN_DISABLED' | 'LOGIN_ACCOUNT_EXPIRED' | 'LOGIN_TOO_MANY' | 'COMPANY_DISABLED',
    who?: { id: number; tenantId: number },
  ) => {
    await insertLoginLog(db, {
      tenantId: who?.tenantId ?? null,
      staffId: who?.id ?? null,
      username,
      ip: client.ip,
      userAgent: client.userAgent,
      isSuccess: false,
      reason: new AppError(key).message,
    });
    return new AppError(key);
  };

  const found = await findLoginAccount(db, username);
  // Throttled per account whatever the address (a forged or rotating address gains nothing), and per
  // address across accounts (password spraying); counted from the login log so it holds across instances.
  const isAccountThrottled = (await countAccountFailures(db, username, found?.id ?? null, since)) >= LIMITS.loginFailMax;
  if (isAccountThrottled || (await countAddressFailures(db, client.ip, since)) >= LIMITS.loginFailMaxPerAddress) {
    throw await fail('LOGIN_TOO_MANY', found);
  }
  if (!found) {
    await burnPasswordCheck(body.password);
    throw await fail('LOGIN_FAILED');
  }
  if (!(await verifyPassword(found.passwordHash, body.password))) throw await fail('LOGIN_FAILED', found);
  if ((await companyState(db, found.tenantId)) !== 0) throw await fail('COMPANY_DISABLED', found);
  if (found.actionState !== 0) throw await fail('LOGIN_DISABLED', found);
  if (found.expireAt && found.expireAt.getTime() < Date.now()) throw await fail('LOGIN_ACCOUNT_EXPIRED', found);

  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await repo.insertSession(tx, { tokenHash: hashToken(token), staffId: found.id, tenantId: found.tenantId, ...client });
    await markLoggedIn(tx, found.tenantId, found.id, client.ip);
    await insertLoginLog(tx, {
      tenantId: found.tenantId,
      staffId: found.id,
      username,
      ip: client.ip,
      userAgent: client.userAgent,
      isSuccess: true,
      reason: '登录成功',
    });
  });
  return { token, ...(await sessionData(db, found.id)) };
};

/** Whether a session may go on at `now`: not idle too long, not too old, its staff and company enabled. */
const isLive = (row: SessionRow, now: number) =>
  now - row.lastSeenAt.getTime() <= LIMITS.sessionIdleSeconds * 1000 &&
  now - row.createdAt.getTime() <= LIMITS.sessionMaxAgeSeconds * 1000 &&
  !row.isDeleted &&
  row.actionState === 0 &&
  row.tenantState === 0 &&
  (row.expireAt === null || row.expireAt.getTime() >= now);

/** Resolves a token to the caller, or undefined when missing, unknown, idle too long, too old or disabled. */
export const authenticate = async (
  db: Db,
  token: string,
  /** false for checks that are no activity of the user (socket heartbeats): the idle expiry keeps running */
  opts: { isActivity?: boolean } = {},
): Promise<Actor | undefined> => {
  const tokenHash = hashToken(token);
  const now = Date.now();
  // the kept copy only lets a session in; a refusal is always the database's (another process may
  // have marked it seen since)
  let entry = keptSession(db, tokenHash);
  if (!entry || !isLive(entry.row, now)) entry = await readSession(db, tokenHash);
  if (!entry) return undefined;
  const { row } = entry;
  if (!isLive(row, now)) {
    await repo.deleteSession(db, row.tenantId, row.sessionId);
    return undefined;
  }
  const isActivity = opts.isActivity ?? true;
  if (isActivity && now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await repo.touchSession(db, row.tenantId, row.sessionId);
    sessionSeen(db, tokenHash, new Date(now));
  }
  return entry.actor;
};

/** Ends the caller's session: its call socket is closed and the extension unregistered (SPEC §2). */
export const logout = async (db: Db, bus: Publisher, actor: Actor): Promise<void> => {
  await repo.deleteSession(db, actor.tenantId, actor.sessionId);
  await runLogoutHooks(db, actor.tenantId, actor.staffId);
  await publishRevoked(bus, actor.staffId, [actor.sessionId]);
};

/** Sessions idle or older than the limits are deleted (a periodic sweep calls this); returns how many. */
export const purgeExpiredSessions = async (db: Db, at = new Date()): Promise<number> =>
  repo.deleteExpiredSessions(
    db,
    new Date(at.getTime() - LIMITS.sessionIdleSeconds * 1000),
    new Date(at.getTime() - LIMITS.sessionMaxAgeSeconds * 1000),
  );

/** Prunes the catalogue to what the role may see; groups stay when a child is granted. */
const pruneMenus = (nodes: MenuNode[], granted: (id: number) => boolean): MenuNode[] =>
  nodes.flatMap((n) => {
    if (granted(n.cmMid)) return [n];
    const children = pruneMenus(n.children, granted);
    return children.length > 0 ? [{ ...n, children }] : [];
  });

/** The catalogue without the pages of switched-off modules (a granted group keeps its children). */
const withoutHidden = (nodes: MenuNode[], hidden: number[]): MenuNode[] =>
  hidden.length === 0
    ? nodes
    : nodes.filter((n) => !hidden.includes(n.cmMid)).map((n) => ({ ...n, children: withoutHidden(n.children, hidden) }));

export const buildMenus = (
  isSystem: boolean,
  menuIds: number[],
  actions: string[],
  hidden: number[] = [],
): { menulist: MenuList; permissions: Permissions } => {
  const set = new Set(menuIds);
  // a planned page (no page yet) is granted to nobody, the super admin included; a switched-off
  // module's pages (company-modules) to nobody either
  const granted = (id: number) => !hidden.includes(id) && ((isSystem && LIVE_MENU_IDS.includes(id)) || isMenuGranted(set, id));
  const menulist = LIVE_APPLICATIONS.map((app) => ({
    cbAid: app.cbAid,
    name: app.name,
    homeRoute: app.homeRoute,
    menus: pruneMenus(withoutHidden(app.menus, hidden), granted),
  })).filter((app) => app.menus.length > 0);
  const permissions: Permissions = {};
  for (const menu of ALL_MENUS) permissions[menu.frontRoute] = { hasPremisson: granted(menu.cmMid) ? 1 : 0 };
  const actionSet = new Set(actions);
  for (const a of ACTIONS) permissions[a.key] = { hasPremisson: isSystem || actionSet.has(a.key) ? 1 : 0 };
  return { menulist, permissions };
};

/** userInfo, menulist and permissions of SPEC §3. */
export const sessionData = async (db: Db, staffId: number): Promise<SessionData> => {
  const s = await findAccount(db, staffId);
  // his role and company must exist (as the session's own lookup requires); department and avatar may be gone
  const [role, companyName] = s
    ? await Promise.all([s.roleId === null ? undefined : findRole(db, s.tenantId, s.roleId), companyNameOf(db, s.tenantId)])
    : [];
  if (!s || !role || companyName === undefined) throw new AppError('LOGIN_EXPIRED');
  const [departments, avatars] = await Promise.all([
    departmentNames(db, s.tenantId, s.departmentId === null ? [] : [s.departmentId]),
    fileInfosByIds(db, s.tenantId, s.avatarFileId === null ? [] : [s.avatarFileId]),
  ]);
  return {
    userInfo: {
      cmSid: s.id,
      cmDid: s.departmentId,
      cmDidName: (s.departmentId !== null && departments.get(s.departmentId)) || '',
      cmArid: s.roleId ?? 0,
      cmAridName: role.name,
      username: s.username,
      name: s.name,
      phone: s.phone,
      workNumber: s.workNumber,
      idNumber: s.idNumber,
      sex: s.sex,
      email: s.email,
      cbAhid: s.avatarFileId,
      cbAhidUrl: (s.avatarFileId !== null && avatars.get(s.avatarFileId)?.url) || '',
      isMerchant: s.merchantType === 2 ? 1 : 0,
      lastLoginIp: s.lastLoginIp,
      lastLoginTime: formatDateTime(s.lastLoginAt),
      actionState: s.actionState,
      isBindWeiXin: 0,
      createTime: formatDateTime(s.createdAt),
      expireTime: formatDateTime(s.expireAt),
      merchantType: s.merchantType,
      companyName,
      dataScope: role.dataScope,
      isAdmin: role.isSystem ? 1 : 0,
    },
    ...buildMenus(role.isSystem, role.menuIds, role.actions, hiddenMenuIds(await companyModules(db, s.tenantId))),
  };
};

/** Changes the caller's password; every other session of the caller is logged out. */
export const changePassword = async (db: Db, bus: Publisher, actor: Actor, body: ChangePasswordBody): Promise<void> => {
  if (body.newPassword !== body.confirmPassword) throw new AppError('PASSWORD_MISMATCH');
  const stored = await findPasswordHash(db, actor.tenantId, actor.staffId);
  if (!stored || !(await verifyPassword(stored, body.oldPassword))) throw new AppError('PASSWORD_OLD_WRONG');
  if (body.oldPassword === body.newPassword) throw new AppError('PASSWORD_SAME');
  const passwordHash = await hashPassword(body.newPassword);
  const revoked = await db.transaction(async (tx) => {
    await setPasswordHash(tx, actor.tenantId, actor.staffId, passwordHash);
    const ids = await repo.staffSessionIds(tx, actor.tenantId, actor.staffId, actor.sessionId);
    await repo.deleteStaffSessions(tx, actor.tenantId, actor.staffId, actor.sessionId);
    return ids;
  });
  await publishRevoked(bus, actor.staffId, revoked);
};

/** Edits the caller's own personal data (/system/personal). */
export const editPersonal = async (db: Db, actor: Actor, body: PersonalEditBody): Promise<SessionData> => {
  if (body.cbAhid !== null) await requireOwnFile(db, actor, body.cbAhid, 'image');
  await updatePersonal(db, actor.tenantId, actor.staffId, {
    name: body.name,
    sex: body.sex,
    email: body.email,
    avatarFileId: body.cbAhid,
  });
  return sessionData(db, actor.staffId);
};

/** Logs a staff member out everywhere (disabled, deleted, password reset): his call sockets close at once. */
export const revokeStaffSessions = async (db: Db, bus: Publisher, tenantId: number, staffId: number): Promise<void> => {
  const ids = await repo.staffSessionIds(db, tenantId, staffId);
  await repo.deleteStaffSessions(db, tenantId, staffId);
  await publishRevoked(bus, staffId, ids);
};
// staff sits below auth: it reaches this through its lockout hook
onStaffLockout(revokeStaffSessions);

/** The staff a login name (username or phone) names, found as login finds him (the sip line's internal test API names staff so). */
export const staffOfLoginName = (db: Db, username: string) => findLoginAccount(db, username);
