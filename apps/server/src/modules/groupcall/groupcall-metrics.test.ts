import { describe, expect, it } from 'vitest';
import { dialerFigures } from './groupcall-metrics';
import { GroupDialerState } from './groupcall-state';

/** Issue 25: the group dialer's ratio and the day's answered / abandoned customers reach GET /metrics per task. */
describe('dialerFigures', () => {
  it('reports nothing while no task dials on this instance', async () => {
    expect(await dialerFigures(new GroupDialerState(), () => Date.now()).read()).toEqual([]);
  });

  it("reports each dialling task's ratio and its answered and abandoned customers of the day", async () => {
    const state = new GroupDialerState();
    const at = Date.UTC(2030, 0, 7, 2, 0, 0);
    const pacer = state.pacerOf(41, 30);
    for (let i = 0; i < 3; i++) pacer.rang(at + i, true);
    pacer.rang(at + 5, false);
    pacer.connected(at + 10, 2_000);
    pacer.connected(at + 11, 2_000);
    pacer.abandoned(at + 12);
    state.pacerOf(42, 30);
    const samples = await dialerFigures(state, () => at + 20).read();
    expect(samples).toContainEqual({ gauge: 'crm_dialer_ratio', labels: { task: '41' }, value: 1 });
    expect(samples).toContainEqual({
      gauge: 'crm_dialer_customers_today',
      labels: { task: '41', outcome: 'answered' },
      value: 3,
    });
    expect(samples).toContainEqual({
      gauge: 'crm_dialer_customers_today',
      labels: { task: '41', outcome: 'abandoned' },
      value: 1,
    });
    expect(samples).toContainEqual({
      gauge: 'crm_dialer_customers_today',
      labels: { task: '42', outcome: 'answered' },
      value: 0,
    });
    expect(samples).toHaveLength(6);
  });
});
