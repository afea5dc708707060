import { WORK_ORDER_LIMITS, type WorkEvent, type WorkOrderDetail, type WorkStage } from '@crm/contracts';

const { stagesMin, stagesMax } = WORK_ORDER_LIMITS;

/**
 * The stage list of a type form: the contract's count messages (至少设置2个阶段 / 最多设置10个阶段)
 * and the server's 阶段名称不能重复; null when it may be saved.
 */
export const stagesProblem = (stages: { name?: string }[] | undefined): string | null => {
  const n = stages?.length ?? 0;
  if (n < stagesMin) return `至少设置${stagesMin}个阶段`;
  if (n > stagesMax) return `最多设置${stagesMax}个阶段`;
  const names = (stages ?? []).map((s) => s?.name?.trim()).filter(Boolean);
  return new Set(names).size === names.length ? null : '阶段名称不能重复';
};

/** A thread event's from → to (stages, handlers); a creation names only the stage it starts in. */
export const eventFromTo = (e: Pick<WorkEvent, 'kind' | 'from_name' | 'to_name'>): string => {
  if (e.from_name && e.to_name) return `${e.from_name} → ${e.to_name}`;
  if (e.kind === 'created') return `当前阶段：${e.to_name}`;
  return e.from_name || e.to_name;
};

/**
 * Where a work order may move (the server decides, this only shows the buttons): the next stage
 * while open, and the earlier stages when the current one is 可回退 and the order still open.
 */
export const stageMoves = (
  d: Pick<WorkOrderDetail, 'stages' | 'node_id' | 'status' | 'can'>,
): { stages: WorkStage[]; current: number; next?: WorkStage; earlier: WorkStage[] } => {
  const stages = [...d.stages].sort((a, b) => a.sort - b.sort);
  const current = stages.findIndex((s) => s.id === d.node_id);
  const isOpen = d.status === 0 && d.can.transition;
  const next = isOpen && current >= 0 ? stages[current + 1] : undefined;
  const earlier = isOpen && current > 0 && stages[current]?.rollback ? stages.slice(0, current) : [];
  return { stages, current, next, earlier };
};
