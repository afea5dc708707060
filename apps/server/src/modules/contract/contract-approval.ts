import { amountInFigures, CONTRACT_STATUS, SEAL_APPROVAL, SEAL_APPROVAL_TEMPLATE_KIND, VERIFY_STATUS } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import { registerApprovalDoc } from '../approvals/approval-docs';
import { customerNamesOf } from '../customers/customers-for-sales';
import * as repo from './contract.repo';
import { canReadContract, SEAL_DOC_TYPE } from './contract-access';
import { appendAudit } from './contract-audit';
import { openSigning } from './contract-sending';

const RESULT: Record<number, number> = {
  [VERIFY_STATUS.pending]: SEAL_APPROVAL.pending,
  [VERIFY_STATUS.approved]: SEAL_APPROVAL.approved,
};

/**
 * 用印审批 (issue 26): sending a contract whose seal needs approval starts a flow of the approval
 * engine (templates with isOrder 3, doc type contract_seal). Approved: signing opens (the platform
 * applies the seal unless the customer signs first). Rejected or withdrawn: the contract stays 草稿.
 */
export const registerContractApproval = () =>
  registerApprovalDoc(SEAL_DOC_TYPE, {
    label: '合同用印',
    isOrder: SEAL_APPROVAL_TEMPLATE_KIND,
    lockForSubmit: async (tx, actor, docId) => {
      const c = await repo.lockContract(tx, actor.tenantId, docId);
      if (!c || c.status !== CONTRACT_STATUS.draft || c.discardedById !== null || c.sealApproval === SEAL_APPROVAL.pending)
        throw new AppError('APPROVAL_DOC_INVALID');
    },
    onStatus: async (tx, e) => {
      const c = await repo.lockContract(tx, e.tenantId, e.docId);
      if (!c) return undefined;
      const sealApproval = RESULT[e.status] ?? SEAL_APPROVAL.rejected;
      await repo.updateContract(tx, e.tenantId, c.id, { sealApproval, approvalInstanceId: e.instanceId });
      const detail = { 0: '已提交', 1: '已通过', 2: '已驳回', 3: '已撤回' }[e.status] ?? '';
      await appendAudit(tx, { tenantId: e.tenantId, contractId: c.id, action: 'approval', actorName: '审批流程', detail });
      if (e.status === VERIFY_STATUS.approved && c.status === CONTRACT_STATUS.draft && c.discardedById === null)
        await openSigning(tx, { ...c, sealApproval }, '用印审批');
      return undefined;
    },
    summaries: async (db, tenantId, docIds) => {
      const rows = await repo.contractsByIds(db, tenantId, docIds);
      const names = await customerNamesOf(
        db,
        tenantId,
        rows.map((r) => r.customerId),
      );
      return new Map(
        rows.map((c) => {
          const customerName = names.get(c.customerId) ?? '';
          return [
            c.id,
            {
              title: `合同用印 · ${c.contractNo} · ${customerName} · ${amountInFigures(c.amount)}`,
              customerId: c.customerId,
              customerName,
              amount: c.amount,
            },
          ];
        }),
      );
    },
    canRead: async (db, actor, docId) => {
      const c = await repo.findContract(db, actor.tenantId, docId);
      return !!c && (await canReadContract(db, actor, c));
    },
  });
