/** report.html: one self-contained page (plotly.js inlined once, the smallest build that draws its
 *  figures: 1.2 MB for scatter/bar/pie) that opens offline. Numbers are rounded for reading here;
 *  metrics.json keeps them whole. */
import { bundleFor, escapeHtml, figureDiv, formatNumber, plotlyScript, tableHTML } from "../viz/index.js";
import type { RunMetrics, StageOutput } from "./stage.js";

const STYLE = `
body { font-family: "Liberation Sans", Arial, sans-serif; margin: 2rem auto; max-width: 1000px; color: #222; }
h1 { margin-bottom: 0.2rem; } .meta { color: #666; margin-bottom: 1.5rem; }
section { border-top: 1px solid #ddd; padding-top: 1rem; margin-top: 1.5rem; }
.status { font-size: 0.8rem; padding: 0.1rem 0.5rem; border-radius: 0.6rem; margin-left: 0.5rem; vertical-align: middle; }
.ok { background: #d8f3dc; } .failed { background: #ffd6d6; } .skipped { background: #eee; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.5rem 0 1rem; }
td, th { border: 1px solid #ddd; padding: 0.2rem 0.5rem; text-align: left; }
pre.error { background: #fff3f3; padding: 0.5rem; overflow-x: auto; }
.figure { margin: 0.5rem 0 1rem; }
`;

function metricsTable(m: Record<string, unknown>): string {
  const rows = Object.entries(m).map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(typeof v === "number" ? formatNumber(v) : String(v))}</td></tr>`);
  return rows.length ? `<table>${rows.join("")}</table>` : "";
}

export function renderReport(run: RunMetrics, outputs: Map<string, StageOutput>): string {
  const sections = run.stages.map((s, si) => {
    const out = outputs.get(s.name);
    const parts = [
      `<section id="${escapeHtml(s.name)}"><h2>${escapeHtml(s.title)}<span class="status ${s.status}">${s.status} · ${s.seconds.toFixed(1)} s</span></h2>`,
    ];
    if (out) parts.push(`<p>${escapeHtml(out.summary)}</p>`);
    if (s.error) parts.push(`<pre class="error">${escapeHtml(s.error)}</pre>`);
    parts.push(metricsTable(s.metrics));
    for (const t of out?.tables ?? []) parts.push(`<h3>${escapeHtml(t.title)}</h3>${tableHTML(t.table)}`);
    (out?.figures ?? []).forEach((f, fi) => parts.push(`<h3>${escapeHtml(f.title)}</h3>${figureDiv(f.figure, `fig-${si}-${fi}`)}`));
    parts.push("</section>");
    return parts.join("\n");
  });
  const figures = [...outputs.values()].flatMap((o) => (o.figures ?? []).map((f) => f.figure));
  const toc = run.stages.map((s) => `<li><a href="#${escapeHtml(s.name)}">${escapeHtml(s.title)}</a> — ${s.status}</li>`).join("");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>composer-lab run ${escapeHtml(run.run_id)}</title>
<style>${STYLE}</style>
<script>${plotlyScript(bundleFor(figures))}</script></head>
<body>
<h1>composer-lab demo</h1>
<div class="meta">run ${escapeHtml(run.run_id)} · ${escapeHtml(run.started_at)} → ${escapeHtml(run.finished_at)} · node ${escapeHtml(run.node)} · ${escapeHtml(run.platform)} · ${run.ok ? "all stages ok" : "some stages failed"}</div>
<ul>${toc}</ul>
${sections.join("\n")}
</body></html>
`;
}
