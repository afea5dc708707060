/** The approval (verify) status of an order, a receipt plan or a receipt, as a coloured tag. */
import { VERIFY_STATUS_LABEL } from '@crm/contracts';
import { Tag } from 'antd';

const COLOR: Record<number, string> = { [-1]: 'default', 0: 'processing', 1: 'success', 2: 'error', 3: 'warning' };

/** 待提交 / 待审核 / 已通过 / 已驳回 / 已撤回. */
export const VerifyStatusTag = ({ status }: { status: number }) => (
  <Tag color={COLOR[status] ?? 'default'}>{VERIFY_STATUS_LABEL[status] ?? '-'}</Tag>
);
