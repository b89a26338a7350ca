/**
 * The tree's branch gates, as a registry (systems-framing.md's feedback loop: "cross-model
 * disagreement early → learned deliberation-confidence later — same lever, two levels").
 *
 * At each expanded state the controller measures two signals:
 *   - divergence D ∈ [0, 1] of the models' proposals (./tree.ts), which fires when D > threshold;
 *   - confidence: an OutcomeScorer (the student's world-model head from a checkpoint, lib/train
 *     worldModelScorer) predicts the outcome p of each distinct proposed action; its uncertainty at the
 *     state is the binary entropy H(p) (bits) of the action the tree would follow (the most proposed),
 *     which fires when H(p) > uncertainty: the student is unsure what that step leads to.
 * A gate kind is a row of GATES: which signals it needs and how their firings combine. Both signals
 * are recorded on every node whenever a scorer is given (notebook 07 draws both gates' decisions on one
 * tree), whichever gate decides.
 */
import { z } from "zod";

export const GateKind = z.enum(["divergence", "confidence", "both"]);
export type GateKind = z.infer<typeof GateKind>;

export const GateConfig = z.object({
  kind: GateKind.default("divergence"),
  /** Divergence fires when D exceeds this (0: any disagreement). */
  threshold: z.number().min(0).lt(1).default(0),
  /** Confidence fires when the followed action's outcome entropy (bits) exceeds this. */
  uncertainty: z.number().min(0).lt(1).default(0.5),
});
export type GateConfig = z.infer<typeof GateConfig>;
export type GateConfigInput = z.input<typeof GateConfig>;

/** Anything that predicts, for a state and the actions proposed at it, each action's outcome in [0, 1]. */
export interface OutcomeScorer {
  name: string;
  score(state: string, actions: string[]): Promise<number[]>;
}

/** What each signal said at one state, and what the gate decided. */
export interface GateDecision {
  kind: GateKind;
  divergence: number;
  divergence_fires: boolean;
  /** Null without a scorer. */
  confidence: { p: number[]; followed_p: number; uncertainty: number; fires: boolean } | null;
  branch: boolean;
}

interface GateRow {
  doc: string;
  needs_scorer: boolean;
  branch(divergence: boolean, confidence: boolean | null): boolean;
}

/** The gate kinds: what they need and how the two signals combine. */
export const GATES: Record<GateKind, GateRow> = {
  divergence: { doc: "branch where the models disagree (D > threshold)", needs_scorer: false, branch: (d) => d },
  confidence: { doc: "branch where the student's head is unsure of the followed action's outcome (H(p) > uncertainty)", needs_scorer: true, branch: (_d, c) => c === true },
  both: { doc: "branch where either fires: the models disagree or the student is unsure", needs_scorer: true, branch: (d, c) => d || c === true },
};

/** Binary entropy in bits. */
export function binaryEntropy(p: number): number {
  const q = Math.min(1 - 1e-12, Math.max(1e-12, p));
  return -(q * Math.log2(q) + (1 - q) * Math.log2(1 - q));
}

/** Checks a gate against what it is given (a confidence gate without a scorer is refused by name). */
export function checkGate(gate: GateConfig, scorer: OutcomeScorer | undefined): void {
  if (GATES[gate.kind].needs_scorer && !scorer) throw new Error(`gate ${gate.kind}: needs an outcome scorer (outer run --gate-checkpoint DIR: a world-model head folder)`);
}

/**
 * One state's decision: `actions` are the distinct proposed actions' texts, most proposed first (the
 * tree follows actions[0] when it does not branch).
 */
export async function decide(gate: GateConfig, divergence: number, state: string, actions: string[], scorer?: OutcomeScorer): Promise<GateDecision> {
  const divergence_fires = divergence > gate.threshold;
  let confidence: GateDecision["confidence"] = null;
  if (scorer && actions.length) {
    const p = await scorer.score(state, actions);
    const followed_p = p[0]!;
    const uncertainty = binaryEntropy(followed_p);
    confidence = { p, followed_p, uncertainty, fires: uncertainty > gate.uncertainty };
  }
  return { kind: gate.kind, divergence, divergence_fires, confidence, branch: GATES[gate.kind].branch(divergence_fires, confidence ? confidence.fires : null) };
}
