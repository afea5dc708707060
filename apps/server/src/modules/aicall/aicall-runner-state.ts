// What the AI task runner keeps in memory on the instance whose line holds its bot legs (issue 16):
// the legs it placed and whether each was answered, and the leg events that came before their
// placing returned (a fast line). The lines in use are counted from the leg rows, not from here.

export type BotLeg = {
  legId: string;
  callUuid: string;
  tenantId: number;
  taskId: number;
  numberId: number;
  customerId: number | null;
  flowId: number;
  startedAt: Date;
  isAnswered: boolean;
  isDone: boolean;
};

export type LegEventLike = { payload: { kind: string; legId: string; callUuid: string; role: string; at: string } };

export class AiRunnerState {
  readonly legs = new Map<string, BotLeg>();
  readonly early = new Map<string, LegEventLike[]>();
  /** bot calls in progress (for tests and the shutdown to wait on) */
  readonly calls = new Set<Promise<void>>();

  track(p: Promise<void>) {
    this.calls.add(p);
    void p.finally(() => this.calls.delete(p));
  }

  /** Resolves once the bot calls now in progress are done (their results saved), or after `maxMs`. */
  async settled(maxMs = 60_000) {
    const until = Date.now() + maxMs;
    while (this.calls.size > 0 && Date.now() < until) {
      const timer = new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())).unref());
      await Promise.race([Promise.allSettled([...this.calls]), timer]);
    }
  }
}
