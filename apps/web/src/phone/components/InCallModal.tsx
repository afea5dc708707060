import { IdcardOutlined, NumberOutlined, PhoneOutlined, UserOutlined } from '@ant-design/icons';
import { CALL_STATUS, CALL_STATUS_LABEL, CALL_TYPE } from '@crm/contracts';
import { Avatar, Button, Flex, Modal, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useButtonLock } from '../../components/useButtonLock';
import { AiTranscriptPanel } from '../../features/aicall/components/AiTranscriptPanel';
import { usePushedTranscripts } from '../../features/aicall/transcript';
import { formatTalkTime } from '../dialRules';
import { answer, hangup } from '../phoneActions';
import { useCall } from '../phoneStore';
import { softphone } from '../softphone';
import { CALL_LAYER_Z } from './callLayer';
import styles from './InCallModal.module.css';
import { useElapsed } from './useElapsed';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];

/**
 * SPEC §2 in-call modal: the number, the customer or 暂无客户信息, 振铃中/通话中 with a timer from
 * the answer, a keypad, 挂断, 接听 for incoming calls and 客户详情. It sits above every drawer;
 * closing it, or opening 客户详情, folds it into the call bar; the call button shows it again. A call
 * the AI bot handed over shows its AI对话记录 beside (AiTranscriptPanel).
 */
export const InCallModal = () => {
  const navigate = useNavigate();
  const { call, callStatus, isInCallOpen, setInCallOpen } = useCall();
  const [isKeypadOpen, setKeypadOpen] = useState(false);
  const [digits, setDigits] = useState('');
  const elapsed = useElapsed(call?.answeredAt ?? null);
  const [onHangup, isHangupLocked] = useButtonLock(() => hangup());
  const [onAnswer, isAnswerLocked] = useButtonLock(() => answer());
  // a call the bot handed over (转人工): what it and the customer said, beside the call
  const isFromBot = usePushedTranscripts((s) => Boolean(call && s.byUuid[call.uuid]));

  // a new call starts with an empty keypad
  const uuid = call?.uuid;
  useEffect(() => {
    if (uuid) setDigits('');
  }, [uuid]);

  if (!call) return null;
  const isTalking = callStatus === CALL_STATUS.talking;
  const isIncoming = call.callType === CALL_TYPE.inbound;
  const statusText = CALL_STATUS_LABEL[callStatus] ?? '未通话';

  const press = (key: string) => {
    softphone.sendDtmf(key);
    setDigits((d) => (d + key).slice(-32));
  };

  return (
    <Modal
      open={isInCallOpen}
      title={call.isPutThrough ? '群呼接通' : isIncoming ? '来电' : '呼叫'}
      width={isFromBot ? 780 : 360}
      zIndex={CALL_LAYER_Z}
      mask={{ closable: false }}
      onCancel={() => setInCallOpen(false)}
      footer={null}
    >
      <Flex gap={16} align="stretch">
        <Flex vertical align="center" gap={8} className={`${styles.body} ${isFromBot ? styles.side : ''}`}>
          <Avatar size={56} icon={<UserOutlined />} className={isTalking ? styles.talking : styles.ringing} />
          <Typography.Title level={4} className={styles.number} data-testid="call-number">
            {call.phone || '-'}
          </Typography.Title>
          <Typography.Text type={call.name ? undefined : 'secondary'}>{call.name || '暂无客户信息'}</Typography.Text>
          <Space>
            <Tag color={isTalking ? 'green' : 'processing'} data-testid="call-status">
              {statusText}
            </Tag>
            <Typography.Text className={styles.timer} data-testid="call-timer">
              {formatTalkTime(elapsed)}
            </Typography.Text>
          </Space>
          {isKeypadOpen && (
            <div className={styles.keypad}>
              <output className={styles.digits} aria-label="已按键">
                {digits || ' '}
              </output>
              {KEYS.map((k) => (
                <Button key={k} shape="circle" size="large" onClick={() => press(k)}>
                  {k}
                </Button>
              ))}
            </div>
          )}
          <Space size={12} wrap style={{ justifyContent: 'center', marginTop: 8 }}>
            <Button icon={<NumberOutlined />} onClick={() => setKeypadOpen((v) => !v)}>
              {isKeypadOpen ? '收起键盘' : '键盘'}
            </Button>
            {call.cmCtid > 0 && (
              <Button
                icon={<IdcardOutlined />}
                onClick={() => {
                  // the drawer opens below; the call folds into the bar, 挂断 and the timer in reach
                  setInCallOpen(false);
                  navigate(`/manage/mycustomer?detail=${call.cmCtid}`);
                }}
              >
                客户详情
              </Button>
            )}
          </Space>
          <Space size={16} style={{ marginTop: 8 }}>
            {isIncoming && !isTalking && (
              <Button
                type="primary"
                className={styles.answer}
                icon={<PhoneOutlined />}
                loading={isAnswerLocked}
                onClick={() => onAnswer()}
              >
                接听
              </Button>
            )}
            <Button
              type="primary"
              danger
              icon={<PhoneOutlined rotate={135} />}
              disabled={isHangupLocked}
              onClick={() => onHangup()}
            >
              挂断
            </Button>
          </Space>
        </Flex>
        {isFromBot && (
          <div className={styles.transcript}>
            <AiTranscriptPanel uuid={call.uuid} />
          </div>
        )}
      </Flex>
    </Modal>
  );
};
