import type { ListData, LoginLog, LoginLogQuery } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime, parseDateTime } from '../../lib/time';
import { describeUserAgent } from '../../lib/user-agent';
import { scopeStaffIds } from '../staff/staff.service';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './login-logs.repo';

/** Login log within the caller's data scope: a 销售 sees his own, an admin the whole company. */
export const listLoginLogs = async (db: Db, actor: Actor, q: LoginLogQuery): Promise<ListData<LoginLog>> => {
  const endDay = q.endTime && q.endTime.length === 10 ? `${q.endTime} 23:59:59` : q.endTime;
  const { rows, count } = await repo.listLoginLogs(
    db,
    {
      tenantId: actor.tenantId,
      staffIds: await scopeStaffIds(db, actor),
      staffId: q.cmSid,
      isSuccess: q.isSuccess === undefined ? undefined : q.isSuccess === 1,
      from: q.startTime ? parseDateTime(q.startTime) : null,
      to: endDay ? parseDateTime(endDay) : null,
    },
    q.page,
    q.limit,
  );
  const names = await staffNames(
    db,
    actor.tenantId,
    rows.flatMap((log) => (log.staffId === null ? [] : [log.staffId])),
  );
  return {
    count,
    list: rows.map((log) => ({
      id: log.id,
      cmSid: log.staffId,
      staffName: (log.staffId !== null && names.get(log.staffId)) || '',
      username: log.username,
      ip: log.ip,
      ...describeUserAgent(log.userAgent),
      isSuccess: log.isSuccess ? 1 : 0,
      reason: log.reason,
      createTime: formatDateTime(log.createdAt),
    })),
  };
};

/**
 * The workbench's login figures: the login before the current one (上次登录; the only one: itself) and
 * how many of the company's staff logged in since a time (今日登录).
 */
export const loginFigures = async (db: Db, tenantId: number, staffId: number, since: Date) => {
  const { activeStaff, recent } = await repo.loginFigures(db, tenantId, staffId, since);
  const prev = recent[1] ?? recent[0];
  return { activeStaff, previous: prev ? { ip: prev.ip, time: formatDateTime(prev.createdAt) } : { ip: '', time: '' } };
};
