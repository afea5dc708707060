import type { RatePart } from '@crm/contracts';

// How a call is priced (issue 27), pure integer arithmetic (money in 1/10,000 yuan, no float money):
//   billed seconds: 0 when the call was not answered or talked 0 s; else the first block for any
//   talk up to it, then whole increments: first + ceil((talk − first) / increment) · increment
//   (60/60: 61 s → 120 s; 6/6: 61 s → 66 s; 30/6: 61 s → 66 s);
//   cost of an answered call: connect fee + round-half-up(billed · price per minute / 60);
//   a call not answered costs nothing, or the connect fee when the plan charges unanswered calls.
// Talk is counted from answer to hang-up (never ringing time): the call record's billsec.

export const billedSeconds = (part: Pick<RatePart, 'first_block' | 'increment'>, talk: number): number => {
  if (talk <= 0) return 0;
  if (talk <= part.first_block) return part.first_block;
  return part.first_block + Math.ceil((talk - part.first_block) / part.increment) * part.increment;
};

/** round-half-up of billed · price / 60, on integers */
const talkCost = (billed: number, pricePerMinute: number) => Math.floor((billed * pricePerMinute * 2 + 60) / 120);

export type CallCost = { billed: number; cost: number };

/** What a call costs under a plan part. */
export const callCost = (part: RatePart, isAnswered: boolean, talk: number): CallCost => {
  if (!isAnswered) return { billed: 0, cost: part.charge_unanswered ? part.connect_fee : 0 };
  const billed = billedSeconds(part, talk);
  return { billed, cost: part.connect_fee + talkCost(billed, part.price_per_minute) };
};

/** A part that never costs anything: the call needs no credit. */
export const isFreePart = (part: RatePart) => part.connect_fee === 0 && part.price_per_minute === 0;

/**
 * The longest billed talk `credit` pays for (a point of the billing grid: the first block plus
 * whole increments); 0 when it does not pay the first block. null: the part is free of time.
 */
export const maxBilledSeconds = (part: RatePart, credit: number): number | null => {
  if (part.price_per_minute === 0) return credit >= part.connect_fee ? null : 0;
  const forTalk = credit - part.connect_fee;
  if (forTalk < 0) return 0;
  // the largest s with round-half-up(s · p / 60) ≤ forTalk  ⇔  2·s·p + 60 < 120·(forTalk + 1)
  const s = Math.floor((120 * (forTalk + 1) - 61) / (2 * part.price_per_minute));
  if (s < part.first_block) return 0;
  return part.first_block + Math.floor((s - part.first_block) / part.increment) * part.increment;
};

/**
 * Seconds a call may talk on `credit`: the billed maximum less a guard, so a hang-up that lands a
 * second or two after the timer (the line's latency, billsec rounding) still bills within it.
 */
export const TALK_GUARD_SECONDS = 2;

/**
 * The least credit a call must find to be placed: its connect fee and first block (and, on a
 * per-second plan, the guard's seconds too, so the call may talk at least a second).
 */
export const minimumCredit = (part: RatePart) => callCost(part, true, TALK_GUARD_SECONDS + 1).cost;
export const maxTalkSeconds = (part: RatePart, credit: number): number | null => {
  const billed = maxBilledSeconds(part, credit);
  if (billed === null) return null;
  return Math.max(1, billed - TALK_GUARD_SECONDS);
};
