/** A seeded pseudo-random source (mulberry32) and the distributions the floor simulation draws from. */

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  uniform(min: number, max: number): number;
  /** Log-normal with the given median, clamped to [min, max]. */
  logNormal(d: LogNormal): number;
}

export interface LogNormal {
  medianMs: number;
  sigma: number;
  minMs: number;
  maxMs: number;
}

export const seededRandom = (seed: number): Random => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    // Box–Muller; 1 − u keeps the logarithm finite.
    const u = 1 - next();
    const v = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  return {
    next,
    uniform: (min, max) => min + (max - min) * next(),
    logNormal: (d) => Math.min(d.maxMs, Math.max(d.minMs, d.medianMs * Math.exp(d.sigma * normal()))),
  };
};
