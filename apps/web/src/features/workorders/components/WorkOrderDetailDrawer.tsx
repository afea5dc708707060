import { Card, Descriptions, Drawer, Result, Skeleton, Space, Steps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { OrderDetailDrawer } from '../../orders/components/OrderDetailDrawer';
import { useWorkOrderDetail } from '../api';
import { WorkOrderActions } from './WorkOrderActions';
import { WorkOrderCommentBox, WorkOrderThread } from './WorkOrderThread';
import { OverdueTag, PriorityTag, WorkStatusTag } from './WorkTags';

type Props = { id: number | null; onClose: () => void };

/**
 * 工单详情 (SPEC §2, opened from the drawer's 工单 tab and from 工单管理): the facts, the type's
 * stages with the current one, the actions the caller may take, the thread and a comment box.
 */
export const WorkOrderDetailDrawer = ({ id, onClose }: Props) => {
  const detail = useWorkOrderDetail(id);
  const [orderId, setOrderId] = useState<number | null>(null);
  const d = detail.data;
  const stages = d ? [...d.stages].sort((a, b) => a.sort - b.sort) : [];
  const at = d ? stages.findIndex((s) => s.id === d.node_id) : -1;

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      width={860}
      destroyOnHidden
      title={
        d ? (
          <Space size={8}>
            <span>{d.workOrderName}</span>
            {d.status === 1 ? <WorkStatusTag status={1} /> : <Tag color="processing">{d.node_name}</Tag>}
            <OverdueTag overdue={d.overdue} />
          </Space>
        ) : (
          '工单详情'
        )
      }
      extra={d && <WorkOrderActions detail={d} />}
    >
      {detail.isError ? (
        <Result status="warning" title="无法查看该工单" subTitle="工单不存在、已被删除，或不在您的数据范围内" />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          <Descriptions column={3} size="small" bordered>
            <Descriptions.Item label="客户">{d.customer_name || '未命名'}</Descriptions.Item>
            <Descriptions.Item label="工单类型">{d.type_name}</Descriptions.Item>
            <Descriptions.Item label="优先级">
              <PriorityTag priority={d.priority} />
            </Descriptions.Item>
            <Descriptions.Item label="处理人">{d.follow_staff_id_name}</Descriptions.Item>
            <Descriptions.Item label="截止时间">
              <Space size={4}>
                <span>{d.due_at || '-'}</span>
                <OverdueTag overdue={d.overdue} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <Space size={4}>
                <span data-testid="work-status">
                  <WorkStatusTag status={d.status} />
                </span>
                <Typography.Text type="secondary">阶段</Typography.Text>
                <span data-testid="work-stage">{d.node_name || '-'}</span>
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="创建人">{d.creator_name}</Descriptions.Item>
            <Descriptions.Item label="创建时间">{d.created_at}</Descriptions.Item>
            <Descriptions.Item label="最后更新">{d.last_time}</Descriptions.Item>
            <Descriptions.Item label="关联订单" span={3}>
              {d.order_id > 0 ? <Typography.Link onClick={() => setOrderId(d.order_id)}>查看订单</Typography.Link> : '-'}
            </Descriptions.Item>
            <Descriptions.Item label="描述" span={3}>
              <span style={{ whiteSpace: 'pre-wrap' }}>{d.description || '-'}</span>
            </Descriptions.Item>
          </Descriptions>
          <Card size="small" title="处理进度">
            <Steps
              size="small"
              current={at}
              status={d.status === 1 ? 'finish' : 'process'}
              items={stages.map((s) => ({ title: s.name, content: s.rollback ? '可回退' : undefined }))}
            />
          </Card>
          <Card size="small" title="处理记录">
            <WorkOrderThread events={d.events} />
            {d.can.comment && <WorkOrderCommentBox id={d.id} />}
          </Card>
        </Space>
      )}
      <OrderDetailDrawer orderId={orderId} onClose={() => setOrderId(null)} />
    </Drawer>
  );
};
