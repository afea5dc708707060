import type { BotCounters, GradeRule } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { defaultGradeRules, gradeCall, gradeNotConnected, scoreCall } from './flow-grade';

const counters = (c: Partial<BotCounters> = {}): BotCounters => ({
  positive: 0,
  negative: 0,
  refused: 0,
  kb: 0,
  rounds: 5,
  talk_seconds: 60,
  no_match: 0,
  silence: 0,
  custom: {},
  nodes: ['open'],
  keywords: [],
  ...c,
});

describe('grading rules', () => {
  it('the first rule that holds gives the grade; none: D', () => {
    const rules: GradeRule[] = [
      {
        grade: 'A',
        join: 'all',
        conditions: [
          { kind: 'node', node: 'agent' },
          { kind: 'keyword', keyword: '报价' },
        ],
      },
      {
        grade: 'B',
        join: 'any',
        conditions: [
          { kind: 'node', node: 'agent' },
          { kind: 'counter', counter: 'kb', op: '>=', value: 1 },
        ],
      },
    ];
    expect(gradeCall(rules, counters({ nodes: ['open', 'agent'], keywords: ['报价'] }))).toMatchObject({ grade: 'A', rule: 0 });
    // “all” needs every condition: the keyword is missing, the “any” rule holds on the node alone
    expect(gradeCall(rules, counters({ nodes: ['open', 'agent'] }))).toMatchObject({ grade: 'B', rule: 1 });
    expect(gradeCall(rules, counters({ kb: 1 }))).toMatchObject({ grade: 'B', rule: 1 });
    expect(gradeCall(rules, counters())).toMatchObject({ grade: 'D', rule: null });
    expect(gradeCall([], counters())).toMatchObject({ grade: 'D', rule: null });
  });

  it('counter comparisons at their edges: >=, <=, =', () => {
    const rule = (op: '>=' | '<=' | '=', value: number): GradeRule[] => [
      { grade: 'A', join: 'all', conditions: [{ kind: 'counter', counter: 'talk_seconds', op, value }] },
    ];
    expect(gradeCall(rule('>=', 60), counters()).grade).toBe('A');
    expect(gradeCall(rule('>=', 61), counters()).grade).toBe('D');
    expect(gradeCall(rule('<=', 60), counters()).grade).toBe('A');
    expect(gradeCall(rule('<=', 59), counters()).grade).toBe('D');
    expect(gradeCall(rule('=', 60), counters()).grade).toBe('A');
    expect(gradeCall(rule('=', 61), counters()).grade).toBe('D');
  });

  it('a keyword condition compares heard keywords as utterances are compared (case, full-width, punctuation)', () => {
    const rules: GradeRule[] = [{ grade: 'C', join: 'all', conditions: [{ kind: 'keyword', keyword: 'ＯＫ！' }] }];
    expect(gradeCall(rules, counters({ keywords: ['ok'] })).grade).toBe('C');
    expect(gradeCall(rules, counters({ keywords: ['okay'] })).grade).toBe('D');
  });

  it('the default rules: A interested, B some interest, C talked, D refused or hung up early', () => {
    const rules = defaultGradeRules();
    const grade = (c: Partial<BotCounters>) => gradeCall(rules, counters(c)).grade;
    // A: 肯定 twice, never with a refusal
    expect(grade({ positive: 2, rounds: 2 })).toBe('A');
    expect(grade({ positive: 2, refused: 1, rounds: 3 })).toBe('D');
    // B: a 肯定 or a knowledge-base question
    expect(grade({ positive: 1, rounds: 1 })).toBe('B');
    expect(grade({ kb: 1, rounds: 1 })).toBe('B');
    expect(grade({ kb: 2, negative: 1, rounds: 3 })).toBe('B');
    expect(grade({ kb: 1, refused: 1, rounds: 2 })).toBe('D');
    // C: talked two rounds or more without interest; one round is hanging up early
    expect(grade({ negative: 1, rounds: 2 })).toBe('C');
    expect(grade({ no_match: 1, rounds: 1 })).toBe('D');
    // the customer who said only 不需要 once: D, not B
    expect(grade({ refused: 1, rounds: 1 })).toBe('D');
    expect(grade({ refused: 1, rounds: 4 })).toBe('D');
    // no rule names a node: deleting any node of a new flow leaves its rules valid
    expect(rules.some((r) => r.conditions.some((c) => c.kind === 'node'))).toBe(false);
  });
});

describe('score', () => {
  it('the grade’s base moved by the call within ±10, E always 0', () => {
    expect(scoreCall('A', counters())).toBe(90);
    expect(scoreCall('A', counters({ positive: 2, kb: 1 }))).toBe(98);
    expect(scoreCall('A', counters({ positive: 10 }))).toBe(100);
    expect(scoreCall('B', counters({ positive: 10 }))).toBe(85);
    expect(scoreCall('C', counters({ refused: 1, negative: 1 }))).toBe(49);
    expect(scoreCall('D', counters({ refused: 5 }))).toBe(20);
    expect(scoreCall('E', counters({ positive: 3 }))).toBe(0);
    expect(gradeCall([], counters({ refused: 1 }))).toEqual({ grade: 'D', score: 26, rule: null });
    expect(gradeNotConnected()).toEqual({ grade: 'E', score: 0, rule: null });
  });
});
