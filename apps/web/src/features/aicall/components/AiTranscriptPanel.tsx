import { RobotOutlined } from '@ant-design/icons';
import type { AicallTranscriptTurn } from '@crm/contracts';
import { Empty, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useAiTranscript } from '../transcript';
import styles from './AiTranscriptPanel.module.css';
import { GradeTag } from './GradeTag';

const matchColor = (match: string) =>
  match.includes('拒绝') || match.includes('否定') ? 'red' : match === '未识别' || match === '静音' ? 'default' : 'green';

const TurnRow = ({ turn }: { turn: AicallTranscriptTurn }) => {
  const isBot = turn.isAi === 1;
  return (
    <div className={`${styles.turn} ${isBot ? '' : styles.customer}`} data-testid="ai-transcript-turn">
      <div className={styles.body}>
        <div className={styles.meta}>
          <span>{isBot ? '机器人' : '客户'}</span>
          {turn.node && <span>· {turn.node}</span>}
          {turn.match && (
            <Tag color={matchColor(turn.match)} style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px' }}>
              {turn.match}
            </Tag>
          )}
        </div>
        <div className={styles.bubble}>{turn.text}</div>
      </div>
    </div>
  );
};

/**
 * AI对话记录 beside a call the bot handed over (转人工): the bot's turns on the left, the customer's
 * on the right, each with its node and how it was read, the flow and the grade so far; follows the
 * latest turn. Renders nothing for a call that did not come from the bot.
 */
export const AiTranscriptPanel = ({ uuid }: { uuid: string }) => {
  const { isAi, data, isLoading } = useAiTranscript(uuid);
  const list = useRef<HTMLDivElement>(null);
  const count = data?.turns.length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the latest turn when one arrives
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [count]);
  if (!isAi) return null;
  return (
    <section className={styles.panel} aria-label="AI对话记录" data-testid="ai-transcript">
      <div className={styles.head}>
        <RobotOutlined style={{ color: '#722ed1' }} />
        <Typography.Text strong>AI对话记录</Typography.Text>
        <span className={styles.flow} title={data?.flowName}>
          {data?.flowName ? `话术：${data.flowName}` : ''}
        </span>
        {data?.grade && <GradeTag grade={data.grade} score={data.score} />}
      </div>
      <div className={styles.list} ref={list}>
        {isLoading ? (
          <div className={styles.empty}>
            <Spin tip="加载中…">
              <span />
            </Spin>
          </div>
        ) : count === 0 ? (
          <div className={styles.empty}>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="机器人与客户暂无对话" />
          </div>
        ) : (
          data?.turns.map((turn) => <TurnRow key={`${turn.at}-${turn.isAi}`} turn={turn} />)
        )}
      </div>
    </section>
  );
};
