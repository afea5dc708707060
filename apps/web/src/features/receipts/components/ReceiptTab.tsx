import type { PlanRow, Repayment } from '@crm/contracts';
import {
  App,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Row,
  Skeleton,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { VerifyStatusTag } from '../../../components/VerifyStatusTag';
import { useDeletePlan, useDeleteReceipt, useReceiptSummary } from '../api';
import { PlanFormModal } from './PlanFormModal';
import { PlanStatusTag } from './PlanStatusTag';
import { ReceiptFormModal } from './ReceiptFormModal';

type Props = { customerId?: number; orderId?: number; canPlan: boolean; canReceipt: boolean };

/** 回款 tab (SPEC §2): received and pending totals, each plan with its status and its repayments. */
export const ReceiptTab = ({ customerId, orderId, canPlan, canReceipt }: Props) => {
  const summary = useReceiptSummary(orderId ? { order_id: orderId } : { customer_id: customerId });
  const { modal, message } = App.useApp();
  const delPlan = useDeletePlan();
  const delReceipt = useDeleteReceipt();
  const [plan, setPlan] = useState<PlanRow | null>(null);
  const [receipt, setReceipt] = useState<Repayment | null>(null);
  const [newFor, setNewFor] = useState<PlanRow | null>(null);
  const s = summary.data;
  const cid = customerId ?? s?.plan_collection[0]?.customer_id ?? 0;

  const confirmDelete = (title: string, run: () => Promise<unknown>) =>
    modal.confirm({
      title,
      content: '删除后不可恢复',
      okText: '删除',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await run();
        } catch {
          return; // the http client has shown the server's message
        }
        message.success('删除成功');
      },
    });

  const columns: TableColumnsType<Repayment> = [
    { title: '回款金额(元)', dataIndex: 'amount', width: 130, align: 'right', render: formatMoney },
    { title: '回款日期', dataIndex: 'repayment_at', width: 110 },
    { title: '付款方式', dataIndex: 'pay_type_name', width: 100 },
    {
      title: '审批状态',
      dataIndex: 'verify_status',
      width: 100,
      render: (v: number) => (v === -1 ? '无需审批' : <VerifyStatusTag status={v} />),
    },
    { title: '备注', dataIndex: 'remark', ellipsis: true, render: (v: string) => v || '-' },
    ...(canReceipt
      ? [
          {
            title: '操作',
            key: 'op',
            width: 110,
            render: (_: unknown, r: Repayment) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setReceipt(r)}>
                  编辑
                </Button>
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() => confirmDelete('确定删除该回款吗？', () => delReceipt.mutateAsync({ id: r.id }))}
                >
                  删除
                </Button>
              </Space>
            ),
          },
        ]
      : []),
  ];

  if (!s) return <Skeleton active paragraph={{ rows: 4 }} />;
  return (
    <>
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col span={8}>
          <Statistic title="计划回款(元)" value={formatMoney(s.plan_amount_sum)} />
        </Col>
        <Col span={8}>
          <Statistic title="已回款(元)" value={formatMoney(s.repaid_amount_sum)} valueStyle={{ color: '#389e0d' }} />
        </Col>
        <Col span={8}>
          <Statistic
            title="待回款(元)"
            value={formatMoney(Math.max(0, s.plan_amount_sum - s.repaid_amount_sum))}
            valueStyle={{ color: '#d46b08' }}
          />
        </Col>
      </Row>
      {s.plan_collection.length === 0 && <Empty description="暂无回款计划" />}
      <Flex vertical gap={12}>
        {s.plan_collection.map((p) => (
          <Card
            key={p.id}
            size="small"
            data-testid="receipt-plan"
            title={
              <Space size={12} wrap>
                <PlanStatusTag status={p.status} />
                <span>计划 ¥{formatMoney(p.amount)}</span>
                <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
                  计划日期 {p.plan_at}　已回 ¥{formatMoney(p.repaid_amount_sum)}　订单：{p.product_order.name || p.order_id}
                </Typography.Text>
              </Space>
            }
            extra={
              <Space size={0}>
                {canReceipt && p.repaid_amount_sum < p.amount && (
                  <Button type="link" size="small" onClick={() => setNewFor(p)}>
                    回款
                  </Button>
                )}
                {canPlan && (
                  <>
                    <Button type="link" size="small" onClick={() => setPlan(p)}>
                      编辑
                    </Button>
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() => confirmDelete('确定删除该回款计划吗？', () => delPlan.mutateAsync({ id: p.id }))}
                    >
                      删除
                    </Button>
                  </>
                )}
              </Space>
            }
          >
            {p.remark && <Typography.Paragraph type="secondary">备注：{p.remark}</Typography.Paragraph>}
            <Table<Repayment>
              size="small"
              rowKey="id"
              columns={columns}
              dataSource={p.product_order.product_order_repayments}
              pagination={false}
              locale={{ emptyText: '暂无回款记录' }}
            />
          </Card>
        ))}
      </Flex>
      <PlanFormModal open={plan !== null} customerId={cid} plan={plan} onClose={() => setPlan(null)} />
      <ReceiptFormModal open={receipt !== null} customerId={cid} receipt={receipt} onClose={() => setReceipt(null)} />
      <ReceiptFormModal
        open={newFor !== null}
        customerId={cid}
        orderId={newFor?.order_id}
        planId={newFor?.id}
        onClose={() => setNewFor(null)}
      />
    </>
  );
};
