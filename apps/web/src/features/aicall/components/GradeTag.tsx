import { GRADE_LABEL, type Grade } from '@crm/contracts';
import { Tag, Tooltip } from 'antd';

/** A–E in the colours of interest: A hot, B warm, C lukewarm, D cold, E not reached. */
export const GRADE_COLOR: Record<string, string> = { A: 'red', B: 'orange', C: 'blue', D: 'default', E: 'default' };

/** An AI call's grade (意向等级), its meaning on hover; `score` shown beside it when given. */
export const GradeTag = ({ grade, score }: { grade: string; score?: number }) => (
  <Tooltip title={GRADE_LABEL[grade as Grade]}>
    <Tag color={GRADE_COLOR[grade] ?? 'default'} style={{ marginInlineEnd: 0 }}>
      {grade || '-'}
      {score !== undefined ? ` · ${score}分` : ''}
    </Tag>
  </Tooltip>
);
