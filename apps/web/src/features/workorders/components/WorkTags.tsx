import { WORK_PRIORITY_LABEL, WORK_STATUS_LABEL } from '@crm/contracts';
import { Tag } from 'antd';

const PRIORITY_COLOR: Record<number, string> = { 1: 'default', 2: 'blue', 3: 'orange', 4: 'red' };

/** 低 / 普通 / 高 / 紧急. */
export const PriorityTag = ({ priority }: { priority: number }) => (
  <Tag color={PRIORITY_COLOR[priority] ?? 'default'}>{WORK_PRIORITY_LABEL[priority] ?? '-'}</Tag>
);

/** 未完结 / 已完结 (where it is in its flow is the stage's tag). */
export const WorkStatusTag = ({ status }: { status: number }) => (
  <Tag color={status === 1 ? 'success' : 'processing'}>{WORK_STATUS_LABEL[status] ?? '-'}</Tag>
);

/** Past due and still open. */
export const OverdueTag = ({ overdue }: { overdue: boolean }) =>
  overdue ? (
    <Tag color="red" data-testid="overdue-tag">
      已超时
    </Tag>
  ) : null;
