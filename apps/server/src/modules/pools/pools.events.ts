import { onEvent } from '../../lib/events/events';
import { recordCustomerDeal, setPendingOrders } from './pools.service';
import { registerPoolRulesWithCustomers } from './pools-for-customers';

/** How the pools' deal facts react to other domains' events (lib/events). */
export const registerPoolsEvents = () => {
  // customers show pool visibility, recovery times and claim cooldowns without importing pools
  registerPoolRulesWithCustomers();
  // orders awaiting approval exempt the customer from recycling; an approval is its last deal
  onEvent('order.status', 'pools.deal-facts', async (tx, { tenantId, payload: p }) => {
    await setPendingOrders(tx, tenantId, p.customerId, p.pendingOrders);
    if (p.status === 1) await recordCustomerDeal(tx, tenantId, p.customerId, new Date(p.at));
  });
};
