import { onEvent } from '../../lib/events/events';
import { findStageByName } from '../stages/stages.repo';
import { findCustomerRecord, recordCallContact, setCustomerStage } from './customers.service';

/** How customers react to other domains' events (lib/events). */
export const registerCustomersEvents = () => {
  // 最近联系 / 联系次数 / 接通 counters of the customer a call was with
  onEvent('call.ended', 'customers.contact-counters', async (tx, { tenantId, payload: p }) => {
    const customer = await findCustomerRecord(tx, tenantId, p.customerId);
    if (!customer) return;
    await recordCallContact(tx, tenantId, customer.id, { at: new Date(p.at), isConnected: p.billsec > 0 });
  });
  // an approved deal order marks the customer 成交: the enabled stage of that name, when the company has one
  onEvent('order.status', 'customers.deal-stage', async (tx, { tenantId, payload: p }) => {
    if (p.status !== 1) return;
    const customer = await findCustomerRecord(tx, tenantId, p.customerId);
    const stage = await findStageByName(tx, tenantId, '成交');
    if (!customer || !stage || stage.actionState !== 0 || customer.stageId === stage.id) return;
    await setCustomerStage(tx, tenantId, customer.id, stage.id);
  });
};
