/**
 * The one place that tells the customer screens (features/customers: the detail drawer, the list's
 * batch bar) which features add tabs and actions to them, so those features and customers do not
 * import each other. The parts load with the first customer screen, not with the entry chunk.
 */
import { registerCustomerParts } from '../components/customer-parts/registry';
import { withChunkTimeout } from './chunkLoad';

export const registerFeatureCustomerParts = () =>
  registerCustomerParts(
    withChunkTimeout(async () =>
      (
        await Promise.all([
          import('../features/contacts/customerParts'),
          import('../features/follow-ups/customerParts'),
          import('../features/orders/customerParts'),
          import('../features/receipts/customerParts'),
          import('../features/workorders/customerParts'),
          import('../features/contract/customerParts'),
          import('../features/pools/customerParts'),
        ])
      ).map((m) => m.customerPart),
    ),
  );
