import { AI_CALL_END_LABEL, AI_CALL_FAILED, type AssignRule, DISCARD_OTHER, DM_TYPE, TASK_MAKES_CUSTOMERS } from '@crm/contracts';
import type { Db } from '../../db/client';
import { onlyRefusal } from '../../lib/app-error';
import { now } from '../../lib/clock';
import { deliver } from '../../lib/events/events';
import { agentIdsOf, customerForNumber, numberById, type TaskRow, takeAssignTurn } from '../calltasks/task-core';
import { loadTemplate } from '../customers/customer-templates.service';
import { findCustomerRecord, insertParsedCustomer, parseOrThrow } from '../customers/customers.service';
import { recordAiFollowUp } from '../follow-ups/follow-ups.service';
import { allotCustomers, discardForTask } from '../pools/pool-moves.service';
import { staffActor } from '../staff/staff.service';
import type { BotCallResult } from './bot/bot-call';

// What an AI call does in the CRM (issue 16). A call graded in the task's assignGrades:
// - the number's customer is found (the task's or the company's customer of the number) or, when
//   the task makes customers of new numbers (customerInfoState 1), created — named 客户 + the last
//   four digits, the number in the template's first phone control — with the rules of a customer
//   its owner creates (his customer limit);
// - assigned by the task's rule: its creator, its agents in turn, or nobody (a new customer goes
//   to the task's pool — the company's first when none — with the reason 「AI外呼未分配」). A customer who
//   already has an owner keeps him; one in a pool is allotted to the rule's staff (the pools
//   service, as the creator would); the stage never changes;
// - an AI follow record (type 4, AI跟进) in the customer's history: 'AI外呼：A级 · 85分 · 6轮 · 转人工',
//   linked to the AI call by its id (follow_records.record_id), owned by the customer's owner.

export const UNASSIGNED_REASON = 'AI外呼未分配';

type Task = TaskRow;

/** The follow record's text: grade, score, rounds and how the call ended. */
export const aiFollowText = (r: Pick<BotCallResult, 'grade' | 'counters' | 'end'>) =>
  `AI外呼：${r.grade.grade}级 · ${r.grade.score}分 · ${r.counters.rounds}轮 · ${AI_CALL_END_LABEL[r.end] ?? ''}`;

/** Who gets the task's next customer by its rule (null: nobody). */
const receiverOf = async (db: Db, task: Task): Promise<number | null> => {
  const rule = task.assignRule as AssignRule;
  if (rule === 'none') return null;
  if (rule === 'agents') {
    const agents = await agentIdsOf(db, task.id);
    if (agents.length > 0) return agents[(await takeAssignTurn(db, task.tenantId, task.id)) % agents.length];
  }
  return task.creatorId;
};

/** A new customer of the number, owned by `ownerId` (undefined when it could not be made: no phone control, his limit). */
const createCustomerOf = async (db: Db, task: Task, numberId: number, ownerId: number) => {
  const actor = await staffActor(db, task.tenantId, ownerId);
  const tpl = await loadTemplate(db, task.tenantId);
  const control = tpl.enabled.find((c) => c.dmType === DM_TYPE.phone);
  if (!actor || !control) return undefined;
  const made = await customerForNumber(db, task.tenantId, numberId, (tx, phone) => {
    const parsed = parseOrThrow(tpl, [{ cbTacid: control.id, dmValue: [phone] }], true);
    return insertParsedCustomer(tx, actor, tpl, `客户${phone.slice(-4)}`, parsed);
  }).catch(onlyRefusal(undefined));
  return made?.id;
};

/** A pooled customer goes to the rule's staff, allotted as the task's creator would (his scope, the receiver's limit). */
const allotPooled = async (db: Db, task: Task, customerId: number, receiver: number) => {
  const creator = await staffActor(db, task.tenantId, task.creatorId);
  if (!creator) return;
  await allotCustomers(db, creator, { cmCtids: [customerId], cmSid: receiver, isNodeId: 0 }).catch(onlyRefusal(undefined));
};

/** A new customer nobody is assigned: into the task's pool (the company's first when none). */
const poolNew = async (db: Db, task: Task, customerId: number) => {
  const eventId = await db.transaction((tx) =>
    discardForTask(tx, {
      tenantId: task.tenantId,
      customerIds: [customerId],
      poolId: task.failPoolId,
      reasonId: DISCARD_OTHER,
      reason: UNASSIGNED_REASON,
      staffId: task.creatorId,
      at: now(),
    }),
  );
  if (eventId !== null) await deliver(db, [eventId]);
};

/**
 * The CRM effects of one saved AI call of a task (see above). Returns the customer it went to
 * (undefined when the grade is not assigned or no customer could be made).
 */
export const applyCrmEffects = async (
  db: Db,
  task: Task,
  call: { numberId: number; aiCallId: number; result: BotCallResult },
): Promise<number | undefined> => {
  const { result } = call;
  // a system failure (系统异常) says nothing of the customer: no customer, no follow record (issue 22)
  if (result.end === AI_CALL_FAILED) return undefined;
  if (!(task.assignGrades ?? []).includes(result.grade.grade)) return undefined;
  const n = await numberById(db, task.tenantId, call.numberId);
  if (!n) return undefined;
  let customerId = n.customerId ?? undefined;
  if (!customerId) {
    if (task.customerInfoState !== TASK_MAKES_CUSTOMERS) return undefined;
    // a new customer: the rule's staff owns it (the creator, then the pool, when nobody is assigned)
    const receiver = await receiverOf(db, task);
    customerId = await createCustomerOf(db, task, n.id, receiver ?? task.creatorId);
    if (!customerId) return undefined;
    if (receiver === null) await poolNew(db, task, customerId);
  } else {
    const current = await findCustomerRecord(db, task.tenantId, customerId);
    if (!current) return undefined;
    // an owned customer keeps his owner; a pooled one goes to the rule's staff (the turn moves only then)
    const receiver = current.ownerId === null ? await receiverOf(db, task) : null;
    if (receiver !== null) await allotPooled(db, task, customerId, receiver);
  }
  const customer = await findCustomerRecord(db, task.tenantId, customerId);
  if (!customer) return undefined;
  await recordAiFollowUp(db, {
    tenantId: task.tenantId,
    customerId,
    staffId: customer.ownerId,
    stageId: customer.stageId,
    aiCallId: call.aiCallId,
    billsec: Math.round(result.talkSeconds),
    remark: aiFollowText(result),
    at: now(),
  });
  return customerId;
};
