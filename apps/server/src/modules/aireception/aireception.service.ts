import type { AireceptionSaveBody, AireceptionSetting, ListData } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { flowNames, publishedFlow } from '../aibot/aibot.service';
import { companyStaffIds } from '../staff/staff-for-aicall';
import * as repo from './aireception.repo';

// AI接待 numbers (issue 16, menu 400): an inbound number given to a published 话术 within hours
// (Beijing time); a number belongs to one company. Company-wide settings.

export const AIRECEPTION_MENU = '/aireception/Index';

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `at` is inside the hours [from, to) in Beijing time. */
export const isInHours = (from: string, to: string, at: Date) => {
  const beijing = new Date(at.getTime() + 8 * 3_600_000);
  const minute = beijing.getUTCHours() * 60 + beijing.getUTCMinutes();
  return minute >= minuteOf(from) && minute < minuteOf(to);
};

const toSetting = (s: repo.ReceptionRow, flowName: string): AireceptionSetting => ({
  id: s.id,
  number: s.number,
  flowId: s.flowId,
  flowName,
  from: s.fromTime,
  to: s.toTime,
  cmSidInfo: s.agentIds,
  isEnabled: s.isEnabled,
});

export const listSettings = async (db: Db, actor: Actor): Promise<ListData<AireceptionSetting>> => {
  const rows = await repo.listSettings(db, actor.tenantId);
  const names = await flowNames(
    db,
    actor.tenantId,
    rows.map((s) => s.flowId),
  );
  return { count: rows.length, list: rows.map((s) => toSetting(s, names.get(s.flowId) ?? '')) };
};

/** Adds (no id) or edits a reception number. */
export const saveSetting = async (db: Db, actor: Actor, body: AireceptionSaveBody): Promise<number> => {
  if (minuteOf(body.from) >= minuteOf(body.to)) throw new AppError('AIRECEPTION_HOURS_INVALID');
  if (body.id !== undefined && !(await repo.findSetting(db, actor.tenantId, body.id)))
    throw new AppError('AIRECEPTION_NOT_FOUND');
  if (!(await publishedFlow(db, actor.tenantId, body.flowId))) throw new AppError('AIRECEPTION_FLOW_UNPUBLISHED');
  const agents = [...new Set(body.cmSidInfo)];
  const known = await companyStaffIds(db, actor.tenantId, agents);
  if (known.length !== agents.length) throw new AppError('NOT_FOUND', '所选坐席不存在或已删除');
  if (await repo.isNumberTaken(db, body.number, body.id ?? 0)) throw new AppError('AIRECEPTION_NUMBER_EXISTS');
  const at = now();
  const row = {
    number: body.number,
    flowId: body.flowId,
    fromTime: body.from,
    toTime: body.to,
    agentIds: agents,
    isEnabled: body.isEnabled,
    updatedAt: at,
  };
  if (body.id !== undefined) {
    await repo.updateSetting(db, actor.tenantId, body.id, row);
    return body.id;
  }
  return repo.insertSetting(db, { ...row, tenantId: actor.tenantId, createdAt: at });
};

export const deleteSetting = async (db: Db, actor: Actor, id: number) => {
  if (!(await repo.deleteSetting(db, actor.tenantId, id))) throw new AppError('AIRECEPTION_NOT_FOUND');
};
