/** Fills the places of components/slots.tsx: which feature's component shows in another feature's screen. */
import { orderDetailSlot, orderReceiptsSlot, receiptFlowSettingSlot } from '../components/slots';
import { withChunkTimeout } from './chunkLoad';

export const registerSlots = () => {
  orderReceiptsSlot.register(
    withChunkTimeout(async () => (await import('../features/receipts/components/OrderReceiptsCard')).OrderReceiptsCard),
  );
  orderDetailSlot.register(
    withChunkTimeout(async () => (await import('../features/orders/components/OrderDetailDrawer')).OrderDetailDrawer),
  );
  receiptFlowSettingSlot.register(
    withChunkTimeout(async () => (await import('../features/receipts/components/ReceiptSettingCard')).ReceiptSettingCard),
  );
};
