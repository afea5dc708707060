import { Pacer } from '../calltasks/dialer/pacer';

// What the group dialer keeps in memory on the instance whose line holds its legs (issue 15): one
// Pacer per task (the ratio adapts to the answer and abandon rates it is told), the customer legs
// it placed and where each one is, the agents being joined (between the pick and their leg's row),
// the recent samples of ratio and abandon rate for the board's chart, and the tasks holding off
// after a refusal of the company's hours or line.

export type PlacedLeg = {
  legId: string;
  callUuid: string;
  taskId: number;
  tenantId: number;
  numberId: number;
  /** real ms of the customer's answer, null while ringing */
  answeredReal: number | null;
  /** business-clock ms of the answer */
  answeredAt: number | null;
  /** the agent rung for him, and whether they were bridged */
  staffId: number | null;
  isConnected: boolean;
  isAbandoned: boolean;
};

export type Sample = { at: number; ratio: number; abandonRate: number };

const SAMPLES_KEPT = 120;

export class GroupDialerState {
  readonly pacers = new Map<number, Pacer>();
  readonly legs = new Map<string, PlacedLeg>();
  readonly joining = new Set<number>();
  readonly samples = new Map<number, Sample[]>();
  /** events of a customer leg that came before its placing returned (the line is fast), replayed on register */
  readonly early = new Map<string, unknown[]>();
  /** tasks whose dial was refused for the company's hours or its line: no dialling before (business-clock ms) */
  private readonly holds = new Map<number, number>();

  pacerOf(taskId: number, abandonTarget: number) {
    let pacer = this.pacers.get(taskId);
    if (!pacer) {
      pacer = new Pacer({ settings: { targetAbandonRate: abandonTarget / 1000 } });
      this.pacers.set(taskId, pacer);
    }
    return pacer;
  }

  /** Answered customers of the task still waiting for an agent. */
  waitingOf(taskId: number) {
    let n = 0;
    for (const leg of this.legs.values()) {
      if (leg.taskId === taskId && leg.answeredReal !== null && !leg.isConnected && !leg.isAbandoned && leg.staffId === null) n++;
    }
    return n;
  }

  legOfCall(callUuid: string) {
    for (const leg of this.legs.values()) if (leg.callUuid === callUuid) return leg;
    return undefined;
  }

  addSample(taskId: number, sample: Sample) {
    const list = this.samples.get(taskId) ?? [];
    list.push(sample);
    if (list.length > SAMPLES_KEPT) list.splice(0, list.length - SAMPLES_KEPT);
    this.samples.set(taskId, list);
  }

  hold(taskId: number, untilMs: number) {
    this.holds.set(taskId, untilMs);
  }

  /** Whether the task still waits after a refusal of its hours or line (the hold ends at its time). */
  isHeld(taskId: number, nowMs: number) {
    const until = this.holds.get(taskId);
    if (until === undefined) return false;
    if (until > nowMs) return true;
    this.holds.delete(taskId);
    return false;
  }

  /** A task that stopped running forgets its pacer (its day figures live in the database) and its hold. */
  forget(taskId: number) {
    this.pacers.delete(taskId);
    this.holds.delete(taskId);
  }
}
