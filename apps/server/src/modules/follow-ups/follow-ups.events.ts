import { FOLLOW_SOURCE, FOLLOW_TYPE, moneyToYuan, VERIFY_STATUS } from '@crm/contracts';
import { onEvent } from '../../lib/events/events';
import { findCustomerRecord } from '../customers/customers.service';
import { insertFollow, insertMovedFollows, insertPooledFollows } from './follow-ups.repo';
import { recordCallFollowUp } from './follow-ups.service';

/** How the follow-up history reacts to other domains' events (lib/events). */
export const registerFollowUpsEvents = () => {
  // a call with a customer leaves a phone follow-up in the customer's history
  onEvent('call.ended', 'follow-ups.call-record', async (tx, { tenantId, payload: p }) => {
    const customer = await findCustomerRecord(tx, tenantId, p.customerId);
    if (!customer) return;
    await recordCallFollowUp(tx, {
      tenantId,
      customerId: customer.id,
      staffId: p.staffId,
      stageId: customer.stageId,
      billsec: p.billsec,
      recordFile: p.recordFile,
      uuid: p.uuid,
      remark: p.remark,
      at: new Date(p.at),
    });
  });
  // customers discarded or recycled into a pool: a 丢弃 record each, with the reason
  onEvent('customers.pooled', 'follow-ups.pooled-history', async (tx, { tenantId, payload: p }) => {
    await insertPooledFollows(tx, {
      tenantId,
      moved: p.moved,
      staffId: p.staffId,
      followType: FOLLOW_TYPE.discard,
      sourceType: p.sourceType,
      remark: p.reason,
      at: new Date(p.at),
    });
  });
  // customers claimed (领取), allotted (分配) or batch-transferred: a record each, with the move's text
  onEvent('customers.moved', 'follow-ups.moved-history', async (tx, { tenantId, payload: p }) => {
    await insertMovedFollows(tx, {
      tenantId,
      groups: p.groups,
      staffId: p.staffId,
      followType: p.kind === 'claim' ? FOLLOW_TYPE.claim : FOLLOW_TYPE.written,
      sourceType: FOLLOW_SOURCE.crm,
      at: new Date(p.at),
    });
  });
  // an approved deal order: a system record in the customer's history (成交, products and amount)
  onEvent('order.status', 'follow-ups.order-approved', async (tx, { tenantId, payload: p }) => {
    if (p.status !== VERIFY_STATUS.approved) return;
    const customer = await findCustomerRecord(tx, tenantId, p.customerId);
    if (!customer) return;
    await insertFollow(tx, {
      tenantId,
      customerId: customer.id,
      staffId: p.ownerId,
      followType: FOLLOW_TYPE.written,
      sourceType: FOLLOW_SOURCE.system,
      stageId: customer.stageId,
      remark: `订单审批通过，已成交：${p.productNames}，金额¥${moneyToYuan(p.amount)}（订单编号${p.orderId}）`,
      isDelete: 0,
      createdAt: new Date(p.at),
    });
  });
};
