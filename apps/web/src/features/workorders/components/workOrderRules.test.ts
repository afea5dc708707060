import type { WorkStage } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { eventFromTo, stageMoves, stagesProblem } from './workOrderRules';

const named = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `阶段${i + 1}` }));

describe('stagesProblem', () => {
  it('takes 2 to 10 stages and refuses 1 and 11 with the contract messages', () => {
    expect(stagesProblem(undefined)).toBe('至少设置2个阶段');
    expect(stagesProblem(named(1))).toBe('至少设置2个阶段');
    expect(stagesProblem(named(2))).toBeNull();
    expect(stagesProblem(named(10))).toBeNull();
    expect(stagesProblem(named(11))).toBe('最多设置10个阶段');
  });
  it('refuses the same name twice (trimmed), leaving empty names to their own rule', () => {
    expect(stagesProblem([{ name: '处理中' }, { name: ' 处理中 ' }])).toBe('阶段名称不能重复');
    expect(stagesProblem([{ name: '' }, { name: '' }, { name: '完成' }])).toBeNull();
  });
});

describe('eventFromTo', () => {
  it('shows a move, a creation and a one-sided fact', () => {
    expect(eventFromTo({ kind: 'transition', from_name: '待受理', to_name: '处理中' })).toBe('待受理 → 处理中');
    expect(eventFromTo({ kind: 'created', from_name: '', to_name: '待受理' })).toBe('当前阶段：待受理');
    expect(eventFromTo({ kind: 'edited', from_name: '', to_name: '紧急' })).toBe('紧急');
  });
});

describe('stageMoves', () => {
  // given out of order: the moves follow `sort`
  const stages: WorkStage[] = [
    { id: 13, name: '已完成', sort: 3, rollback: false },
    { id: 11, name: '待受理', sort: 1, rollback: false },
    { id: 12, name: '处理中', sort: 2, rollback: true },
  ];
  const can = { edit: true, transition: true, comment: true, transfer: true };
  const at = (node_id: number, status = 0, transition = true) =>
    stageMoves({ stages, node_id, status, can: { ...can, transition } });

  it('goes on to the next stage; back only from a 可回退 stage, to the earlier ones', () => {
    expect(at(11).next?.name).toBe('处理中');
    expect(at(11).earlier).toEqual([]);
    expect(at(12).next?.name).toBe('已完成');
    expect(at(12).earlier.map((s) => s.name)).toEqual(['待受理']);
  });
  it('offers nothing when done or when the caller may not move it', () => {
    expect(at(13, 1)).toMatchObject({ next: undefined, earlier: [], current: 2 });
    expect(at(12, 0, false)).toMatchObject({ next: undefined, earlier: [] });
  });
});
