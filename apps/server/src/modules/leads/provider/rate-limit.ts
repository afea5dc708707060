/**
 * Token buckets for the provider's paid calls: one per company and one for the whole instance.
 * A call waits for a token of both (FIFO per bucket), so concurrent users never push a key past
 * the provider's rate, whatever the number of requests in flight.
 */

export class TokenBucket {
  private tokens: number;
  private last = Date.now();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number = perSecond,
  ) {
    this.tokens = burst;
  }

  private refill() {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }

  /** Resolves when a token is taken (callers are served in arrival order). */
  take(): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        this.refill();
        if (this.tokens >= 1) {
          this.tokens -= 1;
          return;
        }
        await new Promise((r) => setTimeout(r, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000)));
      }
    });
    this.queue = turn;
    return turn;
  }
}

/** The company buckets and the global one. */
export class ProviderLimiter {
  private readonly perTenant = new Map<number, TokenBucket>();
  private readonly global: TokenBucket;

  constructor(
    private readonly tenantQps: number,
    globalQps: number,
  ) {
    this.global = new TokenBucket(globalQps);
  }

  async acquire(tenantId: number) {
    let bucket = this.perTenant.get(tenantId);
    if (!bucket) {
      // burst 1: a key's requests are spread evenly, so no 1-second window holds more than the rate
      bucket = new TokenBucket(this.tenantQps, 1);
      this.perTenant.set(tenantId, bucket);
    }
    await bucket.take();
    await this.global.take();
  }
}
