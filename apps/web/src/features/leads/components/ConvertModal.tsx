import { LEAD_LIMITS, type LeadConvertResult } from '@crm/contracts';
import { Alert, App, Form, List, Modal, Radio, Result, Select, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { doneFooter } from '../../../components/doneFooter';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useButtonLock } from '../../../components/useButtonLock';
import { useConvertCheck, useConvertLeads, useVisiblePoolOptions } from '../api';
import { existingText } from './leadText';

type Assign = 'self' | 'staff' | 'pool';
type Props = {
  open: boolean;
  leads: { id: number; name: string }[];
  onClose: () => void;
  /** after customers were made (the caller clears his selection, refreshes the card) */
  onDone?: (result: LeadConvertResult) => void;
};

/**
 * 转为客户: who receives them (me, a staff member, a pool), the leads that already are customers
 * here and whose (skipped), and the daily quota left.
 */
export const ConvertModal = ({ open, leads, onClose, onDone }: Props) => {
  const { message } = App.useApp();
  const ids = leads.map((l) => l.id);
  const check = useConvertCheck(ids, open);
  const convert = useConvertLeads();
  const [assignTo, setAssignTo] = useState<Assign>('self');
  const [cmSid, setCmSid] = useState<number | undefined>();
  const [cmHsid, setCmHsid] = useState<number | undefined>();
  const [result, setResult] = useState<LeadConvertResult | null>(null);
  const pools = useVisiblePoolOptions(open && assignTo === 'pool');

  useEffect(() => {
    if (!open) {
      setResult(null);
      setAssignTo('self');
      setCmSid(undefined);
      setCmHsid(undefined);
    }
  }, [open]);

  const duplicates = (check.data?.list ?? []).filter((d) => d.existing.length > 0);
  const quotaLeft = result?.quotaLeft ?? check.data?.quotaLeft;
  const fresh = leads.length - duplicates.length;

  const [submit, isLocked] = useButtonLock(async () => {
    if (assignTo === 'staff' && !cmSid) return void message.warning('请选择员工');
    if (assignTo === 'pool' && !cmHsid) return void message.warning('请选择公海');
    try {
      const r = await convert.mutateAsync({ ids, assignTo, cmSid, cmHsid });
      setResult(r);
      onDone?.(r);
    } catch {
      // the http client has shown the server's message
    }
  });

  const body = () => {
    if (result)
      return (
        <Result
          status={result.created.length > 0 ? 'success' : 'warning'}
          title={result.created.length > 0 ? `已转为客户 ${result.created.length} 家` : '没有新转为客户的企业'}
          subTitle={
            <>
              {result.skipped.map((d) => (
                <div key={d.id}>
                  {d.name}：
                  {d.existing.length > 0
                    ? `已是客户（${d.existing.map(existingText).join('；')}），已跳过`
                    : d.reason || '未能转为客户'}
                </div>
              ))}
              <div>今日剩余可转 {result.quotaLeft} 家</div>
            </>
          }
        />
      );
    return (
      <>
        <Typography.Paragraph>
          已选择 <b>{leads.length}</b> 家企业
          {leads.length === 1 ? `：${leads[0].name}` : ''}
          {quotaLeft !== undefined && (
            <Typography.Text type="secondary" style={{ marginInlineStart: 12 }}>
              今日剩余可转 {quotaLeft} 家
            </Typography.Text>
          )}
        </Typography.Paragraph>
        {check.isLoading ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : (
          duplicates.length > 0 && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              title={`${duplicates.length} 家已是本公司客户，将跳过${fresh > 0 ? `，其余 ${fresh} 家转为客户` : ''}`}
              description={
                <List
                  size="small"
                  style={{ maxHeight: 160, overflow: 'auto' }}
                  dataSource={duplicates}
                  renderItem={(d) => (
                    <List.Item style={{ paddingInline: 0 }}>
                      {d.name}：{d.existing.map(existingText).join('；')}
                    </List.Item>
                  )}
                />
              }
            />
          )
        )}
        <Form layout="vertical">
          <Form.Item label="分配给">
            <Radio.Group
              value={assignTo}
              onChange={(e) => setAssignTo(e.target.value)}
              options={[
                { value: 'self', label: '我自己' },
                { value: 'staff', label: '指定员工' },
                { value: 'pool', label: '公海' },
              ]}
            />
          </Form.Item>
          {assignTo === 'staff' && (
            <Form.Item label="员工" required>
              <StaffSearchSelect value={cmSid} onChange={(v) => setCmSid(v as number)} style={{ width: 280 }} />
            </Form.Item>
          )}
          {assignTo === 'pool' && (
            <Form.Item label="公海" required>
              <Select
                style={{ width: 280 }}
                placeholder="请选择公海"
                loading={pools.isLoading}
                value={cmHsid}
                onChange={setCmHsid}
                options={(pools.data ?? []).map((p) => ({ value: p.cmHsid, label: p.name }))}
              />
            </Form.Item>
          )}
        </Form>
      </>
    );
  };

  return (
    <Modal
      title="转为客户"
      open={open}
      width={600}
      onCancel={onClose}
      okText="确定转为客户"
      okButtonProps={{
        loading: convert.isPending,
        disabled: isLocked || leads.length === 0 || leads.length > LEAD_LIMITS.maxSelect,
      }}
      onOk={submit}
      footer={result ? doneFooter(onClose) : undefined}
      destroyOnHidden
    >
      {body()}
    </Modal>
  );
};
