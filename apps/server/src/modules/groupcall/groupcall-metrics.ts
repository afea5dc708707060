import type { FigureSample, FigureSource } from '../metrics/metrics-collectors';
import type { GroupDialerState } from './groupcall-state';

/**
 * The group dialer's figures for GET /metrics (issue 25), per task this instance dials: the ratio it
 * dials at now, and the day's answered and abandoned customers (the abandon rate the operator
 * watches against the task's target). Read from the in-memory pacers, no database.
 */
export const dialerFigures = (state: GroupDialerState, clock: () => number): FigureSource => ({
  gauges: [
    { name: 'crm_dialer_ratio', help: 'Group dialer: lines dialled per free agent now, by task', labelNames: ['task'] },
    {
      name: 'crm_dialer_customers_today',
      help: 'Group dialer: customers answered and abandoned (answered, no agent in time) today, by task',
      labelNames: ['task', 'outcome'],
    },
  ],
  read: async () => {
    const at = clock();
    const out: FigureSample[] = [];
    for (const [taskId, pacer] of state.pacers) {
      const s = pacer.snapshot(at);
      const task = String(taskId);
      out.push({ gauge: 'crm_dialer_ratio', labels: { task }, value: s.ratio });
      out.push({ gauge: 'crm_dialer_customers_today', labels: { task, outcome: 'answered' }, value: s.answered });
      out.push({ gauge: 'crm_dialer_customers_today', labels: { task, outcome: 'abandoned' }, value: s.abandoned });
    }
    return out;
  },
});
