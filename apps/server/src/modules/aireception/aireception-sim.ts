import type { AireceptionSimCallBody } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import type { SimControlLine } from '../../telephony/sim/sim-control';
import type { CallRuntime } from '../calls/call-bus';
import * as repo from './aireception.repo';
import { isInHours } from './aireception.service';

/**
 * 模拟来电 (sim line only): the caller rings a reception number as a trunk call would, and the inbound
 * route (aireception-inbound.ts) answers it like any other; the sim caller follows the script of his
 * number (sim-script.ts). What would make the route refuse the call is said here instead.
 */
export const simulateReceptionCall = async (rt: CallRuntime, actor: Actor, body: AireceptionSimCallBody) => {
  if (rt.line.name !== 'sim') throw new AppError('SIM_ONLY');
  const setting = await repo.findSetting(rt.db, actor.tenantId, body.id);
  if (!setting) throw new AppError('AIRECEPTION_NOT_FOUND');
  if (!setting.isEnabled) throw new AppError('AIRECEPTION_DISABLED');
  if (!isInHours(setting.fromTime, setting.toTime, now())) throw new AppError('AIRECEPTION_CLOSED');
  await (rt.line as SimControlLine).simulateInbound({ from: body.callerNumber, to: setting.number, ringSeconds: 30 });
};
