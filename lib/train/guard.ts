/**
 * HeldOutGuard (systems-framing: the RL-run tripwire). Every `every` steps the trainer evaluates the
 * same policy on a slice of its training tasks (the proxy) and on a disjoint held-out split; when
 * proxy − held-out exceeds `max_gap` for `patience` consecutive checks, the run stops and the
 * reason is recorded. A widening gap means the policy is fitting the proxy (or hacking it), not
 * learning the skill.
 */
import { z } from "zod";

export const HeldOutGuardConfig = z.object({
  /** Evaluate every N RL steps (0 disables the guard). */
  every: z.number().int().min(0).default(10),
  /** Tasks evaluated on each side per check. */
  n_tasks: z.number().int().positive().default(32),
  /** Training tasks the proxy (and the final train_reward) evaluates; default n_tasks. Fewer where a
   *  grade is expensive (sandboxed tests) and only the held-out number is wanted. */
  proxy_tasks: z.number().int().positive().optional(),
  max_gap: z.number().default(0.3),
  patience: z.number().int().positive().default(2),
});
export type HeldOutGuardConfig = z.infer<typeof HeldOutGuardConfig>;

export interface GuardCheck {
  step: number;
  proxy: number;
  heldout: number;
  gap: number;
  /** Consecutive checks over max_gap so far. */
  strikes: number;
  stop: boolean;
  reason?: string;
}

export class HeldOutGuard {
  readonly config: HeldOutGuardConfig;
  readonly history: GuardCheck[] = [];
  private strikes = 0;

  constructor(config: Partial<HeldOutGuardConfig> = {}) {
    this.config = HeldOutGuardConfig.parse(config);
  }

  due(rlStep: number): boolean {
    return this.config.every > 0 && rlStep > 0 && rlStep % this.config.every === 0;
  }

  check(step: number, proxy: number, heldout: number): GuardCheck {
    const gap = proxy - heldout;
    this.strikes = gap > this.config.max_gap ? this.strikes + 1 : 0;
    const stop = this.strikes >= this.config.patience;
    const reason = stop
      ? `held-out guard: proxy ${proxy.toFixed(3)} − held-out ${heldout.toFixed(3)} = ${gap.toFixed(3)} > max_gap ${this.config.max_gap} for ${this.strikes} consecutive checks`
      : undefined;
    const c: GuardCheck = { step, proxy, heldout, gap, strikes: this.strikes, stop, ...(reason ? { reason } : {}) };
    this.history.push(c);
    return c;
  }

  /** For checkpoints: the guard resumes with its strike count. */
  get state(): { strikes: number; history: GuardCheck[] } {
    return { strikes: this.strikes, history: this.history };
  }
  restore(s: { strikes: number; history: GuardCheck[] }): void {
    this.strikes = s.strikes;
    this.history.splice(0, this.history.length, ...s.history);
  }
}
