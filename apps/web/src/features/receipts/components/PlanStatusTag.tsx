import { PLAN_STATUS_LABEL } from '@crm/contracts';
import { Tag } from 'antd';

const COLOR: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error' };

/** 未回款 / 部分回款 / 已回款 / 已逾期 (derived by the server). */
export const PlanStatusTag = ({ status }: { status: number }) => (
  <Tag color={COLOR[status] ?? 'default'}>{PLAN_STATUS_LABEL[status] ?? '-'}</Tag>
);
