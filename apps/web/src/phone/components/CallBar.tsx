import { ExpandAltOutlined, PhoneOutlined } from '@ant-design/icons';
import { CALL_STATUS, CALL_STATUS_LABEL } from '@crm/contracts';
import { Button, Space, Tag, Typography } from 'antd';
import { useButtonLock } from '../../components/useButtonLock';
import { formatTalkTime } from '../dialRules';
import { hangup } from '../phoneActions';
import { useCall } from '../phoneStore';
import styles from './CallBar.module.css';
import { CALL_LAYER_Z } from './callLayer';
import { useElapsed } from './useElapsed';

/**
 * The call while its modal is hidden (closed, or folded away for 客户详情): a compact bar above
 * every drawer with the number, the status, the timer, 挂断 and 展开 (SPEC §2, issue 11).
 */
export const CallBar = () => {
  const { call, callStatus, isInCallOpen, setInCallOpen } = useCall();
  const elapsed = useElapsed(call?.answeredAt ?? null);
  const [onHangup, isHangupLocked] = useButtonLock(() => hangup());
  if (!call || isInCallOpen) return null;
  const isTalking = callStatus === CALL_STATUS.talking;
  return (
    <section className={styles.bar} style={{ zIndex: CALL_LAYER_Z }} aria-label="通话条">
      <Space size={8}>
        <Tag color={isTalking ? 'green' : 'processing'}>{CALL_STATUS_LABEL[callStatus] ?? '通话'}</Tag>
        <Typography.Text strong className={styles.number}>
          {call.phone || '-'}
        </Typography.Text>
        {call.name && <Typography.Text type="secondary">{call.name}</Typography.Text>}
        <Typography.Text className={styles.timer} aria-label="通话时长">
          {formatTalkTime(elapsed)}
        </Typography.Text>
      </Space>
      <Space size={4}>
        <Button size="small" icon={<ExpandAltOutlined />} onClick={() => setInCallOpen(true)}>
          展开
        </Button>
        <Button
          size="small"
          type="primary"
          danger
          icon={<PhoneOutlined rotate={135} />}
          disabled={isHangupLocked}
          onClick={() => onHangup()}
        >
          挂断
        </Button>
      </Space>
    </section>
  );
};
