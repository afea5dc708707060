import type { DbOrTx } from '../../db/client';
import * as legs from './call-legs.repo';
import * as repo from './calls.repo';

// What the AI bot and AI接待 read of calls and their legs (issue 24: the aicall and aireception
// modules reach calls through this file, not its repos).

/** A call record by its uuid (any company: the bot's own call). */
export const callRecordOf = (db: DbOrTx, uuid: string) => repo.findCall(db, uuid);

/** A call leg by its id (any company: the bot's own leg). */
export const legOf = (db: DbOrTx, legId: string) => legs.findLeg(db, legId);

/** Whether the staff was rung for this call (an agent leg of his: 转人工, a group call). */
export const isAgentOfCall = async (db: DbOrTx, tenantId: number, callUuid: string, staffId: number) =>
  (await legs.agentLegsOfStaff(db, tenantId, callUuid, staffId)).length > 0;
