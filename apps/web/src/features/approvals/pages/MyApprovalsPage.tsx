import { APPROVAL_TAB_LABEL, APPROVAL_TABS, type ApprovalRow } from '@crm/contracts';
import { Badge, Card, Table, type TableColumnsType, Tabs } from 'antd';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { orderDetailSlot, SlotOutlet } from '../../../components/slots';
import { useTablePaging } from '../../../components/useTablePaging';
import { VerifyStatusTag } from '../../../components/VerifyStatusTag';
import { useApprovalCounts, useApprovalList } from '../api';

type Tab = (typeof APPROVAL_TABS)[number];

const columns: TableColumnsType<ApprovalRow> = [
  { title: '审批内容', dataIndex: 'title', ellipsis: true },
  { title: '金额(元)', dataIndex: 'amount', width: 130, align: 'right', render: formatMoney },
  { title: '审批流程', dataIndex: 'templateName', width: 130, ellipsis: true },
  { title: '发起人', dataIndex: 'submitter_name', width: 80 },
  { title: '当前节点', dataIndex: 'current_node_name', width: 110, render: (v: string) => v || '-' },
  { title: '状态', dataIndex: 'status', width: 90, render: (v: number) => <VerifyStatusTag status={v} /> },
  { title: '发起时间', dataIndex: 'created_at', width: 165 },
];

/** 我的审批: 待我审批 / 我已审批 / 抄送我的 / 我发起的; a row opens the order, where 审核 is. */
export const MyApprovalsPage = () => {
  const [tab, setTab] = useState<Tab>('todo');
  const [orderId, setOrderId] = useState<number | null>(null);
  const paging = useTablePaging();
  const counts = useApprovalCounts();
  const list = useApprovalList({ tab, page: paging.page, limit: paging.limit });
  return (
    <Card title="我的审批">
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k as Tab);
          paging.resetPage();
        }}
        items={APPROVAL_TABS.map((t) => ({
          key: t,
          label:
            t === 'todo' ? (
              <Badge count={counts.data?.todo ?? 0} size="small" offset={[8, -2]}>
                {APPROVAL_TAB_LABEL[t]}
              </Badge>
            ) : (
              APPROVAL_TAB_LABEL[t]
            ),
        }))}
      />
      <Table<ApprovalRow>
        rowKey="instanceId"
        columns={columns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        locale={{ emptyText: tab === 'todo' ? '暂无待我审批的事项' : '暂无数据' }}
        onRow={(r) => ({ onClick: () => setOrderId(r.docId), style: { cursor: 'pointer' } })}
        pagination={paging.pagination(list.data?.count ?? 0)}
        scroll={{ x: 900 }}
      />
      <SlotOutlet slot={orderDetailSlot} orderId={orderId} onClose={() => setOrderId(null)} />
    </Card>
  );
};
