import { LEAD_STATUS_LABEL } from '@crm/contracts';
import { Tag } from 'antd';

/** 存续 green, 注销 grey, 吊销 red (issue 28). */
const COLOR: Record<number, string> = { 1: 'success', 2: 'default', 3: 'error' };

export const CompanyStatusTag = ({ status }: { status: number }) => (
  <Tag color={COLOR[status] ?? 'default'} style={{ marginInlineEnd: 0 }}>
    {LEAD_STATUS_LABEL[status] ?? '未知'}
  </Tag>
);
