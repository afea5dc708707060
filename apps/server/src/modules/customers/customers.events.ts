import { ACTION_STATE, VERIFY_STATUS } from '@crm/contracts';
import { onEvent } from '../../lib/events/events';
import { registerLabelUser } from '../labels/label-usage';
import { registerStageUser } from '../stages/stage-usage';
import { findStageByName } from '../stages/stages.service';
import { findCustomerRecord, recordCallContact, setCustomerStage } from './customers.service';
import { customerLabelUse } from './customers-for-labels';
import { customerStageUse } from './customers-for-stages';

/** How customers react to other domains' events (lib/events). */
export const registerCustomersEvents = () => {
  // the stage settings page counts customers per stage; a deleted stage is detached from them
  registerStageUser(customerStageUse);
  // the tag settings page counts customers per tag; a deleted tag is removed from them
  registerLabelUser(customerLabelUse);
  // 最近联系 / 联系次数 / 接通 counters of the customer a call was with
  onEvent('call.ended', 'customers.contact-counters', async (tx, { tenantId, payload: p }) => {
    const customer = await findCustomerRecord(tx, tenantId, p.customerId);
    if (!customer) return;
    await recordCallContact(tx, tenantId, customer.id, { at: new Date(p.at), isConnected: p.billsec > 0 });
  });
  // an approved deal order marks the customer 成交: the enabled stage of that name, when the company has one
  onEvent('order.status', 'customers.deal-stage', async (tx, { tenantId, payload: p }) => {
    if (p.status !== VERIFY_STATUS.approved) return;
    const customer = await findCustomerRecord(tx, tenantId, p.customerId);
    const stage = await findStageByName(tx, tenantId, '成交');
    if (!customer || !stage || stage.actionState !== ACTION_STATE.enabled || customer.stageId === stage.id) return;
    await setCustomerStage(tx, tenantId, customer.id, stage.id);
  });
};
