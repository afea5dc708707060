import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLegs, staff } from '../../../db/schema';
import { setClockOffsetMs } from '../../../lib/clock';
import { callSocket, createCallTestApp, mobileEnding, readyLine, waitFor } from '../../../test/calls';
import type { TestApp } from '../../../test/harness';
import { hangupLeg, originateCustomerLeg } from '../../calls/call-control';
import * as legs from '../../calls/call-legs.repo';
import { transferToAgent } from './bot-transfer';

// 转人工 after a crash (issue 22 item 3): an agent whose call socket is gone (his page closed, or the
// server died under it) is not rung, even with his extension still marked registered; once his
// socket is back he is.

let t: TestApp;
let lisi = '';
let lisiId = 0;
let tenantId = 0;

beforeAll(async () => {
  t = await createCallTestApp();
  lisi = await t.login('lisi');
  lisiId = (await t.get('/api/frontend/user/info', lisi)).json().data.userInfo.cmSid;
  tenantId = (await t.database.db.select().from(staff).where(eq(staff.id, lisiId)))[0].tenantId;
  setClockOffsetMs(Date.UTC(2030, 0, 7, 2, 0, 0) - Date.now()); // 10:00 Beijing
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

const answeredCustomer = async () => {
  const leg = await originateCustomerLeg(t.app.calls, { tenantId, number: mobileEnding(1), ringSeconds: 30 });
  await waitFor(async () => ((await legs.findLeg(t.database.db, leg.legId))?.state ?? 0) >= 2, 'the customer answered');
  return leg;
};
const agentLegsOf = (callUuid: string) =>
  t.database.db
    .select()
    .from(callLegs)
    .where(and(eq(callLegs.callUuid, callUuid), eq(callLegs.role, 'agent')));

describe('转人工 rings only agents with a live call socket', () => {
  it('skips a registered agent without a socket, rings him once his socket is back', async () => {
    await readyLine(t, lisi);
    const first = await answeredCustomer();
    // registered, free, but no call socket: nobody to take the call
    expect(await transferToAgent(t.app.calls, first.legId, [lisiId], first.callUuid)).toBeNull();
    expect(await agentLegsOf(first.callUuid)).toHaveLength(0);
    await hangupLeg(t.app.calls, first.legId);

    const socket = await callSocket(t, lisi);
    const second = await answeredCustomer();
    // his extension rings (the sim line, 200× faster, lets it ring out before anyone could answer)
    await transferToAgent(t.app.calls, second.legId, [lisiId], second.callUuid);
    const rung = await agentLegsOf(second.callUuid);
    expect(rung).toHaveLength(1);
    expect(rung[0]).toMatchObject({ staffId: lisiId, hangupCause: 'no_answer' });
    await hangupLeg(t.app.calls, second.legId);
    socket.ws.close();
  }, 30_000);
});
