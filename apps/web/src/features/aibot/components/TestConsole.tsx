import { AudioMutedOutlined, RedoOutlined, SendOutlined, UserOutlined } from '@ant-design/icons';
import {
  AIBOT_LIMITS,
  BOT_END_LABEL,
  type BotStep,
  type CustomerTurn,
  FLOW_VARIABLES,
  type FlowTestResult,
  GRADE_COUNTERS,
  GRADE_LABEL,
  INTENT_LABEL,
  MATCH_KIND_LABEL,
} from '@crm/contracts';
import { Alert, Button, Drawer, Input, InputNumber, Popover, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useFlowTest } from '../api';
import styles from './designer.module.css';
import { GRADE_COLOR } from './GradesTab';

const COUNTER_SHORT: Record<(typeof GRADE_COUNTERS)[number], string> = {
  positive: '肯定',
  negative: '否定',
  refused: '拒绝',
  kb: '知识库',
  rounds: '轮次',
  talk_seconds: '时长(秒)',
  no_match: '未识别',
  silence: '静默',
};
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];

type Props = {
  open: boolean;
  onClose: () => void;
  flowId: number;
  versions: number[];
  /** the draft has edits not saved yet: the console runs the saved draft */
  isDirty: boolean;
  onSave: () => void;
};

const turnText = (turn: CustomerTurn) =>
  turn.kind === 'say' ? turn.text : turn.kind === 'digit' ? `按键 ${turn.digits}` : '（静默）';

const Step = ({ step }: { step: BotStep }) => (
  <>
    {step.turn && (
      <div className={`${styles.bubbleRow} ${styles.bubbleRowCustomer}`}>
        <div className={styles.bubbleMeta}>
          {step.match && (
            <>
              <Tag
                color={step.match.kind === 'branch' || step.match.kind === 'kb' || step.match.kind === 'llm' ? 'blue' : 'default'}
              >
                {MATCH_KIND_LABEL[step.match.kind]}
              </Tag>
              {step.match.label && <Tag>{step.match.label}</Tag>}
              {step.match.intent && <Tag color="purple">{INTENT_LABEL[step.match.intent]}</Tag>}
              {step.match.keywords.map((k) => (
                <Tag key={k} color="gold">
                  {k}
                </Tag>
              ))}
            </>
          )}
          <span>客户</span>
        </div>
        <div className={`${styles.bubble} ${styles.bubbleCustomer}`}>{turnText(step.turn)}</div>
      </div>
    )}
    <div className={styles.bubbleRow}>
      <div className={styles.bubbleMeta}>
        <span>机器人</span>
        <Tag>{step.node_name}</Tag>
        {!step.interrupt && <Tag>不可打断</Tag>}
      </div>
      <div className={styles.bubble}>{step.bot_text || <Typography.Text type="secondary">（无话术）</Typography.Text>}</div>
    </div>
  </>
);

/** 测试: play the customer against the draft or a version, without a phone; every turn replays the whole list. */
export const TestConsole = ({ open, onClose, flowId, versions, isDirty, onSave }: Props) => {
  const test = useFlowTest();
  const [version, setVersion] = useState(0);
  const [turns, setTurns] = useState<CustomerTurn[]>([]);
  const [result, setResult] = useState<FlowTestResult | null>(null);
  const [text, setText] = useState('');
  const [talkSeconds, setTalkSeconds] = useState(60);
  const [vars, setVars] = useState<Record<string, string>>({ 客户名称: '张先生', 联系人: '张先生' });
  const bottom = useRef<HTMLDivElement>(null);

  // what the requests in the queue read: the version asked for last, the turns the last answer was for
  const versionRef = useRef(0);
  const turnsRef = useRef<CustomerTurn[]>([]);
  const isOverRef = useRef(false);
  const queue = useRef<Promise<boolean>>(Promise.resolve(true));

  const request = async (next: CustomerTurn[]) => {
    try {
      const res = await test.mutateAsync({
        id: flowId,
        version: versionRef.current,
        turns: next,
        talk_seconds: talkSeconds,
        vars: Object.fromEntries(Object.entries(vars).filter(([, value]) => value.trim() !== '')),
      });
      turnsRef.current = next;
      isOverRef.current = res.end !== 'open';
      setTurns(next);
      setResult(res);
      return true;
    } catch {
      return false;
    }
  };
  /**
   * One request at a time, in the order asked, each on the turns the one before it left: a turn sent
   * while a version switch or a restart is still being answered follows it (it was dropped before).
   * `next` gives the turns to send, or undefined when the call has ended meanwhile.
   */
  const run = (next: (turns: CustomerTurn[]) => CustomerTurn[] | undefined) => {
    const done = queue.current.then(() => {
      const turns = next(turnsRef.current);
      return turns ? request(turns) : false;
    });
    queue.current = done;
    return done;
  };
  const restart = () => run(() => []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the opening is played when the console opens
  useEffect(() => {
    if (open) void restart();
  }, [open]);
  useEffect(() => {
    if (result) bottom.current?.scrollIntoView({ block: 'end' });
  }, [result]);

  const isOver = result !== null && result.end !== 'open';
  const isFull = turns.length >= AIBOT_LIMITS.consoleTurns;
  const isLocked = isOver || isFull || test.isPending;
  const say = async () => {
    const words = text.trim();
    if (!words || isOver || isFull) return;
    const turn: CustomerTurn = { kind: 'say', text: words.slice(0, AIBOT_LIMITS.utterance) };
    const isSent = await run((t) => (isOverRef.current || t.length >= AIBOT_LIMITS.consoleTurns ? undefined : [...t, turn]));
    // what was typed meanwhile stays
    if (isSent) setText((current) => (current.trim() === words ? '' : current));
  };

  return (
    <Drawer title="测试话术" open={open} onClose={onClose} size={520} mask={false} destroyOnHidden>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label="测试版本"
          style={{ width: 110 }}
          value={version}
          options={[{ value: 0, label: '草稿' }, ...versions.map((v) => ({ value: v, label: `v${v}` }))]}
          onChange={(v: number) => {
            versionRef.current = v;
            setVersion(v);
            void restart();
          }}
        />
        <InputNumber
          aria-label="模拟通话时长"
          min={0}
          max={86_400}
          precision={0}
          value={talkSeconds}
          suffix="秒"
          style={{ width: 100 }}
          onChange={(v) => setTalkSeconds(v ?? 0)}
        />
        <Popover
          trigger="click"
          title="话术变量（重新开始后生效）"
          content={
            <Space orientation="vertical" size={6}>
              {FLOW_VARIABLES.map((name) => (
                <Input
                  key={name}
                  aria-label={name}
                  prefix={<span style={{ width: 64, display: 'inline-block', color: '#8c8c8c' }}>{name}</span>}
                  maxLength={50}
                  value={vars[name] ?? ''}
                  placeholder={name === '坐席姓名' ? '默认为当前用户' : name === '公司名称' ? '默认为本企业名称' : ''}
                  onChange={(e) => setVars({ ...vars, [name]: e.target.value })}
                />
              ))}
            </Space>
          }
        >
          <Button icon={<UserOutlined />}>变量</Button>
        </Popover>
        <Button icon={<RedoOutlined />} onClick={restart}>
          重新开始
        </Button>
      </Space>
      {isDirty && version === 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title="有未保存的修改，测试使用上次保存的草稿"
          action={
            <Button size="small" type="primary" onClick={onSave}>
              保存
            </Button>
          }
        />
      )}
      <div className={styles.transcript} role="log" aria-label="对话记录">
        {result?.steps.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are a replay, their order is their identity
          <Step key={i} step={s} />
        ))}
        {isOver && (
          <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
            —— 通话结束：{BOT_END_LABEL[result.end]} ——
          </Typography.Text>
        )}
        <div ref={bottom} />
      </div>
      <Space.Compact style={{ width: '100%', marginTop: 12 }}>
        <Input
          aria-label="客户说"
          placeholder={isOver ? '通话已结束，点击重新开始' : '输入客户说的话，回车发送'}
          value={text}
          maxLength={AIBOT_LIMITS.utterance}
          disabled={isOver || isFull}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={say}
        />
        <Button type="primary" icon={<SendOutlined />} loading={test.isPending} disabled={isOver || isFull} onClick={say}>
          发送
        </Button>
      </Space.Compact>
      <div style={{ display: 'flex', gap: 4, flexWrap: 'wrap', marginTop: 8 }}>
        {KEYS.map((k) => (
          <Button
            key={k}
            size="small"
            style={{ width: 28, paddingInline: 0 }}
            aria-label={`按键${k}`}
            disabled={isLocked}
            onClick={() => run((t) => [...t, { kind: 'digit', digits: k }])}
          >
            {k}
          </Button>
        ))}
        <Button
          size="small"
          icon={<AudioMutedOutlined />}
          disabled={isLocked}
          onClick={() => run((t) => [...t, { kind: 'silence' }])}
        >
          静默
        </Button>
      </div>
      {result && (
        <section style={{ marginTop: 16 }} aria-label="测试结果">
          <Space wrap style={{ marginBottom: 8 }}>
            <Tag color={result.end === 'open' ? 'processing' : result.end === 'transfer' ? 'success' : 'default'}>
              {BOT_END_LABEL[result.end]}
            </Tag>
            <Tag color={GRADE_COLOR[result.grade]}>意向等级 {GRADE_LABEL[result.grade]}</Tag>
            <Tag color="blue">评分 {result.score}</Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {result.rule === null ? '未命中规则，默认 D' : `命中规则 ${result.rule + 1}`}
            </Typography.Text>
          </Space>
          <Space size={[4, 4]} wrap>
            {GRADE_COUNTERS.map((c) => (
              <Tag key={c} variant="filled">
                {COUNTER_SHORT[c]} {result.counters[c]}
              </Tag>
            ))}
          </Space>
          {result.counters.keywords.length > 0 && (
            <div style={{ marginTop: 8 }}>
              <Typography.Text type="secondary">听到的关键词：</Typography.Text>
              {result.counters.keywords.map((k) => (
                <Tag key={k}>{k}</Tag>
              ))}
            </div>
          )}
        </section>
      )}
    </Drawer>
  );
};
