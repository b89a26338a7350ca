import type { ErrorContext } from "./context.js";

/** The layers of the seed's taxonomy, cheapest first. */
export const LAYERS = ["template", "raw_error", "judge", "introspection", "sibling"] as const;
export type LayerName = (typeof LAYERS)[number];

/** A hint source: the hint text, or null to decline this site. May be async (judge, models). */
export interface HintGenerator {
  readonly layer: LayerName;
  generate(ctx: ErrorContext): string | null | Promise<string | null>;
}

/** At most `n` sentences (the judge and introspection layers promise short hints). */
export function firstSentences(text: string, n = 2): string {
  const t = text.trim().replace(/\s+/g, " ");
  const parts = t.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g) ?? [t];
  return parts.slice(0, n).join("").trim();
}
