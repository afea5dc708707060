import type { FastifyInstance } from 'fastify';

/** What the steps of the demo history share: the seeded generator, the business calendar, the API as each demo user. */

export const DAY = 86_400_000;
export const HOUR = 3_600_000;

/** mulberry32: the same history on every fresh start. */
export const generator = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A version-4 shaped call uuid from the generator (the same calls, and recordings, on every fresh start). */
export const uuidOf = (rand: () => number) => {
  const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16], 16) & 3) | 8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** Something to do at a moment of the business clock; a step may add later steps. */
export type Step = { at: number; run: () => Promise<void> };
export type Envelope<T> = { code: number; msg: string; data: T };

export type HistoryCounts = { orders: number; receipts: number; workOrders: number; calls: number; aiCalls: number };

/** One API call as a demo user (by username); a refusal stops the seed with its message. */
export type ApiCall = <T>(user: string, method: 'GET' | 'POST', url: string, payload?: object) => Promise<T>;

/** A demo customer with an owner, with its first number. */
export type OwnedCustomer = { id: number; name: string; ownerId: number | null; phone: string };

/** The state the history's steps share while the business clock walks forward. */
export type History = {
  app: FastifyInstance;
  tenantId: number;
  /** the real now (ms) when the seed started: no step runs later */
  startMs: number;
  rand: () => number;
  pick: <T>(xs: readonly T[]) => T;
  between: (lo: number, hi: number) => number;
  /** today (Beijing) + days, at a Beijing hour, in ms */
  at: (days: number, hour: number) => number;
  /** YYYY-MM-DD of a moment */
  dayOf: (ms: number) => string;
  call: ApiCall;
  staffIdOf: (username: string) => number | undefined;
  owned: OwnedCustomer[];
  customersOf: (user: string) => OwnedCustomer[];
  steps: Step[];
  counts: HistoryCounts;
  approvedOrders: { orderId: number; customerId: number; owner: string; at: number }[];
};
