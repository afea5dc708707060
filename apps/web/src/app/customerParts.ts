/**
 * The one place that tells the customer detail drawer (features/customers) which features add tabs
 * and actions to it, so those features and customers do not import each other. The parts load with
 * the drawer's first use, not with the entry chunk.
 */
import { registerCustomerDetailParts } from '../components/customer-detail/registry';
import { withChunkTimeout } from './chunkLoad';

export const registerCustomerDetail = () =>
  registerCustomerDetailParts(
    withChunkTimeout(async () =>
      (
        await Promise.all([
          import('../features/contacts/customerDetail'),
          import('../features/follow-ups/customerDetail'),
          import('../features/orders/customerDetail'),
          import('../features/receipts/customerDetail'),
          import('../features/workorders/customerDetail'),
          import('../features/pools/customerDetail'),
        ])
      ).map((m) => m.customerDetailPart),
    ),
  );
