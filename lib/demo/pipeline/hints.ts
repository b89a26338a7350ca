/** The hints stage of `composer-lab demo`: per-layer coverage on datasets/traces. */
import { datasetsDir } from "../../core/index.js";
import type { DemoStage } from "../stage.js";
import { barChart, fromRows } from "../../viz/index.js";
import { contextsFromTraces, hintCoverage } from "../../hints/index.js";
import { defaultLayered } from "../../hints/index.js";
import { LAYERS } from "../../hints/index.js";

/** At most `n` characters, cut at a word boundary and ending with an ellipsis when cut. */
function clipAtWord(s: string, n: number): string {
  const flat = s.replace(/\s+/g, " ").trim();
  if (flat.length <= n) return flat;
  const cut = flat.slice(0, n - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > n / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

export const hintsStage: DemoStage = {
  name: "hints",
  title: "Hints: layered generation and coverage",
  description: "Generates a hint at every error site of the bundled traces with the layered generator (templates → raw error → [judge] → [introspection] → sibling) and reports per-layer coverage by error_kind.",
  async run(ctx) {
    const contexts = await contextsFromTraces([datasetsDir("traces")]);
    // The demo runs offline: the judge joins only when an endpoint is configured.
    const judge = process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : undefined;
    const cov = await hintCoverage(contexts, defaultLayered({ judge }));
    ctx.log(`${cov.hinted}/${cov.sites} sites hinted`);
    const layers = [...LAYERS, "none"] as const;
    const kinds = Object.keys(cov.byKind).sort();
    return {
      summary: `${cov.hinted} of ${cov.sites} error sites got a hint: ${layers.filter((l) => cov.byLayer[l]).map((l) => `${l} ${cov.byLayer[l]}`).join(", ")}${judge ? "" : " (judge off: no OPENAI_BASE_URL)"}.`,
      metrics: { sites: cov.sites, hinted: cov.hinted, coverage: cov.sites ? Number((cov.hinted / cov.sites).toFixed(3)) : 0, ...Object.fromEntries(layers.map((l) => [`by_${l}`, cov.byLayer[l]])) },
      tables: [
        { title: "Coverage by error_kind (sites per layer)", table: fromRows(kinds.map((k) => ({ error_kind: k, ...cov.byKind[k] }))) },
        { title: "Sample hints (one per distinct hint)", table: fromRows([...new Map(cov.results.filter((r) => r.result).map((r) => [r.result!.hint, r])).values()].slice(0, 12).map((r) => ({ kind: r.ctx.error_kind, layer: r.result!.layer, hint: clipAtWord(r.result!.hint, 140) }))) },
      ],
      figures: [{ title: "Per-layer coverage by error_kind", figure: barChart(kinds, Object.fromEntries(layers.filter((l) => cov.byLayer[l]).map((l) => [l, kinds.map((k) => cov.byKind[k]![l])])), { title: "hint source by error_kind", yTitle: "sites", stacked: true }) }],
    };
  },
};
