/**
 * The lab's one seeded PRNG: mulberry32. Its whole state is one 32-bit integer, so a run's
 * randomness checkpoints as a number, and a seed is simply an initial state. Not cryptographic.
 */
export class Rng {
  private s: number;

  constructor(seedOrState = 0) {
    this.s = seedOrState | 0;
  }

  /** The state to save; `new Rng(saved)` or `rng.state = saved` resumes the exact stream. */
  get state(): number {
    return this.s;
  }
  set state(s: number) {
    this.s = s | 0;
  }

  /** The next raw output, an unsigned 32-bit integer. */
  uint32(): number {
    const t = (this.s = (this.s + 0x6d2b79f5) | 0);
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return (r ^ (r >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform in (0, 1): never 0, so log(u) is finite. */
  nextOpen(): number {
    return (this.uint32() + 0.5) / 4294967296;
  }

  /** One of `xs`, uniformly (one draw of next()). */
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }

  /** A shuffled copy of `xs` (Fisher–Yates, one draw of next() per item after the first). */
  shuffle<T>(xs: readonly T[]): T[] {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** Standard normal by Box–Muller (cosine branch only: two uniforms per draw and nothing cached,
   *  so the state stays a single integer). */
  normal(): number {
    const u = this.nextOpen();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.nextOpen());
  }
}
