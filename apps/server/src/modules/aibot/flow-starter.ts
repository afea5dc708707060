import type { FlowBranch, FlowFallback, FlowGraph, FlowNode } from '@crm/contracts';
import { defaultGradeRules } from './flow-grade';

const fallback = (prompt: string, next: string | null, repeats = 1): FlowFallback => ({
  wait_ms: 4000,
  repeats,
  prompt,
  next,
});

const node = (n: Pick<FlowNode, 'key' | 'type' | 'name' | 'prompt'> & Partial<FlowNode>): FlowNode => ({
  audio_file_id: null,
  interrupt: true,
  branches: [],
  silence: fallback('', null, 0),
  no_match: fallback('', null, 0),
  ...n,
});

const branch = (b: Omit<FlowBranch, 'match'>): FlowBranch => ({ match: 'any', ...b });

/**
 * The graph a new flow starts with: 开场 asks whether it reaches the customer, 肯定 leads to the
 * introduction, 否定 says goodbye, 拒绝 hangs up; interest in the introduction goes to 转人工. Keys 1/2/3
 * work for 肯定/否定/拒绝 so the flow runs on digits alone. The greeting may not be interrupted (a
 * vendor's recommendation); reaching 转接顾问 takes two 肯定: grade A by the default rules.
 */
export const starterGraph = (): FlowGraph => ({
  nodes: [
    node({
      key: 'open',
      type: 'start',
      name: '开场白',
      prompt: '您好，我是{公司名称}的{坐席姓名}，请问是{客户名称}吗？想耽误您一分钟，给您介绍一下我们的销售外呼系统，方便吗？',
      interrupt: false,
      branches: [
        branch({
          key: 'yes',
          label: '肯定',
          intent: 'positive',
          keywords: ['是的', '是我', '对', '方便', '可以', '好的', '你说', '请说', '嗯', '有兴趣', '感兴趣', '没问题'],
          digits: ['1'],
          next: 'intro',
        }),
        branch({
          key: 'no',
          label: '否定',
          intent: 'negative',
          keywords: ['不是', '不对', '打错', '不方便', '不可以', '不行', '在忙', '没空', '不感兴趣'],
          digits: ['2'],
          next: 'bye',
        }),
        branch({
          key: 'refuse',
          label: '拒绝',
          intent: 'refused',
          keywords: ['不需要', '没兴趣', '别打', '不要'],
          digits: ['3'],
          next: 'hangup',
        }),
      ],
      silence: fallback('喂，您好，请问能听到我说话吗？', 'bye'),
      no_match: fallback('不好意思，我没有听清，请问您现在方便听我介绍一下吗？', 'bye'),
      x: 0,
      y: 0,
    }),
    node({
      key: 'intro',
      type: 'normal',
      name: '产品介绍',
      prompt: '我们的系统可以帮销售团队自动外呼、管理客户和跟进记录，现在开通可以免费试用一个月，请问您感兴趣吗？',
      branches: [
        branch({
          key: 'yes',
          label: '肯定',
          intent: 'positive',
          keywords: ['感兴趣', '有兴趣', '可以', '好的', '了解一下', '试试', '行'],
          digits: ['1'],
          next: 'transfer',
        }),
        branch({
          key: 'no',
          label: '否定',
          intent: 'negative',
          keywords: ['不感兴趣', '不用', '不可以', '不行', '已经有了', '考虑一下'],
          digits: ['2'],
          next: 'bye',
        }),
        branch({
          key: 'refuse',
          label: '拒绝',
          intent: 'refused',
          keywords: ['不需要', '没兴趣', '别打', '不要再打', '投诉'],
          digits: ['3'],
          next: 'hangup',
        }),
      ],
      silence: fallback('', 'bye'),
      no_match: fallback('抱歉，我没有听明白，您是否愿意先免费试用一下呢？', 'bye'),
      x: 320,
      y: 0,
    }),
    node({
      key: 'transfer',
      type: 'transfer',
      name: '转接顾问',
      prompt: '好的，马上为您转接专属顾问，请稍等。',
      x: 640,
      y: -120,
    }),
    node({ key: 'bye', type: 'end', name: '礼貌结束', prompt: '好的，不打扰您了，祝您生活愉快，再见！', x: 640, y: 0 }),
    node({ key: 'hangup', type: 'hangup', name: '挂机', prompt: '抱歉打扰您了，再见。', x: 640, y: 120 }),
  ],
  kb: [
    {
      key: 'price',
      question: '价格多少',
      match: 'any',
      keywords: ['多少钱', '价格', '收费', '费用'],
      answer: '我们按坐席数量收费，顾问会根据您团队的规模给您报价。',
      audio_file_id: null,
    },
    {
      key: 'who',
      question: '你们是哪家公司',
      match: 'any',
      keywords: ['哪家公司', '什么公司', '你是谁', '哪里打来'],
      answer: '我们是{公司名称}，专注于企业销售外呼服务。',
      audio_file_id: null,
    },
  ],
  grades: defaultGradeRules(),
  settings: { max_rounds: 10, max_rounds_prompt: '感谢您的耐心，稍后会有顾问和您联系，再见！', use_llm: false },
});
