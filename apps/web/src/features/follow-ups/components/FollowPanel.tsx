import type { CustomerDetail } from '@crm/contracts';
import { Divider } from 'antd';
import { useState } from 'react';
import { FollowForm } from './FollowForm';
import { FollowHistory } from './FollowHistory';
import { StageBar } from './StageBar';

/** The 跟进记录 tab of the customer detail (SPEC §2): stage bar, write a follow-up, history. */
export const FollowPanel = ({ customer }: { customer: CustomerDetail }) => {
  const [category, setCategory] = useState(-1);
  return (
    <div>
      <StageBar cmCtid={customer.cmCtid} cmNid={customer.cmNid} />
      <Divider style={{ margin: '12px 0' }} />
      {/* A saved follow-up refreshes the history (its queries are invalidated), whatever the tab. */}
      <FollowForm customer={customer} />
      <Divider style={{ margin: '16px 0 4px' }} />
      <FollowHistory cmCtid={customer.cmCtid} category={category} onCategory={setCategory} />
    </div>
  );
};
