import { CustomerServiceOutlined, DownloadOutlined, MessageOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import type { AicallInfo } from '@crm/contracts';
import { Alert, Avatar, Button, Descriptions, Empty, Modal, Result, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { billsecText } from '../../calls/api';
import { useAicallInfo } from '../api';
import styles from './AiCallDetailModal.module.css';
import { claimAudio, releaseAudio } from './audioFocus';
import { ClipButton } from './ClipButton';
import { GradeTag } from './GradeTag';

type Turn = AicallInfo['call'][number];

/** ms from the answer as m:ss */
export const offsetText = (ms: number) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

// 留言: AI接待's message (the caller's turn after 转人工 found no agent)
const MATCH_COLOR: Record<string, string> = {
  未识别: 'warning',
  静默: 'default',
  知识库: 'cyan',
  大模型判定: 'purple',
  留言: 'orange',
};
const matchColor = (match: string) => MATCH_COLOR[match] ?? (match.includes('拒绝') || match.includes('否定') ? 'red' : 'green');

/** One turn: the bot on the left, the customer on the right; text, node, how it was read, its clip. */
const TurnRow = ({ turn, index }: { turn: Turn; index: number }) => {
  const isBot = turn.isAi === 1;
  const who = isBot ? '机器人' : '客户';
  return (
    <div className={`${styles.turn} ${isBot ? '' : styles.turnCustomer}`} data-testid="ai-turn">
      <Avatar
        size={32}
        icon={isBot ? <RobotOutlined /> : <UserOutlined />}
        style={{ background: isBot ? '#722ed1' : '#1677ff', flex: 'none' }}
      />
      <div className={styles.body}>
        <div className={styles.meta}>
          <span>
            {who} · {offsetText(turn.at)}
          </span>
          {turn.node && isBot && <span>· {turn.node_name || turn.node}</span>}
          {turn.match && (
            <Tag color={matchColor(turn.match)} style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '18px' }}>
              {turn.match}
            </Tag>
          )}
        </div>
        <div className={styles.bubble}>
          {turn.callFont || <Typography.Text type="secondary">{isBot ? '（无文本）' : '（客户说话，未转写）'}</Typography.Text>}
          {turn.speech_path && <ClipButton src={turn.speech_path} label={`第${index + 1}句`} />}
        </div>
      </div>
    </div>
  );
};

/** AI接待's 留言: the caller's message on top of the dialog (also its turn in the dialogue below). */
const MessageNote = ({ call }: { call: Turn[] }) => {
  const turn = call.find((t) => t.match === '留言');
  if (!turn) return null;
  return (
    <Alert
      type="warning"
      showIcon
      icon={<MessageOutlined />}
      style={{ marginBottom: 8 }}
      data-testid="ai-message"
      message={
        <span>
          客户留言：{turn.callFont}
          {turn.speech_path && <ClipButton src={turn.speech_path} label="留言" />}
        </span>
      }
    />
  );
};

/** The recording's download name: AI通话录音_<number>_<yyyyMMdd_HHmmss>.wav (a masked number keeps x for *) */
export const recordingFileName = (info: Pick<AicallInfo, 'phone' | 'call_starttime'>) =>
  `AI通话录音_${info.phone.replace(/\*/g, 'x')}_${info.call_starttime.replace(/[-:]/g, '').replace(' ', '_')}.wav`;

/** The whole call, labelled by its start and length, with a download; one player plays at a time (with the clips). */
const WholeRecording = ({ info }: { info: AicallInfo }) => {
  const src = info.recording;
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const el = audio.current;
    return () => {
      if (el) releaseAudio(el);
    };
  }, []);
  return (
    <div className={styles.recording}>
      <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
        <CustomerServiceOutlined /> 通话录音
      </Typography.Text>
      {src ? (
        <>
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }} data-testid="call-recording-label">
            {info.call_starttime} · {billsecText(info.duration_time)}
          </Typography.Text>
          {/* biome-ignore lint/a11y/useMediaCaption: the dialogue below is the transcript */}
          <audio
            ref={audio}
            controls
            // its length shows before it is played (not 0:00 / 0:00): only the file's header is read
            preload="metadata"
            src={src}
            aria-label="通话录音"
            data-testid="call-recording"
            onPlay={(e) => claimAudio(e.currentTarget)}
            onEnded={(e) => releaseAudio(e.currentTarget)}
          />
          <Button size="small" icon={<DownloadOutlined />} href={src} download={recordingFileName(info)}>
            下载
          </Button>
        </>
      ) : (
        <Typography.Text type="secondary">无录音</Typography.Text>
      )}
    </div>
  );
};

const Info = ({ info }: { info: AicallInfo }) => (
  <Descriptions size="small" column={3} styles={{ label: { whiteSpace: 'nowrap' } }} style={{ marginBottom: 4 }}>
    <Descriptions.Item label="客户">{info.name || '暂无客户信息'}</Descriptions.Item>
    <Descriptions.Item label="号码">{info.phone}</Descriptions.Item>
    <Descriptions.Item label="开始时间">{info.call_starttime}</Descriptions.Item>
    <Descriptions.Item label="通话时长">{billsecText(info.duration_time)}</Descriptions.Item>
    <Descriptions.Item label="意向等级">
      <GradeTag grade={info.grade} score={info.score} />
    </Descriptions.Item>
    <Descriptions.Item label="对话轮次">
      {info.rounds}轮（{info.dialogue_num}句）
    </Descriptions.Item>
    <Descriptions.Item label="结束方式">{info.endName || '-'}</Descriptions.Item>
    <Descriptions.Item label="话术">
      {info.flowName} v{info.flowVersion}
    </Descriptions.Item>
    <Descriptions.Item label="转人工">{info.transferTo || '-'}</Descriptions.Item>
    {info.taskName && (
      <Descriptions.Item label="任务" span={3}>
        {info.taskName}
      </Descriptions.Item>
    )}
  </Descriptions>
);

/**
 * SPEC §2 AI call detail dialog: the call's info, the dialogue list (each turn's text and clip)
 * and the whole recording. Shared by AI外呼任务, AI接待记录 and the customer's follow list.
 */
export const AiCallDetailModal = ({ id, onClose }: { id: number | null; onClose: () => void }) => {
  const info = useAicallInfo(id);
  const d = info.data;
  return (
    <Modal title="AI通话详情" open={id !== null} onCancel={onClose} footer={null} width={820} destroyOnHidden centered>
      {info.isError ? (
        <Result status="warning" title="无法查看该通话" subTitle="通话不存在，或不在您的数据范围内" />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <Info info={d} />
          <MessageNote call={d.call} />
          <WholeRecording info={d} />
          <div className={styles.dialogue} data-testid="ai-dialogue">
            {d.call.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未接通，没有对话" />
            ) : (
              d.call.map((t, i) => <TurnRow key={`${t.isAi}:${t.at}`} turn={t} index={i} />)
            )}
          </div>
        </>
      )}
    </Modal>
  );
};
