/**
 * The customer detail drawer's tabs and action buttons that other features own (contacts, follow-ups,
 * orders, receipts, work orders, pools): each feature describes its part in its own folder, app/
 * registers the loader once, and the drawer loads the parts with its first use (not in the entry chunk).
 */
import type { CompanyModule, CustomerDetail, DetailFlag } from '@crm/contracts';
import { type ComponentType, useEffect, useState } from 'react';

/** One tab: shown when the caller's detail flag allows it (SPEC §6); a switched-off module shows its alert instead. */
export type CustomerDetailTab = {
  key: string;
  label: string;
  /** the place among the tabs, ascending */
  order: number;
  flag: DetailFlag;
  /** the company module the tab belongs to (issue 14) */
  module?: CompanyModule;
  Panel: ComponentType<{ customer: CustomerDetail }>;
};

export type CustomerDetailActionProps = {
  customer: CustomerDetail;
  /** 'seas': opened from a shared pool */
  view: 'private' | 'seas';
  /** closes the drawer */
  onClose: () => void;
};

/** One entry of the left action bar: renders its button when allowed, and its dialog. */
export type CustomerDetailAction = {
  key: string;
  /** the place in the action bar, ascending */
  order: number;
  Action: ComponentType<CustomerDetailActionProps>;
};

/** What one feature adds to the drawer. */
export type CustomerDetailPart = { tabs?: CustomerDetailTab[]; actions?: CustomerDetailAction[] };

export type CustomerDetailParts = { tabs: CustomerDetailTab[]; actions: CustomerDetailAction[] };

let loadParts: () => Promise<CustomerDetailPart[]> = async () => [];
let loading: Promise<CustomerDetailParts> | null = null;
let loaded: CustomerDetailParts | null = null;

/** Called once at startup (app/customerDetail.ts) with the loader of every feature's part. */
export const registerCustomerDetailParts = (load: () => Promise<CustomerDetailPart[]>) => {
  loadParts = load;
  loading = null;
  loaded = null;
};

const byOrder = <T extends { order: number }>(a: T, b: T) => a.order - b.order;

/** The parts, loaded once and sorted by their order; a failed load is tried again on the next call. */
export const loadCustomerDetailParts = (): Promise<CustomerDetailParts> => {
  loading ??= loadParts().then(
    (parts) => {
      loaded = {
        tabs: parts.flatMap((p) => p.tabs ?? []).sort(byOrder),
        actions: parts.flatMap((p) => p.actions ?? []).sort(byOrder),
      };
      return loaded;
    },
    (err: unknown) => {
      loading = null; // the next drawer tries again
      throw err;
    },
  );
  return loading;
};

/**
 * The registered tabs and actions, undefined while their code loads. A part that failed to load
 * throws in render, so the page's error boundary says 页面资源加载失败 as for a page's own chunk.
 */
export const useCustomerDetailParts = (): CustomerDetailParts | undefined => {
  const [parts, setParts] = useState<CustomerDetailParts | null>(loaded);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (parts) return;
    let isLive = true;
    loadCustomerDetailParts().then(
      (p) => isLive && setParts(p),
      (err: unknown) => isLive && setError(err instanceof Error ? err : new Error(String(err))),
    );
    return () => {
      isLive = false;
    };
  }, [parts]);
  if (error) throw error;
  return parts ?? undefined;
};
