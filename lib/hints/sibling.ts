/** Layer (f): SDPO's "successful rollouts as implicit feedback": when a sibling rollout in the
 *  same group passed, condition the teacher on that success. */
import type { ErrorContext } from "./context.js";
import type { HintGenerator } from "./protocol.js";

/** The sibling layer's default: any sibling with a reward above 0 counts as passing (a training config may
 *  ask for more: lib/train's SDPO default hint layers use 0.99, a sibling that passed outright). */
export const SIBLING_THRESHOLD = 0;

export class SiblingBootstrapGenerator implements HintGenerator {
  readonly layer = "sibling" as const;
  /** Only siblings whose reward is above `threshold` count as passing. */
  constructor(readonly threshold = SIBLING_THRESHOLD) {}
  generate(ctx: ErrorContext): string | null {
    const winners = (ctx.sibling_rollouts ?? []).filter((s) => s.reward > this.threshold);
    if (winners.length === 0) return null;
    const best = winners.reduce((a, b) => (b.reward > a.reward ? b : a));
    const snippet = best.solution_excerpt.slice(0, 200);
    if (!snippet.trim()) return null;
    return `Reminder: a working approach for this task looks like:\n${snippet}\nAdapt this to the current step.`;
  }
}
