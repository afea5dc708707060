import type { Db, DbOrTx, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';

/** What a list row says of its document. */
export type DocSummary = { title: string; customerId: number; customerName: string; amount: number };

/**
 * A document type the approval engine can run flows for (orders now, receipts later). The engine
 * owns the flow; the document's module owns what a status means for its document. Every hook
 * runs inside the engine's transaction, after the instance row is locked.
 */
export type ApprovalDocHandler = {
  /** 订单 … */
  label: string;
  /** template flag that marks templates usable for this type (isOrder) */
  isOrder: number;
  /** Locks the document and refuses when the actor may not submit it now (already pending, not his …). */
  lockForSubmit: (tx: Tx, actor: Actor, docId: number) => Promise<void>;
  /**
   * The instance's status changed: 0 started, 1 approved, 2 rejected, 3 withdrawn. Returns the id of
   * the domain event it recorded, delivered by the engine after the commit.
   */
  onStatus: (
    tx: Tx,
    e: { tenantId: number; docId: number; instanceId: number; status: number; staffId: number; at: Date },
  ) => Promise<number | undefined>;
  summaries: (db: DbOrTx, tenantId: number, docIds: number[]) => Promise<Map<number, DocSummary>>;
  /** Whether the actor may read the document by the document's own rules (owner scope, collaborators …). */
  canRead: (db: Db, actor: Actor, docId: number) => Promise<boolean>;
};

const handlers = new Map<string, ApprovalDocHandler>();

export const registerApprovalDoc = (docType: string, handler: ApprovalDocHandler) => {
  handlers.set(docType, handler);
};

export const docHandler = (docType: string): ApprovalDocHandler => {
  const h = handlers.get(docType);
  if (!h) throw new AppError('APPROVAL_DOC_INVALID');
  return h;
};

/** The document type a template serves (isOrder 1 → order). */
export const docTypeOfTemplate = (isOrder: number): string | undefined => {
  for (const [type, h] of handlers) if (h.isOrder === isOrder) return type;
  return undefined;
};
