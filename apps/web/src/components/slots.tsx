/**
 * Places in one feature's screen that another feature fills with its own component (the receipts of
 * an order, the order behind an approval, the receipt flow setting), so that neither of the two
 * features needs the other. app/slotFillers.ts registers each filler once; it loads with the first use.
 */
import type { ApprovalTemplate } from '@crm/contracts';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';

/** One place; app/ registers the component that fills it, loaded on first use. */
export class Slot<P extends object> {
  Filler: LazyExoticComponent<ComponentType<P>> | null = null;

  register(load: () => Promise<ComponentType<P>>) {
    this.Filler = lazy(async () => ({ default: await load() }));
  }
}

/** Renders the slot's registered component with these props (nothing while it loads, or when none is registered). */
export const SlotOutlet = <P extends object>({ slot, ...props }: { slot: Slot<P> } & P) => {
  const Filler = slot.Filler;
  if (!Filler) return null;
  return (
    <Suspense fallback={null}>
      <Filler {...(props as unknown as P)} />
    </Suspense>
  );
};

/** The order detail's 回款 card (an approved order's plans and receipts): filled by receipts. */
export const orderReceiptsSlot = new Slot<{ customerId: number; orderId: number }>();

/** The order detail's 合同 card (an approved order's contracts, 生成合同): filled by contract. */
export const orderContractsSlot = new Slot<{ customerId: number; orderId: number }>();

/** An order's details, opened from an approval (我的审批): filled by orders. */
export const orderDetailSlot = new Slot<{ orderId: number | null; onClose: () => void }>();

/** 审批设置's receipt flow card (which flow a new receipt goes through): filled by receipts. */
export const receiptFlowSettingSlot = new Slot<{ templates: ApprovalTemplate[] }>();

/** The workbench's 账户余额 card (balance and days left, for who sees the company's money): filled by billing. */
export const workbenchBalanceSlot = new Slot<{ onOpen: (to: string) => void }>();
