import { z } from 'zod';
import { qId, zId, zText, zUint } from './common';

/**
 * The AI voice bot (issue 16): 话术 flows (the bot's script), the engine that walks them on what the
 * customer says or keys, and the grading of a call. Paths under /api/frontend/aibot/. A flow is
 * edited as a draft and published as numbered versions; a call keeps the version it started with.
 */
export const AIBOT_LIMITS = {
  flowName: 30,
  remark: 200,
  nodes: 60,
  nodeName: 20,
  prompt: 500,
  branches: 12,
  branchLabel: 10,
  keywords: 60,
  keyword: 20,
  digits: 12,
  kb: 200,
  kbQuestion: 50,
  /** customer turns the test console replays at once */
  consoleTurns: 60,
  utterance: 200,
  silenceMsMin: 1000,
  silenceMsMax: 15_000,
  repeatsMax: 3,
  maxRoundsMax: 50,
  gradeRules: 12,
  conditions: 8,
  llmTimeoutMsMin: 300,
  llmTimeoutMsMax: 5000,
  pageSize: 20,
} as const;

/** Node types: 开场 (exactly one), 普通, 转人工, 挂机, 结束; the last three end the flow. */
export const FLOW_NODE_TYPES = ['start', 'normal', 'transfer', 'hangup', 'end'] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];
export const FLOW_NODE_TYPE_LABEL: Record<FlowNodeType, string> = {
  start: '开场',
  normal: '普通节点',
  transfer: '转人工',
  hangup: '挂机',
  end: '结束',
};
export const isTerminalNode = (t: FlowNodeType) => t === 'transfer' || t === 'hangup' || t === 'end';

/** What a branch means for grading: 肯定 / 否定 / 拒绝, or a custom intent (counted by its label). */
export const INTENTS = ['positive', 'negative', 'refused', 'custom'] as const;
export type Intent = (typeof INTENTS)[number];
export const INTENT_LABEL: Record<Intent, string> = { positive: '肯定', negative: '否定', refused: '拒绝', custom: '自定义' };
/** Matching order when several branches hear a keyword (a vendor's published order): 否定 → 拒绝 → custom → 肯定. */
export const INTENT_ORDER: Intent[] = ['negative', 'refused', 'custom', 'positive'];

/** Keyword matching: any of the words, all of them, or the whole utterance equals one of them. */
export const MATCH_MODES = ['any', 'all', 'exact'] as const;
export type MatchMode = (typeof MATCH_MODES)[number];
export const MATCH_MODE_LABEL: Record<MatchMode, string> = { any: '包含任一', all: '包含全部', exact: '完全一致' };

/** The variables a prompt may use; anything else in braces is refused. */
export const FLOW_VARIABLES = ['客户名称', '联系人', '坐席姓名', '公司名称'] as const;
export const flowVariablesIn = (text: string): string[] => [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);

const nodeKey = z.string().regex(/^[a-z][a-z0-9_]{0,19}$/, '节点标识为字母开头的小写字母、数字或下划线，最多20位');
const keyword = zText().trim().min(1, '关键词不能为空').max(AIBOT_LIMITS.keyword, `关键词最多${AIBOT_LIMITS.keyword}个字`);
const digits = z.array(z.string().regex(/^[0-9*#]$/, '按键只能是0-9、*或#')).max(AIBOT_LIMITS.digits);
const prompt = zText().max(AIBOT_LIMITS.prompt, `话术内容最多${AIBOT_LIMITS.prompt}个字`);

export const flowBranch = z.object({
  key: nodeKey,
  label: zText().trim().min(1, '请输入分支名称').max(AIBOT_LIMITS.branchLabel, `分支名称最多${AIBOT_LIMITS.branchLabel}个字`),
  intent: z.enum(INTENTS, { message: '请选择分支意图' }),
  match: z.enum(MATCH_MODES, { message: '请选择匹配方式' }),
  keywords: z.array(keyword).max(AIBOT_LIMITS.keywords, `关键词最多${AIBOT_LIMITS.keywords}个`),
  digits,
  /** the node the branch leads to */
  next: nodeKey,
});
export type FlowBranch = z.infer<typeof flowBranch>;

/** What happens on silence or on an utterance no branch (nor the knowledge base) matched. */
export const flowFallback = z.object({
  /** silence only: how long the bot waits for the customer, ms */
  wait_ms: z.number().int().min(AIBOT_LIMITS.silenceMsMin).max(AIBOT_LIMITS.silenceMsMax),
  /** how many times the bot repeats the node's prompt (or says `prompt` when set) before `next` */
  repeats: z.number().int().min(0).max(AIBOT_LIMITS.repeatsMax),
  prompt,
  /** the node after the repeats; null: hang up */
  next: nodeKey.nullable(),
});
export type FlowFallback = z.infer<typeof flowFallback>;

export const flowNode = z.object({
  key: nodeKey,
  type: z.enum(FLOW_NODE_TYPES, { message: '请选择节点类型' }),
  name: zText().trim().min(1, '请输入节点名称').max(AIBOT_LIMITS.nodeName, `节点名称最多${AIBOT_LIMITS.nodeName}个字`),
  prompt,
  /** an uploaded recording (uploads id) played instead of synthesis */
  audio_file_id: zId().nullable(),
  /** whether the customer may interrupt the bot while it speaks (打断) */
  interrupt: z.boolean(),
  branches: z.array(flowBranch).max(AIBOT_LIMITS.branches, `每个节点最多${AIBOT_LIMITS.branches}个分支`),
  silence: flowFallback,
  no_match: flowFallback,
  /** position in the designer (ignored by the engine) */
  x: z.number().int().min(-100_000).max(100_000).optional(),
  y: z.number().int().min(-100_000).max(100_000).optional(),
});
export type FlowNode = z.infer<typeof flowNode>;

/** A knowledge-base entry: asked anywhere, answered, then the call returns to where it was. */
export const flowKbEntry = z.object({
  key: nodeKey,
  question: zText().trim().min(1, '请输入问题').max(AIBOT_LIMITS.kbQuestion, `问题最多${AIBOT_LIMITS.kbQuestion}个字`),
  match: z.enum(MATCH_MODES),
  keywords: z.array(keyword).min(1, '请至少输入一个关键词').max(AIBOT_LIMITS.keywords),
  answer: prompt.refine((s) => s.trim().length > 0, '请输入回答'),
  audio_file_id: zId().nullable(),
});
export type FlowKbEntry = z.infer<typeof flowKbEntry>;

/** The call counters grading rules look at. */
export const GRADE_COUNTERS = ['positive', 'negative', 'refused', 'kb', 'rounds', 'talk_seconds', 'no_match', 'silence'] as const;
export type GradeCounter = (typeof GRADE_COUNTERS)[number];
export const GRADE_COUNTER_LABEL: Record<GradeCounter, string> = {
  positive: '肯定次数',
  negative: '否定次数',
  refused: '拒绝次数',
  kb: '知识库问答次数',
  rounds: '对话轮次',
  talk_seconds: '通话时长(秒)',
  no_match: '未识别次数',
  silence: '静默次数',
};
export const GRADE_OPS = ['>=', '<=', '='] as const;
export type GradeOp = (typeof GRADE_OPS)[number];

/** One condition: a counter compared with a value, a node reached, or a keyword heard. */
export const gradeCondition = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('counter'), counter: z.enum(GRADE_COUNTERS), op: z.enum(GRADE_OPS), value: zUint() }),
  z.object({ kind: z.literal('node'), node: nodeKey }),
  z.object({ kind: z.literal('keyword'), keyword }),
]);
export type GradeCondition = z.infer<typeof gradeCondition>;

export const GRADES = ['A', 'B', 'C', 'D', 'E'] as const;
export type Grade = (typeof GRADES)[number];
export const GRADE_LABEL: Record<Grade, string> = {
  A: 'A 意向明确',
  B: 'B 有意向',
  C: 'C 意向一般',
  D: 'D 无意向',
  E: 'E 未接通',
};

/** Rules are tried in order; the first whose conditions hold (all, or any) gives the grade. None: D. E = not connected. */
export const gradeRule = z.object({
  grade: z.enum(['A', 'B', 'C', 'D'], { message: '请选择等级' }),
  join: z.enum(['all', 'any']),
  conditions: z.array(gradeCondition).min(1, '请至少添加一个条件').max(AIBOT_LIMITS.conditions),
});
export type GradeRule = z.infer<typeof gradeRule>;

export const flowSettings = z.object({
  /** customer turns after which the bot says goodbye and hangs up */
  max_rounds: z.number().int().min(1).max(AIBOT_LIMITS.maxRoundsMax),
  /** the goodbye said at max rounds (then hang up) */
  max_rounds_prompt: prompt,
  /** ask the company's LLM (when configured) to pick a branch when no keyword matched */
  use_llm: z.boolean(),
});
export type FlowSettings = z.infer<typeof flowSettings>;

/** The whole script as the designer saves it and a version freezes it. Cross-field checks are the server's (validateFlowGraph). */
export const flowGraph = z.object({
  nodes: z.array(flowNode).min(1, '请至少添加一个节点').max(AIBOT_LIMITS.nodes, `最多${AIBOT_LIMITS.nodes}个节点`),
  kb: z.array(flowKbEntry).max(AIBOT_LIMITS.kb, `知识库最多${AIBOT_LIMITS.kb}条`),
  grades: z.array(gradeRule).max(AIBOT_LIMITS.gradeRules),
  settings: flowSettings,
});
export type FlowGraph = z.infer<typeof flowGraph>;

/**
 * One problem of a graph, with where it is for the designer to point at: `nodes`, `nodes.<key>`,
 * `nodes.<key>.branches.<key>`, `nodes.<key>.silence`, `nodes.<key>.no_match`, `kb.<key>`,
 * `grades.<index>` or `settings`. A refused publish (AIBOT_FLOW_INVALID) carries them in `data.issues`.
 */
export const flowIssue = z.object({ path: z.string(), msg: z.string() });
export type FlowIssue = z.infer<typeof flowIssue>;

// ---------- flows (话术) ----------

/** 0 草稿 (never published), 1 已发布 (the draft equals the last version), 2 有未发布修改. */
export const FLOW_STATUS = { draft: 0, published: 1, changed: 2 } as const;
export const FLOW_STATUS_LABEL: Record<number, string> = { 0: '草稿', 1: '已发布', 2: '有未发布修改' };

export const flowListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(AIBOT_LIMITS.pageSize),
  name: zText().max(AIBOT_LIMITS.flowName).optional(),
});
export type FlowListQuery = z.infer<typeof flowListQuery>;
/** detail / delete by id (query string) */
export const flowIdQuery = z.object({ id: qId() });
/** A published version: `version` ≥ 1. */
export const flowVersionQuery = z.object({ id: qId(), version: qId() });
export const flowRow = z.object({
  id: z.number(),
  name: z.string(),
  remark: z.string(),
  status: z.number(),
  /** the last published version, 0 when none */
  version: z.number(),
  nodes: z.number(),
  creator: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FlowRow = z.infer<typeof flowRow>;

const flowName = zText().trim().min(1, '请输入话术名称').max(AIBOT_LIMITS.flowName, `话术名称最多${AIBOT_LIMITS.flowName}个字`);
/** Create: a name and remark; the server seeds a starter graph (开场 → 肯定/否定/拒绝 → 结束/挂机) with the default grade rules. */
export const flowCreateBody = z.object({ name: flowName, remark: zText().max(AIBOT_LIMITS.remark).default('') });
export const flowUpdateBody = z.object({
  id: zId(),
  name: flowName,
  remark: zText().max(AIBOT_LIMITS.remark).default(''),
  graph: flowGraph,
});
export const flowDetail = flowRow.extend({
  graph: flowGraph,
  /** problems of the draft (empty when it may be published) */
  issues: z.array(flowIssue),
  versions: z.array(z.object({ version: z.number(), published_at: z.string(), publisher: z.string() })),
  /** the recordings the draft plays: the uploaded file's name and its download address */
  audio_files: z.array(z.object({ id: z.number(), name: z.string(), url: z.string() })),
});
export type FlowDetail = z.infer<typeof flowDetail>;
/** Publish the draft as the next version (refused with the issues listed when it has any). */
export const flowPublishBody = z.object({ id: zId() });
/** update answers the saved draft's problems; publish the new version's number. */
export const flowUpdateResult = z.object({ issues: z.array(flowIssue) });
export const flowPublishResult = z.object({ version: z.number() });
/** Copy a flow (its draft) under a new name. */
export const flowCopyBody = z.object({ id: zId(), name: flowName });
export type FlowCreateBody = z.infer<typeof flowCreateBody>;
export type FlowUpdateBody = z.infer<typeof flowUpdateBody>;
export type FlowCopyBody = z.infer<typeof flowCopyBody>;
/** A published version, frozen: what a call that started on it keeps walking. */
export const flowVersionDetail = z.object({
  id: z.number(),
  name: z.string(),
  version: z.number(),
  graph: flowGraph,
  published_at: z.string(),
  publisher: z.string(),
});
export type FlowVersionDetail = z.infer<typeof flowVersionDetail>;

// ---------- the engine's view of a call, shared by the test console, AI tasks and the call detail ----------

/** What the customer did in one turn: said something, keyed digits, or stayed silent. */
export const customerTurn = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('say'), text: zText().trim().min(1, '请输入客户说的话').max(AIBOT_LIMITS.utterance) }),
  z.object({ kind: z.literal('digit'), digits: z.string().regex(/^[0-9*#]{1,12}$/, '按键只能是0-9、*或#') }),
  z.object({ kind: z.literal('silence') }),
]);
export type CustomerTurn = z.infer<typeof customerTurn>;

/** How the engine read a customer turn. */
export const MATCH_KINDS = ['branch', 'kb', 'llm', 'silence', 'no_match', 'max_rounds'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];
export const MATCH_KIND_LABEL: Record<MatchKind, string> = {
  branch: '命中分支',
  kb: '知识库',
  llm: '大模型判定',
  silence: '静默',
  no_match: '未识别',
  max_rounds: '超过最大轮次',
};

/** One step: the customer's turn (none for the opening), how it was read, and what the bot said next. */
export const botStep = z.object({
  turn: customerTurn.nullable(),
  match: z
    .object({ kind: z.enum(MATCH_KINDS), label: z.string(), keywords: z.array(z.string()), intent: z.enum(INTENTS).nullable() })
    .nullable(),
  node_key: z.string(),
  node_name: z.string(),
  /** the prompt with its variables filled in */
  bot_text: z.string(),
  /** whether the customer could interrupt this prompt */
  interrupt: z.boolean(),
});
export type BotStep = z.infer<typeof botStep>;

export const botCounters = z.object({
  positive: z.number(),
  negative: z.number(),
  refused: z.number(),
  kb: z.number(),
  rounds: z.number(),
  talk_seconds: z.number(),
  no_match: z.number(),
  silence: z.number(),
  /** custom intents by label */
  custom: z.record(z.string(), z.number()),
  nodes: z.array(z.string()),
  keywords: z.array(z.string()),
});
export type BotCounters = z.infer<typeof botCounters>;

/** How a walk ended: still waiting for the customer, 转人工, hung up by the bot (挂机/结束/max rounds/silence). */
export const BOT_END = ['open', 'transfer', 'hangup', 'end', 'max_rounds'] as const;
export type BotEnd = (typeof BOT_END)[number];
export const BOT_END_LABEL: Record<BotEnd, string> = {
  open: '等待客户回应',
  transfer: '转人工',
  hangup: '机器人挂机',
  end: '流程结束',
  max_rounds: '超过最大轮次挂机',
};

/** The test console: replay the customer's turns against the draft (version 0) or a published version. */
export const flowTestBody = z.object({
  id: zId(),
  version: zUint().default(0),
  turns: z.array(customerTurn).max(AIBOT_LIMITS.consoleTurns, `最多${AIBOT_LIMITS.consoleTurns}轮`),
  /** seconds of talk the console pretends for grading (talk_seconds) */
  talk_seconds: zUint().max(86_400).default(0),
  vars: z.record(z.string(), zText().max(50)).default({}),
});
export const flowTestResult = z.object({
  steps: z.array(botStep),
  end: z.enum(BOT_END),
  counters: botCounters,
  grade: z.enum(GRADES),
  score: z.number(),
  /** the rule that gave the grade (its index in the flow's rules), null: the default D */
  rule: z.number().nullable(),
});
export type FlowTestResult = z.infer<typeof flowTestResult>;
export type FlowTestBody = z.infer<typeof flowTestBody>;

// ---------- company AI settings (the optional LLM classifier) ----------

export const aibotSettings = z.object({
  llm_enabled: z.boolean(),
  /** an OpenAI-compatible endpoint: base URL, e.g. http://10.0.0.5:8000/v1 */
  llm_url: z.string(),
  llm_model: z.string(),
  /** whether a key is stored (the key itself never leaves the server) */
  llm_key_set: z.boolean(),
  llm_timeout_ms: z.number(),
});
export type AibotSettings = z.infer<typeof aibotSettings>;
export const aibotSettingsBody = z.object({
  llm_enabled: z.boolean(),
  llm_url: z.union([z.literal(''), z.string().url('请输入正确的接口地址').max(200)]),
  llm_model: zText().max(60),
  /** omitted or empty: keep the stored key; null: remove it */
  llm_key: zText().max(200).nullable().optional(),
  llm_timeout_ms: z.number().int().min(AIBOT_LIMITS.llmTimeoutMsMin).max(AIBOT_LIMITS.llmTimeoutMsMax),
});
export type AibotSettingsBody = z.infer<typeof aibotSettingsBody>;
