import { onEvent } from '../../lib/events/events';
import { findCustomerRecord, recordCallContact } from './customers.service';

/** How customers react to other domains' events (lib/events). */
export const registerCustomersEvents = () => {
  // 最近联系 / 联系次数 / 接通 counters of the customer a call was with
  onEvent('call.ended', 'customers.contact-counters', async (tx, { tenantId, payload: p }) => {
    const customer = await findCustomerRecord(tx, tenantId, p.customerId);
    if (!customer) return;
    await recordCallContact(tx, tenantId, customer.id, { at: new Date(p.at), isConnected: p.billsec > 0 });
  });
};
