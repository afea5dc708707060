import type { OrderDetail } from '@crm/contracts';
import { App, Button, Card, Descriptions, Drawer, Empty, Image, Result, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { orderContractsSlot, orderReceiptsSlot, SlotOutlet } from '../../../components/slots';
import { VerifyStatusTag } from '../../../components/VerifyStatusTag';
import { hasPermission, useSession } from '../../../stores/session';
import { ApprovalTrail } from '../../approvals/components/ApprovalTrail';
import { useOrderDetail, useWithdrawOrder } from '../api';
import { CooperatorsModal, TransferModal, VerifyModal } from './OrderActionModals';
import { SUMMARY_NA } from './orderLines';
import { SubmitApprovalModal } from './SubmitApprovalModal';

type Props = { orderId: number | null; onClose: () => void };
type Open = 'verify' | 'cooperators' | 'transfer' | 'submit' | null;

const Products = ({ d }: { d: OrderDetail }) => (
  <Table
    size="small"
    rowKey={(l) => `${l.product_id}-${l.spec_name}`}
    pagination={false}
    dataSource={d.product}
    columns={[
      {
        title: '产品名称',
        key: 'name',
        render: (_, l) => (
          <>
            {l.product_name}
            {l.spec_name && <Typography.Text type="secondary">（{l.spec_name}）</Typography.Text>}
          </>
        ),
      },
      {
        title: '成交价(元)',
        dataIndex: 'cost_price',
        align: 'right',
        render: (v: number, l) => (
          <Space size={4}>
            {l.is_below_min === 1 && <Tag color="red">低于最低价</Tag>}
            {formatMoney(v)}
          </Space>
        ),
      },
      { title: '最低价(元)', dataIndex: 'stand_price', align: 'right', render: formatMoney },
      { title: '数量', dataIndex: 'num', align: 'right', width: 80 },
      { title: '小计(元)', dataIndex: 'total_price', align: 'right', render: formatMoney },
    ]}
    summary={() => (
      // SPEC §9: the summary row is labelled 总价, its non-numeric columns (unit prices) say N/A
      <Table.Summary.Row>
        <Table.Summary.Cell index={0}>
          <Typography.Text strong>总价</Typography.Text>
        </Table.Summary.Cell>
        <Table.Summary.Cell index={1} align="right">
          {SUMMARY_NA}
        </Table.Summary.Cell>
        <Table.Summary.Cell index={2} align="right">
          {SUMMARY_NA}
        </Table.Summary.Cell>
        <Table.Summary.Cell index={3} align="right">
          {d.product.reduce((n, l) => n + l.num, 0)}
        </Table.Summary.Cell>
        <Table.Summary.Cell index={4} align="right">
          <Typography.Text strong type="danger">
            ¥{formatMoney(d.total_price)}
          </Typography.Text>
        </Table.Summary.Cell>
      </Table.Summary.Row>
    )}
  />
);

/**
 * 订单详情 (SPEC §2): the order's facts, base info, images, products with 总价 and the approval
 * trail; actions as the server allows them: 审核, 撤回, 提交审批, 选择协同人, 转移订单.
 */
export const OrderDetailDrawer = ({ orderId, onClose }: Props) => {
  const detail = useOrderDetail(orderId);
  const withdraw = useWithdrawOrder();
  const { modal, message } = App.useApp();
  const [open, setOpen] = useState<Open>(null);
  const canTransfer = hasPermission(
    useSession((s) => s.permissions),
    'frontend/order/transfer',
  );
  const d = detail.data;
  const ids = orderId === null ? [] : [orderId];

  const confirmWithdraw = () =>
    modal.confirm({
      title: '撤回提示',
      content: '确定要撤回该订单的审批吗？撤回后可修改审批信息重新提交。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await withdraw.mutateAsync({ order_id: orderId as number });
        } catch {
          return;
        }
        message.success('操作成功');
      },
    });

  return (
    <Drawer
      open={orderId !== null}
      onClose={onClose}
      width={900}
      destroyOnHidden
      title={
        <Space>
          <span>订单详情</span>
          {d && <VerifyStatusTag status={d.verify_status} />}
          {d?.is_below_min === 1 && <Tag color="red">含低于最低价产品</Tag>}
        </Space>
      }
      extra={
        d && (
          <Space>
            {d.can_verify === 1 && (
              <Button type="primary" onClick={() => setOpen('verify')}>
                审核
              </Button>
            )}
            {d.can_withdraw === 1 && <Button onClick={confirmWithdraw}>撤回</Button>}
            {d.can_submit === 1 && (
              <Button type="primary" ghost onClick={() => setOpen('submit')}>
                提交审批
              </Button>
            )}
            {canTransfer && (
              <>
                <Button onClick={() => setOpen('cooperators')}>选择协同人</Button>
                <Button onClick={() => setOpen('transfer')}>转移订单</Button>
              </>
            )}
          </Space>
        )
      }
    >
      {detail.isError ? (
        <Result status="warning" title="无法查看该订单" subTitle="订单不存在，或不在您的数据范围内" />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={2} styles={{ label: { width: 110 } }}>
            <Descriptions.Item label="客户">{d.customer.name || '未命名'}</Descriptions.Item>
            <Descriptions.Item label="联系人">{d.customer.contact_name || '-'}</Descriptions.Item>
            <Descriptions.Item label="联系方式">{d.customer.contact_phone || '-'}</Descriptions.Item>
            <Descriptions.Item label="订单金额">
              <Typography.Text strong>¥{formatMoney(d.customer.cost_price)}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="成交时间">{d.customer.deal_time || '-'}</Descriptions.Item>
            <Descriptions.Item label="创建人">{d.customer.create_user.linkman || '-'}</Descriptions.Item>
            <Descriptions.Item label="创建时间">{d.customer.created_at}</Descriptions.Item>
            <Descriptions.Item label="审核状态">
              <VerifyStatusTag status={d.verify_status} />
            </Descriptions.Item>
            <Descriptions.Item label="负责人">{d.owner.linkman || '-'}</Descriptions.Item>
            <Descriptions.Item label="协同人">
              {d.cooperators.length === 0 ? '-' : d.cooperators.map((c) => <Tag key={c.staff_id}>{c.linkman}</Tag>)}
            </Descriptions.Item>
          </Descriptions>
          <Card size="small" title="基本信息">
            <Descriptions size="small" column={2}>
              {d.base.map((b) => (
                <Descriptions.Item key={b.key} label={b.key}>
                  {b.value || '-'}
                </Descriptions.Item>
              ))}
              {!d.base.some((b) => b.key === '备注') && (
                <Descriptions.Item label="备注" span={2}>
                  <span style={{ whiteSpace: 'pre-wrap' }}>{d.remark || '-'}</span>
                </Descriptions.Item>
              )}
            </Descriptions>
            <Typography.Text type="secondary">图片：</Typography.Text>
            {d.images.length === 0 ? (
              <Typography.Text type="secondary">无</Typography.Text>
            ) : (
              <Image.PreviewGroup>
                <Space wrap style={{ marginTop: 8, display: 'flex' }}>
                  {d.images.map((img) => (
                    <Image key={img.id} src={img.url} alt={img.name} width={88} height={88} style={{ objectFit: 'cover' }} />
                  ))}
                </Space>
              </Image.PreviewGroup>
            )}
          </Card>
          <Card size="small" title="产品">
            {d.product.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> : <Products d={d} />}
          </Card>
          {d.verify_status === 1 && <SlotOutlet slot={orderContractsSlot} customerId={d.customer_id} orderId={d.order_id} />}
          {d.verify_status === 1 && <SlotOutlet slot={orderReceiptsSlot} customerId={d.customer_id} orderId={d.order_id} />}
          <Card size="small" title="审批记录">
            <ApprovalTrail instance={d.approval} />
          </Card>
        </Space>
      )}
      <VerifyModal open={open === 'verify'} orderIds={ids} approval={d?.approval ?? null} onClose={() => setOpen(null)} />
      <CooperatorsModal
        open={open === 'cooperators'}
        orderIds={ids}
        current={d?.cooperators ?? []}
        onClose={() => setOpen(null)}
      />
      <TransferModal open={open === 'transfer'} orderIds={ids} onClose={() => setOpen(null)} />
      {orderId !== null && <SubmitApprovalModal open={open === 'submit'} orderId={orderId} onClose={() => setOpen(null)} />}
    </Drawer>
  );
};
