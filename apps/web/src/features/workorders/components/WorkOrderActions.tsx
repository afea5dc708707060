import { ArrowRightOutlined, EditOutlined, RollbackOutlined, SwapOutlined } from '@ant-design/icons';
import { WORK_ORDER_LIMITS, type WorkOrderDetail } from '@crm/contracts';
import { App, Button, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useTransferWorkOrder, useTransitionWorkOrder } from '../api';
import { WorkOrderFormModal } from './WorkOrderFormModal';
import { stageMoves } from './workOrderRules';

type Props = { detail: WorkOrderDetail };

/** 推进 / 回退 / 编辑 / 转交, each shown when the server says the caller may (detail.can). */
export const WorkOrderActions = ({ detail: d }: Props) => {
  const { message } = App.useApp();
  const transition = useTransitionWorkOrder();
  const transfer = useTransferWorkOrder();
  const [remark, setRemark] = useState('');
  const [isMoveOpen, setMoveOpen] = useState(false);
  const [isEditOpen, setEditOpen] = useState(false);
  const [isRollbackOpen, setRollbackOpen] = useState(false);
  const [isTransferOpen, setTransferOpen] = useState(false);
  const [rollbackForm] = Form.useForm<{ stage_id?: number; remark?: string }>();
  const [transferForm] = Form.useForm<{ handler_id?: number; remark?: string }>();

  const { stages, current, next, earlier } = stageMoves(d);
  const stageIsLast = current + 1 === stages.length - 1;
  const canRollback = earlier.length > 0;

  const run = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
    } catch {
      return false; // the http client has shown the server's message
    }
    message.success(done);
    return true;
  };

  const moveOn = async () => {
    if (!next) return;
    if (await run(() => transition.mutateAsync({ id: d.id, stage_id: next.id, remark: remark.trim() }), '操作成功')) {
      setRemark('');
      setMoveOpen(false);
    }
  };

  const rollBack = async () => {
    const v = await rollbackForm.validateFields().catch(() => null);
    if (!v) return;
    const ok = await run(
      () => transition.mutateAsync({ id: d.id, stage_id: v.stage_id, remark: (v.remark ?? '').trim() }),
      '已回退',
    );
    if (ok) setRollbackOpen(false);
  };

  const handOver = async () => {
    const v = await transferForm.validateFields().catch(() => null);
    if (!v) return;
    const ok = await run(
      () => transfer.mutateAsync({ id: d.id, handler_id: v.handler_id, remark: (v.remark ?? '').trim() }),
      '转交成功',
    );
    if (ok) setTransferOpen(false);
  };

  return (
    <Space wrap>
      {next && (
        <Button type="primary" icon={<ArrowRightOutlined />} onClick={() => setMoveOpen(true)}>
          推进到「{next.name}」
        </Button>
      )}
      {canRollback && (
        <Button icon={<RollbackOutlined />} onClick={() => setRollbackOpen(true)}>
          回退
        </Button>
      )}
      {d.can.edit && (
        <Button icon={<EditOutlined />} onClick={() => setEditOpen(true)}>
          编辑
        </Button>
      )}
      {d.can.transfer && (
        <Button icon={<SwapOutlined />} onClick={() => setTransferOpen(true)}>
          转交
        </Button>
      )}
      <WorkOrderFormModal
        key={`edit-${isEditOpen}`}
        mode="edit"
        open={isEditOpen}
        detail={d}
        onClose={() => setEditOpen(false)}
      />
      {next && (
        // A window, not a popover: a popover anchored in the drawer's header re-aligned while the thread
        // below it loaded and moved away under the pointer (the e2e run clicked its 确定 three times).
        <Modal
          title="推进工单"
          open={isMoveOpen}
          onOk={moveOn}
          onCancel={() => setMoveOpen(false)}
          okText="确定"
          cancelText="取消"
          okButtonProps={{ loading: transition.isPending }}
          destroyOnHidden
        >
          <p style={{ marginTop: 16 }}>
            从「{d.node_name}」推进到「{next.name}」{stageIsLast ? '，工单将完结' : ''}
          </p>
          <Input.TextArea
            value={remark}
            onChange={(e) => setRemark(e.target.value)}
            placeholder="备注（选填）"
            aria-label="推进备注"
            maxLength={WORK_ORDER_LIMITS.remark}
            showCount
            rows={3}
          />
        </Modal>
      )}
      <Modal
        title="回退工单"
        open={isRollbackOpen}
        onOk={rollBack}
        onCancel={() => setRollbackOpen(false)}
        okText="确定"
        cancelText="取消"
        okButtonProps={{ loading: transition.isPending }}
        destroyOnHidden
      >
        <Form
          form={rollbackForm}
          name="workRollbackForm"
          layout="vertical"
          preserve={false}
          style={{ marginTop: 16 }}
          // the usual case is one step back: the stage just before this one is chosen
          initialValues={{ stage_id: earlier.at(-1)?.id }}
        >
          <Form.Item label="回退到" name="stage_id" rules={[{ required: true, message: '请选择阶段' }]}>
            <Select placeholder="请选择阶段" options={earlier.map((s) => ({ value: s.id, label: s.name }))} />
          </Form.Item>
          <Form.Item label="备注" name="remark">
            <Input.TextArea rows={3} maxLength={WORK_ORDER_LIMITS.remark} showCount placeholder="回退原因（选填）" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        title="转交工单"
        open={isTransferOpen}
        onOk={handOver}
        onCancel={() => setTransferOpen(false)}
        okText="确定"
        cancelText="取消"
        okButtonProps={{ loading: transfer.isPending }}
        destroyOnHidden
      >
        <Form form={transferForm} name="workTransferForm" layout="vertical" preserve={false} style={{ marginTop: 16 }}>
          <Form.Item label="新处理人" name="handler_id" rules={[{ required: true, message: '请选择处理人' }]}>
            <StaffSearchSelect placeholder="请选择处理人" />
          </Form.Item>
          <Form.Item label="备注" name="remark">
            <Input.TextArea rows={3} maxLength={WORK_ORDER_LIMITS.remark} showCount placeholder="转交说明（选填）" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
};
