/** Fills the places of components/slots.tsx: which feature's component shows in another feature's screen. */
import {
  orderContractsSlot,
  orderDetailSlot,
  orderReceiptsSlot,
  receiptFlowSettingSlot,
  workbenchBalanceSlot,
} from '../components/slots';
import { withChunkTimeout } from './chunkLoad';

export const registerSlots = () => {
  orderReceiptsSlot.register(
    withChunkTimeout(async () => (await import('../features/receipts/components/OrderReceiptsCard')).OrderReceiptsCard),
  );
  orderDetailSlot.register(
    withChunkTimeout(async () => (await import('../features/orders/components/OrderDetailDrawer')).OrderDetailDrawer),
  );
  orderContractsSlot.register(
    withChunkTimeout(async () => (await import('../features/contract/components/OrderContractsCard')).OrderContractsCard),
  );
  workbenchBalanceSlot.register(
    withChunkTimeout(async () => (await import('../features/billing/components/WorkbenchBalanceCard')).WorkbenchBalanceCard),
  );
  receiptFlowSettingSlot.register(
    withChunkTimeout(async () => (await import('../features/receipts/components/ReceiptSettingCard')).ReceiptSettingCard),
  );
};
