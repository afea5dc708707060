import type { BotCounters, Grade, GradeCondition, GradeRule } from '@crm/contracts';
import { normaliseUtterance } from './flow-match';

export type GradeResult = { grade: Grade; score: number; rule: number | null };

const holds = (c: GradeCondition, counters: BotCounters): boolean => {
  if (c.kind === 'node') return counters.nodes.includes(c.node);
  if (c.kind === 'keyword') {
    const wanted = normaliseUtterance(c.keyword);
    return counters.keywords.some((k) => normaliseUtterance(k) === wanted);
  }
  const value = counters[c.counter];
  if (c.op === '>=') return value >= c.value;
  if (c.op === '<=') return value <= c.value;
  return value === c.value;
};

/** The grade's starting score; E (not connected) is always 0. */
const BASE_SCORE: Record<Grade, number> = { A: 90, B: 75, C: 55, D: 30, E: 0 };
const SCORE_SPREAD = 10;

/**
 * Score 0–100 beside the grade: the grade's base (A 90, B 75, C 55, D 30), moved by how the call
 * went — +3 per 肯定, +2 per knowledge-base question (interest), −4 per 拒绝, −2 per 否定 — the move
 * held within ±10 so a score never leaves its grade's band, then clamped to 0–100. E scores 0.
 */
export const scoreCall = (grade: Grade, counters: BotCounters): number => {
  if (grade === 'E') return 0;
  const move = 3 * counters.positive + 2 * counters.kb - 4 * counters.refused - 2 * counters.negative;
  const held = Math.max(-SCORE_SPREAD, Math.min(SCORE_SPREAD, move));
  return Math.max(0, Math.min(100, BASE_SCORE[grade] + held));
};

/**
 * The grade of a connected call: the rules in order, the first whose conditions all hold (join
 * 'all') or one holds (join 'any') gives it; none: D. `rule` is the index of the rule that matched.
 */
export const gradeCall = (rules: GradeRule[], counters: BotCounters): GradeResult => {
  const index = rules.findIndex((r) =>
    r.join === 'all' ? r.conditions.every((c) => holds(c, counters)) : r.conditions.some((c) => holds(c, counters)),
  );
  const grade: Grade = index >= 0 ? rules[index].grade : 'D';
  return { grade, score: scoreCall(grade, counters), rule: index >= 0 ? index : null };
};

/** A call that was never connected: E, score 0, no rule. */
export const gradeNotConnected = (): GradeResult => ({ grade: 'E', score: 0, rule: null });

/**
 * The rules a new flow starts with, as a sales team reads a call (VOICE-NOTES: sellbot's intent
 * rules over the call's counters; 小云AI's example made one 不需要 a B, which a team would call D):
 * A = interested: ≥ 2 肯定 without a refusal (the starter flow's 转人工 takes two: 开场 and 介绍;
 * an admin whose 转人工 takes one adds a rule on that node, which no default can name: a rule on a
 * node the admin deletes would stop the flow from publishing); B = some interest: a 肯定 or a
 * knowledge-base question, without a refusal; C = talked (≥ 2 rounds) without interest or
 * refusal; anything else (refused, hung up after one round) falls to D; E is a call never
 * connected. Stored flows keep their own rules.
 */
export const defaultGradeRules = (): GradeRule[] => {
  const noRefusal: GradeCondition = { kind: 'counter', counter: 'refused', op: '=', value: 0 };
  const positive = (value: number): GradeCondition => ({ kind: 'counter', counter: 'positive', op: '>=', value });
  return [
    { grade: 'A', join: 'all', conditions: [positive(2), noRefusal] },
    { grade: 'B', join: 'all', conditions: [positive(1), noRefusal] },
    { grade: 'B', join: 'all', conditions: [{ kind: 'counter', counter: 'kb', op: '>=', value: 1 }, noRefusal] },
    { grade: 'C', join: 'all', conditions: [{ kind: 'counter', counter: 'rounds', op: '>=', value: 2 }, noRefusal] },
  ];
};
