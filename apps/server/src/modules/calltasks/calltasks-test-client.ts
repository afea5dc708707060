import { expect } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import type { TestApp } from '../../test/harness';

/** What the call-task API tests share: the business clock in Beijing time, the company's call settings. */

/** The company's call settings the tests start from: calls at any hour, the SPEC caps. */
export const CALL_SETTINGS = {
  callerNumber: '',
  callHours: { from: '00:00', to: '24:00' },
  bridgeMode: '3pcc',
  manualObeysHours: true,
  capPer5Min: 3,
  capPerDay: 5,
  dncRetentionMonths: 6,
};

/** Saves the company's call settings: CALL_SETTINGS with `patch`. */
export const saveCallSettings = async (t: TestApp, adminToken: string, patch: Record<string, unknown> = {}) => {
  const res = await t.post('/api/frontend/callsetting/save', { ...CALL_SETTINGS, ...patch }, adminToken);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
};

/** Unix ms of a Beijing wall-clock time on Monday 2030-01-07 (+ `days`): a date far from any real one. */
export const beijing = (hhmmss: string, days = 0) => {
  const [h, m, s] = hhmmss.split(':').map(Number);
  return Date.UTC(2030, 0, 7 + days, h - 8, m, s);
};

/** Sets the business clock to that time. */
export const setBeijing = (hhmmss: string, days = 0) => setClockOffsetMs(beijing(hhmmss, days) - Date.now());
