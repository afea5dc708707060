import { DISCARD_OTHER, DISCARD_REASON_MAX } from '@crm/contracts';
import { App, Button, Empty, Input, Modal, Radio, Space, Spin, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useButtonLock } from '../../../components/useButtonLock';
import { useBaseDiscardReasons, useDiscard, useVisiblePools } from '../api';

type Props = {
  open: boolean;
  cmCtids: number[];
  onClose: () => void;
  /** after a successful discard (the list clears its selection, the drawer closes) */
  onDone?: () => void;
};

/**
 * The discard-to-shared-pool dialog (SPEC §2/§5): step 0 choose the target pool; choosing one
 * goes to step 1, a reason from the list or 其他 with a text of at most 30 characters.
 * 重新选择 returns to step 0.
 */
export const DiscardDialog = ({ open, cmCtids, onClose, onDone }: Props) => {
  const { message } = App.useApp();
  const pools = useVisiblePools(open);
  const reasons = useBaseDiscardReasons(open);
  const discard = useDiscard();
  const [poolId, setPoolId] = useState<number | null>(null);
  const [reasonId, setReasonId] = useState<number | null>(null);
  const [text, setText] = useState('');
  const step = poolId === null ? 0 : 1;
  const pool = pools.data?.list.find((p) => p.cmHsid === poolId);

  const reset = () => {
    setPoolId(null);
    setReasonId(null);
    setText('');
  };
  const close = () => {
    reset();
    onClose();
  };

  // Only a real submit locks the button (SPEC §5, 2 s); a missing choice just says what is missing.
  const [send] = useButtonLock(async (cmHsid: number, cmCdid: number) => {
    try {
      await discard.mutateAsync({ cmCtids, cmHsid, cmCdid, reason: cmCdid === DISCARD_OTHER ? text.trim() : '' });
    } catch {
      return;
    }
    message.success('丢弃成功！');
    reset();
    onDone?.();
    onClose();
  });
  const submit = () => {
    if (poolId === null) return message.warning('请选择目标公海！');
    if (reasonId === null) return message.warning('请选择丢弃理由！');
    if (reasonId === DISCARD_OTHER && !text.trim()) return message.warning('请填写丢弃理由！');
    return send(poolId, reasonId);
  };

  return (
    <Modal
      open={open}
      title={cmCtids.length > 1 ? `丢入公海（${cmCtids.length}个客户）` : '丢入公海'}
      width={600}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={close}
      confirmLoading={discard.isPending}
      destroyOnHidden
    >
      <Steps
        size="small"
        current={step}
        style={{ margin: '8px 0 20px' }}
        items={[{ title: '选择公海' }, { title: '选择理由' }]}
      />
      {step === 0 ? (
        pools.isLoading ? (
          <Spin />
        ) : (pools.data?.list.length ?? 0) === 0 ? (
          <Empty description="没有可用的公海，请联系管理员在「公海设置」中添加" />
        ) : (
          <Radio.Group aria-label="目标公海" value={poolId} onChange={(e) => setPoolId(e.target.value)}>
            <Space orientation="vertical">
              {pools.data?.list.map((p) => (
                <Radio key={p.cmHsid} value={p.cmHsid}>
                  {p.name}
                  <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                    {p.customerNum}个客户
                  </Typography.Text>
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        )
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} size={12}>
          <Space>
            <Typography.Text>
              目标公海：<Typography.Text strong>{pool?.name}</Typography.Text>
            </Typography.Text>
            <Button type="link" size="small" onClick={reset}>
              重新选择
            </Button>
          </Space>
          <Radio.Group aria-label="丢弃理由" value={reasonId} onChange={(e) => setReasonId(e.target.value)}>
            <Space orientation="vertical">
              {reasons.data?.list.map((r) => (
                <Radio key={r.cmCdid} value={r.cmCdid}>
                  {r.name}
                </Radio>
              ))}
              <Radio value={DISCARD_OTHER}>其他</Radio>
            </Space>
          </Radio.Group>
          {reasonId === DISCARD_OTHER && (
            <Input.TextArea
              aria-label="其他理由"
              placeholder="请填写丢弃理由"
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={DISCARD_REASON_MAX}
              showCount
              autoSize={{ minRows: 2, maxRows: 3 }}
            />
          )}
        </Space>
      )}
    </Modal>
  );
};
