import { FLOW_VARIABLES, type FlowBranch, type FlowKbEntry, type FlowNode, INTENT_ORDER, type MatchMode } from '@crm/contracts';

/**
 * Text as matching sees it: full-width forms folded (ＡＢＣ１ → abc1), lower case, without spaces,
 * punctuation or symbols, so “好的！”, "好 的" and "好的" are the same utterance.
 */
export const normaliseUtterance = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]/gu, '');

/**
 * The keywords of a list that the utterance satisfies in the given mode, or null when it does not:
 * any — at least one keyword occurs in it; all — every keyword occurs; exact — the whole utterance
 * is one of the keywords. A keyword that is only punctuation never matches.
 */
export const matchKeywords = (mode: MatchMode, keywords: string[], utterance: string): string[] | null => {
  const said = normaliseUtterance(utterance);
  const words = keywords.map((k) => ({ k, n: normaliseUtterance(k) })).filter((w) => w.n.length > 0);
  if (!said || words.length === 0) return null;
  if (mode === 'exact') {
    const hit = words.find((w) => w.n === said);
    return hit ? [hit.k] : null;
  }
  const heard = words.filter((w) => said.includes(w.n));
  if (mode === 'all') return heard.length === words.length ? heard.map((w) => w.k) : null;
  return heard.length > 0 ? heard.map((w) => w.k) : null;
};

export type BranchHit = { branch: FlowBranch; keywords: string[] };

/**
 * The branch of a node an utterance takes: among the branches whose keywords match, the first by
 * intent in INTENT_ORDER (否定 → 拒绝 → 自定义 → 肯定: “不是” also contains “是”), then by their order.
 */
export const pickBranch = (node: FlowNode, utterance: string): BranchHit | null => {
  const hits = node.branches.flatMap((branch) => {
    const keywords = matchKeywords(branch.match, branch.keywords, utterance);
    return keywords ? [{ branch, keywords }] : [];
  });
  if (hits.length === 0) return null;
  const rank = (h: BranchHit) => INTENT_ORDER.indexOf(h.branch.intent);
  return hits.reduce((best, h) => (rank(h) < rank(best) ? h : best));
};

/** The branch keyed by a turn's digits: the first digit that some branch listens for. */
export const pickDigitBranch = (node: FlowNode, digits: string): FlowBranch | null => {
  for (const d of digits) {
    const branch = node.branches.find((b) => b.digits.includes(d));
    if (branch) return branch;
  }
  return null;
};

export type KbHit = { entry: FlowKbEntry; keywords: string[] };

/** The first knowledge-base entry whose question keywords the utterance matches. */
export const pickKbEntry = (kb: FlowKbEntry[], utterance: string): KbHit | null => {
  for (const entry of kb) {
    const keywords = matchKeywords(entry.match, entry.keywords, utterance);
    if (keywords) return { entry, keywords };
  }
  return null;
};

/** A prompt with its known variables filled in ({客户名称} → 张先生); anything else stays as written. */
export const fillVariables = (text: string, vars: Record<string, string>): string =>
  text.replace(/\{([^{}]*)\}/g, (whole, name: string) =>
    (FLOW_VARIABLES as readonly string[]).includes(name) ? (vars[name] ?? '') : whole,
  );

/** What the classifier reads back: the label it chose, compared like utterances. */
export const labelOf = (answer: string, labels: string[]): string | null => {
  const said = normaliseUtterance(answer);
  if (!said) return null;
  const exact = labels.find((l) => normaliseUtterance(l) === said);
  if (exact) return exact;
  // a chatty answer (“分类：肯定”) names exactly one label
  const named = labels.filter((l) => normaliseUtterance(l) && said.includes(normaliseUtterance(l)));
  return named.length === 1 ? named[0] : null;
};
