import {
  type BotCounters,
  type BotEnd,
  type BotStep,
  type CustomerTurn,
  type FlowBranch,
  type FlowFallback,
  type FlowGraph,
  type FlowNode,
  type FlowTestResult,
  type Intent,
  isTerminalNode,
  MATCH_KIND_LABEL,
  type MatchKind,
} from '@crm/contracts';
import { gradeCall } from './flow-grade';
import { fillVariables, pickBranch, pickDigitBranch, pickKbEntry } from './flow-match';

/**
 * Asked when no keyword matched an utterance (the optional LLM): picks one of the current node's
 * branch labels, or null (未识别, timed out, failed). Keywords always come first.
 */
export type FlowClassifier = (input: { text: string; labels: string[]; node: FlowNode }) => Promise<string | null>;

export type FlowSessionOptions = {
  /** values of the prompt variables ({客户名称} …) */
  vars?: Record<string, string>;
  /** talk time of the call so far, for the talk_seconds counter (the live call sets it as it goes) */
  talkSeconds?: number;
  classify?: FlowClassifier;
};

/**
 * What the bot says in a step, in order: each part is an uploaded recording to play when it has one,
 * else its text to synthesise (a knowledge-base answer, then the node's prompt, are two parts).
 */
export type SpeechPart = { text: string; audio_file_id: number | null };

export type FlowSession = {
  /** The opening: the 开场 prompt. Call once, first. */
  start: () => BotStep;
  /** One customer turn read against the current node; the bot's answer. Refused once the walk has ended. */
  next: (turn: CustomerTurn) => Promise<BotStep>;
  /** 'open' while the bot waits for the customer. */
  end: () => BotEnd;
  /** The current node (where the call is). */
  node: () => FlowNode;
  /** The parts of what the bot said in the last step (start or next): recordings or text to synthesise. */
  speech: () => SpeechPart[];
  /** A copy of the counters grading reads; talk_seconds as last set. */
  counters: () => BotCounters;
  setTalkSeconds: (seconds: number) => void;
};

type Match = NonNullable<BotStep['match']>;
const INTENT_COUNTER: Record<Exclude<Intent, 'custom'>, 'positive' | 'negative' | 'refused'> = {
  positive: 'positive',
  negative: 'negative',
  refused: 'refused',
};

const emptyCounters = (): BotCounters => ({
  positive: 0,
  negative: 0,
  refused: 0,
  kb: 0,
  rounds: 0,
  talk_seconds: 0,
  no_match: 0,
  silence: 0,
  custom: {},
  nodes: [],
  keywords: [],
});

const matchOf = (kind: MatchKind, label: string, keywords: string[] = [], intent: Intent | null = null): Match => ({
  kind,
  label,
  keywords,
  intent,
});

/**
 * A walk of a flow, turn by turn: the live call drives it with what the recognizer heard (or the
 * digits, or silence); the test console replays typed turns (walkFlow). Deterministic for a given
 * classifier. The graph is expected to be valid (validateFlowGraph); an invalid one is walked as far
 * as it goes (a missing node hangs up).
 */
export const createFlowSession = (graph: FlowGraph, opts: FlowSessionOptions = {}): FlowSession => {
  const vars = opts.vars ?? {};
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  const counters = emptyCounters();
  counters.talk_seconds = opts.talkSeconds ?? 0;
  let current = graph.nodes.find((n) => n.type === 'start') ?? graph.nodes[0];
  let end: BotEnd = 'open';
  let isStarted = false;
  /** silence / no-match turns in a row at the current node (reset when the call moves) */
  let misses = { silence: 0, no_match: 0 };

  let lastSpeech: SpeechPart[] = [];
  /** A prompt as said: variables filled; nothing when it has neither words nor a recording. */
  const say = (text: string, audio: number | null = null): SpeechPart[] => {
    const filled = fillVariables(text, vars).trim();
    return filled || audio !== null ? [{ text: filled, audio_file_id: audio }] : [];
  };
  const sayNode = (node: FlowNode) => say(node.prompt, node.audio_file_id);
  const reach = (node: FlowNode) => {
    current = node;
    misses = { silence: 0, no_match: 0 };
    if (!counters.nodes.includes(node.key)) counters.nodes.push(node.key);
    if (isTerminalNode(node.type)) end = node.type as BotEnd;
  };
  const hear = (keywords: string[]) => {
    for (const k of keywords) if (!counters.keywords.includes(k)) counters.keywords.push(k);
  };
  const countIntent = (branch: FlowBranch) => {
    if (branch.intent === 'custom') counters.custom[branch.label] = (counters.custom[branch.label] ?? 0) + 1;
    else counters[INTENT_COUNTER[branch.intent]] += 1;
  };
  const step = (turn: CustomerTurn | null, match: Match | null, speech: SpeechPart[]): BotStep => {
    lastSpeech = speech;
    return {
      turn,
      match,
      node_key: current.key,
      node_name: current.name,
      bot_text: speech
        .map((part) => part.text)
        .filter(Boolean)
        .join(' '),
      interrupt: current.interrupt,
    };
  };
  /** Moves along a branch; the bot says the next node's prompt (a missing node hangs up). */
  const follow = (branch: FlowBranch): SpeechPart[] => {
    countIntent(branch);
    const next = byKey.get(branch.next);
    if (!next) {
      end = 'hangup';
      return [];
    }
    reach(next);
    return sayNode(next);
  };
  /** Silence or no match: repeat (the fallback's own words, else the node's prompt), then move on or hang up. */
  const fallBack = (kind: 'silence' | 'no_match', fallback: FlowFallback): SpeechPart[] => {
    counters[kind] += 1;
    misses[kind] += 1;
    if (misses[kind] <= fallback.repeats) return fallback.prompt.trim() ? say(fallback.prompt) : sayNode(current);
    const next = fallback.next ? byKey.get(fallback.next) : undefined;
    if (!next) {
      end = 'hangup';
      return [];
    }
    reach(next);
    return sayNode(next);
  };

  const read = async (turn: CustomerTurn): Promise<{ match: Match; speech: SpeechPart[] }> => {
    if (turn.kind === 'silence') {
      return { match: matchOf('silence', MATCH_KIND_LABEL.silence), speech: fallBack('silence', current.silence) };
    }
    if (turn.kind === 'digit') {
      const branch = pickDigitBranch(current, turn.digits);
      if (branch) return { match: matchOf('branch', branch.label, [], branch.intent), speech: follow(branch) };
      return { match: matchOf('no_match', MATCH_KIND_LABEL.no_match), speech: fallBack('no_match', current.no_match) };
    }
    const hit = pickBranch(current, turn.text);
    const kbHit = pickKbEntry(graph.kb, turn.text);
    if (kbHit) {
      // the question is answered; a branch heard in the same breath still moves the call on,
      // otherwise the bot returns to where it was (the current node's prompt again)
      counters.kb += 1;
      hear(kbHit.keywords);
      const answer = say(kbHit.entry.answer, kbHit.entry.audio_file_id);
      if (hit) {
        hear(hit.keywords);
        const keywords = [...new Set([...kbHit.keywords, ...hit.keywords])];
        return {
          match: matchOf('branch', hit.branch.label, keywords, hit.branch.intent),
          speech: [...answer, ...follow(hit.branch)],
        };
      }
      return { match: matchOf('kb', kbHit.entry.question, kbHit.keywords), speech: [...answer, ...sayNode(current)] };
    }
    if (hit) {
      hear(hit.keywords);
      return { match: matchOf('branch', hit.branch.label, hit.keywords, hit.branch.intent), speech: follow(hit.branch) };
    }
    if (opts.classify && graph.settings.use_llm && current.branches.length > 0) {
      const labels = current.branches.map((b) => b.label);
      const label = await opts.classify({ text: turn.text, labels, node: current });
      const branch = current.branches.find((b) => b.label === label);
      if (branch) return { match: matchOf('llm', branch.label, [], branch.intent), speech: follow(branch) };
    }
    return { match: matchOf('no_match', MATCH_KIND_LABEL.no_match), speech: fallBack('no_match', current.no_match) };
  };

  return {
    start: () => {
      if (isStarted) throw new Error('the flow session has already started');
      isStarted = true;
      reach(current);
      return step(null, null, sayNode(current));
    },
    next: async (turn) => {
      if (!isStarted) throw new Error('start the flow session first');
      if (end !== 'open') throw new Error('the flow session has ended');
      counters.rounds += 1;
      const { match, speech } = await read(turn);
      // the goodbye at max rounds, unless the turn itself ended the call
      if (end === 'open' && counters.rounds >= graph.settings.max_rounds) {
        end = 'max_rounds';
        return step(
          turn,
          { ...match, kind: 'max_rounds', label: MATCH_KIND_LABEL.max_rounds },
          say(graph.settings.max_rounds_prompt),
        );
      }
      return step(turn, match, speech);
    },
    end: () => end,
    node: () => current,
    speech: () => lastSpeech.map((part) => ({ ...part })),
    counters: () => ({
      ...counters,
      custom: { ...counters.custom },
      nodes: [...counters.nodes],
      keywords: [...counters.keywords],
    }),
    setTalkSeconds: (seconds) => {
      counters.talk_seconds = seconds;
    },
  };
};

/**
 * The test console: the opening, then each turn until the walk ends (turns after the end are not
 * heard), graded with the flow's rules. A loop over createFlowSession.
 */
export const walkFlow = async (
  graph: FlowGraph,
  turns: CustomerTurn[],
  opts: FlowSessionOptions & { talkSeconds: number },
): Promise<FlowTestResult> => {
  const session = createFlowSession(graph, opts);
  const steps = [session.start()];
  for (const turn of turns) {
    if (session.end() !== 'open') break;
    steps.push(await session.next(turn));
  }
  const counters = session.counters();
  return { steps, end: session.end(), counters, ...gradeCall(graph.grades, counters) };
};
