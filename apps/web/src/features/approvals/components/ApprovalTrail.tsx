import { type ApprovalInstance, NODE_MODE_LABEL, NODE_TYPE, STEP_STATE, STEP_STATE_LABEL } from '@crm/contracts';
import { Empty, Space, Tag, Timeline, Typography } from 'antd';
import { unixText } from '../../../components/shanghaiTime';

const STATE_COLOR: Record<number, string> = {
  [STEP_STATE.waiting]: 'processing',
  [STEP_STATE.approved]: 'success',
  [STEP_STATE.rejected]: 'error',
  [STEP_STATE.cc]: 'default',
  [STEP_STATE.idle]: 'default',
};

/** The approval trail: submission, then each node with its staff and their actions and remarks. */
export const ApprovalTrail = ({ instance }: { instance: ApprovalInstance | null }) => {
  if (!instance) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未提交审批" />;
  const items = [
    {
      color: 'blue',
      children: (
        <>
          <Typography.Text strong>{instance.submitter.name}</Typography.Text> 发起审批
          <Typography.Text type="secondary">
            {' '}
            · {instance.templateName}（第{instance.version}版）
          </Typography.Text>
          <div>
            <Typography.Text type="secondary">{instance.created_at}</Typography.Text>
          </div>
        </>
      ),
    },
    ...instance.nodes.map((n) => {
      const isApprover = n.type === NODE_TYPE.approver;
      const color =
        n.state === STEP_STATE.approved
          ? 'green'
          : n.state === STEP_STATE.rejected
            ? 'red'
            : n.state === STEP_STATE.waiting
              ? 'blue'
              : 'gray';
      return {
        color,
        children: (
          <>
            <Space size={6}>
              <Typography.Text strong>{n.name || (isApprover ? '审批人' : '抄送人')}</Typography.Text>
              <Tag>{isApprover ? '审批' : '抄送'}</Tag>
              {isApprover && n.staffS.length > 1 && <Tag color="purple">{NODE_MODE_LABEL[n.mode]}</Tag>}
            </Space>
            {n.staffS.map((s) => (
              <div key={s.id} style={{ marginTop: 4 }}>
                <Space size={6} wrap>
                  <span>{s.name}</span>
                  <Tag color={STATE_COLOR[s.actionState]}>{STEP_STATE_LABEL[s.actionState] ?? '-'}</Tag>
                  {s.actionTime > 0 && <Typography.Text type="secondary">{unixText(s.actionTime)}</Typography.Text>}
                </Space>
                {s.remarks && (
                  <div>
                    <Typography.Text type="secondary">意见：{s.remarks}</Typography.Text>
                  </div>
                )}
              </div>
            ))}
          </>
        ),
      };
    }),
    ...instance.actions
      .filter((a) => a.action === 'withdraw')
      .map((a) => ({
        color: 'orange',
        children: (
          <>
            <Typography.Text strong>{a.staff_name}</Typography.Text> 撤回了审批
            <div>
              <Typography.Text type="secondary">{a.created_at}</Typography.Text>
            </div>
          </>
        ),
      })),
  ];
  return <Timeline items={items} />;
};
