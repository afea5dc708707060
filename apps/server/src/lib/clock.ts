/**
 * The business clock: "today", follow-up times, appointments and recycling read it.
 * Sessions and rate limits keep real time. Tests (and only tests: CLOCK_CONTROL) move it
 * forward through POST /api/frontend/test/clock instead of sleeping.
 */
let offsetMs = 0;

export const now = (): Date => new Date(Date.now() + offsetMs);

/** Business milliseconds since `at`. */
export const msSince = (at: Date): number => now().getTime() - at.getTime();

export const clockOffsetMs = (): number => offsetMs;

export const setClockOffsetMs = (ms: number): void => {
  offsetMs = ms;
};
