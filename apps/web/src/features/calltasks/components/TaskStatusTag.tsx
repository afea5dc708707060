import { CALLTASK_STATUS_LABEL } from '@crm/contracts';
import { Tag } from 'antd';

const COLOR: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'warning', 3: 'error', 4: 'success' };

/** A task's lifecycle: 未开始, 进行中, 已暂停, 已停止, 已完成. */
export const TaskStatusTag = ({ status }: { status: number }) => (
  <Tag color={COLOR[status] ?? 'default'}>{CALLTASK_STATUS_LABEL[status] ?? '-'}</Tag>
);
