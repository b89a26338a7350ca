/** The builder's four validation gates (the seed's §5c) and the failure each raises. */
export const GATES = ["gate1", "gate2", "gate3", "gate4"] as const;
export type Gate = (typeof GATES)[number];
export type GateName = "baseline" | "breaks_target" | "kills_mutants" | "keeps_rest" | "solvable";
// gate 2 asks that the targets fail without the feature; kills_mutants, that they fail without any
// part of it (mutants.ts), where the behavioural check cannot stand in for them
export const GATE_OF: Record<GateName, Gate> = { baseline: "gate1", breaks_target: "gate2", kills_mutants: "gate2", keeps_rest: "gate3", solvable: "gate4" };

export class GateFailure extends Error {
  constructor(readonly gate: GateName, message: string) {
    super(`gate ${gate}: ${message}`);
  }
}
