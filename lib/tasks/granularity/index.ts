/** The deletion granularities, one registry entry each (strategy.ts); add one here and in schema.ts's Granularity. */
import type { GranularityName, GranularityStrategy } from "./strategy.js";
import { classGranularity } from "./class.js";
import { featureGranularity } from "./feature.js";
import { fileGranularity } from "./file.js";
import { functionGranularity } from "./function.js";

export const GRANULARITIES: Record<GranularityName, GranularityStrategy> = {
  function: functionGranularity,
  class: classGranularity,
  file: fileGranularity,
  feature: featureGranularity,
};

/** The escalation ladder: function, then each level's `harder`, to the widest. */
export function granularityLadder(): GranularityName[] {
  const out: GranularityName[] = ["function"];
  for (let next = GRANULARITIES.function.harder; next && !out.includes(next); next = GRANULARITIES[next].harder) out.push(next);
  return out;
}

export { slug, symbolCandidates, describeSymbols, type Candidate, type SelectContext, type DeleteContext, type Deletion, type GranularityStrategy, type GranularityName } from "./strategy.js";
