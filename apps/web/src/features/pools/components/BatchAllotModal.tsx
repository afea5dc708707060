import type { BatchAllotResult } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Checkbox, Form, Modal, Progress, Result, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useButtonLock } from '../../../components/useButtonLock';
import { useJob } from '../../../components/useJob';
import { useBatchAllot } from '../api';
import { StaffPicker } from './StaffPicker';

type Values = { fromCmSid?: number; toCmSids?: number[]; isNodeId: boolean };

/** batchallot: all customers of one staff member (e.g. someone leaving) go evenly to several, with progress. */
export const BatchAllotModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const [form] = Form.useForm<Values>();
  const start = useBatchAllot();
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob(jobId);
  const client = useQueryClient();
  const info = job.data;
  const isDone = info?.status === 'done';
  useEffect(() => {
    if (isDone) void client.invalidateQueries({ queryKey: ['customers'] });
  }, [isDone, client]);

  const [submit] = useButtonLock(async () => {
    if (jobId) return close();
    const v = await form.validateFields().catch(() => null);
    if (!v?.fromCmSid || !v.toCmSids?.length) return;
    try {
      const r = await start.mutateAsync({ fromCmSid: v.fromCmSid, toCmSids: v.toCmSids, isNodeId: v.isNodeId ? 1 : 0 });
      setJobId(r.jobId);
    } catch {
      // shown by the http client
    }
  });
  const close = () => {
    setJobId(null);
    form.resetFields();
    onClose();
  };
  const result = info?.result as unknown as BatchAllotResult | null | undefined;

  return (
    <Modal
      open={open}
      title="批量转移客户"
      width={600}
      okText={jobId ? '完成' : '开始转移'}
      cancelText="取消"
      onOk={submit}
      onCancel={close}
      confirmLoading={start.isPending || info?.status === 'running'}
      destroyOnHidden
    >
      {!jobId ? (
        <Form form={form} name="batchAllotForm" layout="vertical" initialValues={{ isNodeId: false }}>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="原负责人名下的全部客户平均分给接收人（如员工离职交接），超过客户上限的部分留在原负责人名下。"
          />
          <Form.Item label="原负责人" name="fromCmSid" rules={[{ required: true, message: '请选择原负责人' }]}>
            <StaffPicker />
          </Form.Item>
          <Form.Item label="接收人" name="toCmSids" rules={[{ required: true, message: '请选择接收人' }]}>
            <StaffPicker mode="multiple" />
          </Form.Item>
          <Form.Item name="isNodeId" valuePropName="checked">
            <Checkbox>重置客户阶段</Checkbox>
          </Form.Item>
        </Form>
      ) : info?.status === 'failed' ? (
        <Result status="error" title="转移失败" subTitle={info.error} />
      ) : isDone && result ? (
        <Result
          status={result.notAssigned > 0 ? 'warning' : 'success'}
          title={`已转移 ${result.moved} 个客户`}
          subTitle={
            <>
              {result.perStaff.map((p) => `${p.name} ${p.count}个`).join('，')}
              {result.notAssigned > 0 && (
                <Typography.Paragraph type="warning">{result.notAssigned}个客户因接收人达到客户上限未转移</Typography.Paragraph>
              )}
            </>
          }
        />
      ) : (
        <div style={{ padding: '24px 8px' }}>
          <Progress
            percent={info && info.total > 0 ? Math.min(100, Math.floor((info.processed / info.total) * 100)) : 0}
            status="active"
          />
          <Typography.Text type="secondary">
            已转移 {info?.processed ?? 0} / 共 {info?.total ?? 0} 个
          </Typography.Text>
        </div>
      )}
    </Modal>
  );
};
