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
 * The rules a new flow starts with (小云AI's published example, VOICE-NOTES): A = ≥ 2 knowledge-base
 * questions and no refusal, or ≥ 2 肯定 and no refusal; B = exactly one refusal; C = only 否定 (none
 * positive), or ≥ 2 refusals, or ≤ 2 rounds; D = the rest.
 */
export const defaultGradeRules = (): GradeRule[] => [
  {
    grade: 'A',
    join: 'all',
    conditions: [
      { kind: 'counter', counter: 'kb', op: '>=', value: 2 },
      { kind: 'counter', counter: 'refused', op: '=', value: 0 },
    ],
  },
  {
    grade: 'A',
    join: 'all',
    conditions: [
      { kind: 'counter', counter: 'positive', op: '>=', value: 2 },
      { kind: 'counter', counter: 'refused', op: '=', value: 0 },
    ],
  },
  { grade: 'B', join: 'all', conditions: [{ kind: 'counter', counter: 'refused', op: '=', value: 1 }] },
  {
    grade: 'C',
    join: 'all',
    conditions: [
      { kind: 'counter', counter: 'negative', op: '>=', value: 1 },
      { kind: 'counter', counter: 'positive', op: '=', value: 0 },
    ],
  },
  {
    grade: 'C',
    join: 'any',
    conditions: [
      { kind: 'counter', counter: 'refused', op: '>=', value: 2 },
      { kind: 'counter', counter: 'rounds', op: '<=', value: 2 },
    ],
  },
];
