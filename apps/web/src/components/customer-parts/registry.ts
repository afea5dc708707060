/**
 * What other features add to the customer screens (contacts, follow-ups, orders, receipts, work
 * orders, pools): the detail drawer's tabs and action buttons, the list's batch-bar buttons. Each
 * feature describes its part in its own folder (customerParts.tsx), app/customerParts.ts registers
 * the loader once, and the screens load the parts with their first use (not in the entry chunk).
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

export type CustomerBatchActionProps = {
  /** the list (mine, allot, subscribe, never, seas): each batch action decides where it shows */
  kind: string;
  /** the customer ids checked in the table */
  selected: number[];
  clearSelection: () => void;
};

/** Buttons of a customer list's batch bar (before the list's own 批量修改). */
export type CustomerBatchAction = {
  key: string;
  order: number;
  Actions: ComponentType<CustomerBatchActionProps>;
};

/** What one feature adds to the customer screens. */
export type CustomerPart = {
  tabs?: CustomerDetailTab[];
  actions?: CustomerDetailAction[];
  batchActions?: CustomerBatchAction[];
};

export type CustomerParts = { tabs: CustomerDetailTab[]; actions: CustomerDetailAction[]; batchActions: CustomerBatchAction[] };

let loadParts: () => Promise<CustomerPart[]> = async () => [];
let loading: Promise<CustomerParts> | null = null;
let loaded: CustomerParts | null = null;

/** Called once at startup (app/customerParts.ts) with the loader of every feature's part. */
export const registerCustomerParts = (load: () => Promise<CustomerPart[]>) => {
  loadParts = load;
  loading = null;
  loaded = null;
};

const byOrder = <T extends { order: number }>(a: T, b: T) => a.order - b.order;

/** The parts, loaded once and sorted by their order; a failed load is tried again on the next call. */
export const loadCustomerParts = (): Promise<CustomerParts> => {
  loading ??= loadParts().then(
    (parts) => {
      loaded = {
        tabs: parts.flatMap((p) => p.tabs ?? []).sort(byOrder),
        actions: parts.flatMap((p) => p.actions ?? []).sort(byOrder),
        batchActions: parts.flatMap((p) => p.batchActions ?? []).sort(byOrder),
      };
      return loaded;
    },
    (err: unknown) => {
      loading = null; // the next customer screen tries again
      throw err;
    },
  );
  return loading;
};

/**
 * The registered tabs and actions, undefined while their code loads. A part that failed to load
 * throws in render, so the page's error boundary says 页面资源加载失败 as for a page's own chunk.
 */
export const useCustomerParts = (): CustomerParts | undefined => {
  const [parts, setParts] = useState<CustomerParts | null>(loaded);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (parts) return;
    let isLive = true;
    loadCustomerParts().then(
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
