import fs from 'node:fs';
import { CALL_TYPE, HANGUP_CAUSE } from '@crm/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { deliver, publish } from '../../lib/events/events';
import { formatDateTime } from '../../lib/time';
import { CALL_STATE, insertCall } from '../../modules/calls/calls.repo';
import { storeGeneratedFile } from '../../modules/uploads/uploads.service';
import { simRecording } from '../../telephony/sim/wav';
import { sipAccounts, staff } from '../schema';
import { uuidOf } from './demo-history-kit';

/** The demo history's agent calls: records, recordings and their follow records, as the call module ends a call. */

const PHONE_NOTES = ['确认了报价', '约了下周演示', '客户在开会，稍后回电', '介绍了AI外呼', '催了回款', '确认了合同条款'];

/**
 * Agent calls of the last 30 days (通话记录): each sales person and 张三 call their customers; about
 * two in three answered with a generated recording (8 kHz WAV, two voices taking turns), the rest
 * not answered or busy. Written as the call module ends a call: the record, its file, `call.ended`.
 */
export const seedCalls = async (
  app: FastifyInstance,
  tenantId: number,
  startMs: number,
  rand: () => number,
  customersOf: (user: string) => { id: number; phone: string }[],
) => {
  const db = app.db;
  const sips = await db
    .select({ id: sipAccounts.id, user: sipAccounts.user, staffId: sipAccounts.staffId })
    .from(sipAccounts)
    .where(and(eq(sipAccounts.tenantId, tenantId), eq(sipAccounts.isDefault, true)));
  const staffRows = await db
    .select({ id: staff.id, departmentId: staff.departmentId, username: staff.username })
    .from(staff)
    .where(eq(staff.tenantId, tenantId));
  let n = 0;
  const CALLS = 40;
  for (let i = 0; i < CALLS; i++) {
    const user = (['lisi', 'wangwu', 'zhaoliu', 'zhangsan'] as const)[i % 4];
    const person = staffRows.find((s) => s.username === user);
    const sip = sips.find((s) => s.staffId === person?.id);
    const mine = customersOf(user === 'zhangsan' ? 'lisi' : user);
    if (!person || !sip || mine.length === 0) continue;
    const customer = mine[(i * 5 + 3) % mine.length];
    const startAt = new Date(startMs - (30 - Math.floor((i * 30) / CALLS)) * 86_400_000 + (9 + rand() * 8) * 3_600_000);
    if (startAt.getTime() > startMs - 3_600_000) continue;
    const answered = rand() < 0.68;
    const ringAt = new Date(startAt.getTime() + 1_500);
    const answerAt = answered ? new Date(ringAt.getTime() + (3 + Math.floor(rand() * 10)) * 1000) : null;
    const billsec = answered ? 15 + Math.floor(rand() * 45) : 0;
    const endAt = new Date((answerAt ?? ringAt).getTime() + (answered ? billsec * 1000 : 30_000));
    const cause = answered ? HANGUP_CAUSE.normal : rand() < 0.7 ? HANGUP_CAUSE.noAnswer : HANGUP_CAUSE.busy;
    const uuid = uuidOf(rand);
    let stored: { id: number; url: string } | undefined;
    if (answered) {
      const actor = { tenantId, staffId: person.id } as Parameters<typeof storeGeneratedFile>[2];
      const stamp = formatDateTime(startAt).replace(/[-: ]/g, '');
      const wav = simRecording(billsec, uuid);
      stored = await storeGeneratedFile(
        db,
        app.config.dataDir,
        actor,
        { originalName: `录音_${stamp}.wav`, ext: 'wav', scene: 'recording' },
        (fullPath) => fs.promises.writeFile(fullPath, wav),
      );
    }
    const eventId = await db.transaction(async (tx) => {
      await insertCall(tx, {
        uuid,
        yearMonth: formatDateTime(startAt).slice(0, 7).replace('-', ''),
        tenantId,
        staffId: person.id,
        departmentId: person.departmentId,
        sipId: sip.id,
        sipUser: sip.user,
        callType: CALL_TYPE.outbound,
        caller: sip.user,
        calledNumber: customer.phone,
        customerId: customer.id,
        state: CALL_STATE.ended,
        startAt,
        ringAt,
        answerAt,
        endAt,
        billsec,
        hangupSide: answered ? (rand() < 0.5 ? 1 : 2) : 3,
        hangupCause: cause,
        recordFileId: stored?.id ?? null,
        recordFile: stored?.url ?? '',
        createdAt: startAt,
      });
      return publish(tx, tenantId, 'call.ended', {
        uuid,
        customerId: customer.id,
        staffId: person.id,
        callType: CALL_TYPE.outbound,
        billsec,
        recordFile: stored?.url ?? '',
        remark: answered
          ? `呼出通话 ${billsec} 秒，${PHONE_NOTES[i % PHONE_NOTES.length]}`
          : `呼出未接通（${cause === HANGUP_CAUSE.busy ? '忙线' : '无人接听'}）`,
        at: endAt.toISOString(),
      });
    });
    await deliver(db, [eventId]);
    n++;
  }
  return n;
};
