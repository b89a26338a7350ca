/**
 * Hint coverage as pictures and as a before/after: which layer hinted each error kind (stacked bars),
 * and what a change to the layers (a new template, a judge turned on) did, site by site.
 */
import { barChart, type Figure } from "../viz/index.js";
import type { Coverage, HintedSite, LayerOrNone } from "./eval.js";
import { LAYERS } from "./protocol.js";

const ORDER: readonly LayerOrNone[] = [...LAYERS, "none"];

/** A site that changed layer (or hint text) between two coverages. */
export interface CoverageChange {
  /** `session_id#turn_index` (with `#k` for the k-th site at the same turn), or `#position` without them. */
  site: string;
  error_kind: string;
  before: LayerOrNone;
  after: LayerOrNone;
  hint_before: string | null;
  hint_after: string | null;
}

export interface CoverageComparison {
  sites: number;
  hinted: { before: number; after: number };
  /** Sites per layer, before and after. */
  byLayer: Record<LayerOrNone, { before: number; after: number }>;
  /** "from → to": how many sites moved that way (unchanged layers left out). */
  moves: Record<string, number>;
  /** Per error kind that changed: sites per layer before and after. */
  byKind: Record<string, { before: Partial<Record<LayerOrNone, number>>; after: Partial<Record<LayerOrNone, number>> }>;
  /** Every site whose layer or hint changed, in the order of `before`. */
  changed: CoverageChange[];
}

function keyed(results: HintedSite[]): Map<string, HintedSite> {
  const seen = new Map<string, number>();
  const out = new Map<string, HintedSite>();
  results.forEach((r, i) => {
    const base = r.ctx.session_id !== undefined && r.ctx.turn_index !== undefined ? `${r.ctx.session_id}#${r.ctx.turn_index}` : `#${i}`;
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    out.set(k ? `${base}#${k}` : base, r);
  });
  return out;
}

/**
 * Compares two coverages of the same sites (two generators over one set of contexts): per layer, the
 * moves between layers, per error kind, and each site that changed. Sites are matched by session and
 * turn; coverages over different sites are refused, naming some of those only in one.
 */
export function compareCoverage(before: Coverage, after: Coverage): CoverageComparison {
  const a = keyed(before.results);
  const b = keyed(after.results);
  const onlyA = [...a.keys()].filter((k) => !b.has(k));
  const onlyB = [...b.keys()].filter((k) => !a.has(k));
  if (onlyA.length || onlyB.length) {
    const list = (xs: string[]) => `${xs.slice(0, 5).join(", ")}${xs.length > 5 ? ` and ${xs.length - 5} more` : ""}`;
    throw new Error(`compareCoverage: the coverages are over different sites (${onlyA.length} only before${onlyA.length ? `: ${list(onlyA)}` : ""}; ${onlyB.length} only after${onlyB.length ? `: ${list(onlyB)}` : ""})`);
  }
  const byLayer = Object.fromEntries(ORDER.map((l) => [l, { before: before.byLayer[l] ?? 0, after: after.byLayer[l] ?? 0 }])) as CoverageComparison["byLayer"];
  const moves: Record<string, number> = {};
  const changed: CoverageChange[] = [];
  const kinds = new Set<string>();
  for (const [site, x] of a) {
    const y = b.get(site)!;
    const from: LayerOrNone = x.result?.layer ?? "none";
    const to: LayerOrNone = y.result?.layer ?? "none";
    const hb = x.result?.hint ?? null;
    const ha = y.result?.hint ?? null;
    if (from !== to) moves[`${from} → ${to}`] = (moves[`${from} → ${to}`] ?? 0) + 1;
    if (from !== to || hb !== ha) {
      changed.push({ site, error_kind: x.ctx.error_kind, before: from, after: to, hint_before: hb, hint_after: ha });
      kinds.add(x.ctx.error_kind);
    }
  }
  const nonzero = (r: Record<LayerOrNone, number> | undefined) => Object.fromEntries(Object.entries(r ?? {}).filter(([, n]) => n > 0)) as Partial<Record<LayerOrNone, number>>;
  const byKind = Object.fromEntries([...kinds].sort().map((k) => [k, { before: nonzero(before.byKind[k]), after: nonzero(after.byKind[k]) }]));
  return { sites: before.sites, hinted: { before: before.hinted, after: after.hinted }, byLayer, moves, byKind, changed };
}

/** Sites by error kind, stacked by the layer that hinted them: horizontal, the most frequent kind on top. */
export function coverageFigure(cov: Coverage, title = "Error sites by kind, by the layer that hinted them"): Figure {
  const kinds = Object.entries(cov.byKind)
    .map(([k, r]) => [k, ORDER.reduce((n, l) => n + (r[l] ?? 0), 0)] as const)
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .map(([k]) => k);
  const used = ORDER.filter((l) => kinds.some((k) => (cov.byKind[k]![l] ?? 0) > 0));
  return barChart(kinds, Object.fromEntries(used.map((l) => [l, kinds.map((k) => cov.byKind[k]![l] ?? 0)])), {
    title, horizontal: true, stacked: true, xTitle: "error sites", yTitle: "error kind",
  });
}

/** Sites per layer before and after a change, side by side (grouped bars, the layers in order). */
export function compareCoverageFigure(cmp: CoverageComparison, labels: { before?: string; after?: string; title?: string } = {}): Figure {
  const layers = ORDER.filter((l) => cmp.byLayer[l].before || cmp.byLayer[l].after);
  return barChart(layers, {
    [labels.before ?? "before"]: layers.map((l) => cmp.byLayer[l].before),
    [labels.after ?? "after"]: layers.map((l) => cmp.byLayer[l].after),
  }, { title: labels.title ?? `Sites per hint layer, before and after (${cmp.changed.length} of ${cmp.sites} sites changed)`, xTitle: "hint layer", yTitle: "error sites" });
}
