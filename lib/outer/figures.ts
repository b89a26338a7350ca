/** Figures of the OUTER loop as Plotly JSON (lib/viz's Figure): a grown tree, the divergence histogram. */
import type { Figure } from "../viz/index.js";
import { actionText } from "./actions.js";
import { treeStats, type Tree } from "./tree.js";

const PALETTE = ["#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * One task's tree: x = depth, leaves spread along y (a parent sits at its children's mean). Nodes
 * are coloured by reward (a leaf's grade, an inner node's best leaf below it), edges by the model
 * that proposed the action (the first, when several agreed); hover shows the action.
 */
export function treeFigure(tree: Tree, opts: { title?: string; width?: number; height?: number } = {}): Figure {
  const { value } = treeStats(tree);
  const y = new Map<string, number>();
  let nextLeaf = 0;
  const place = (id: string): number => {
    const n = tree.nodes.get(id)!;
    const at = n.children.length ? n.children.map(place).reduce((a, b) => a + b, 0) / n.children.length : nextLeaf++;
    y.set(id, at);
    return at;
  };
  place(tree.root);
  const nodes = [...tree.nodes.values()];
  const models = [...new Set(nodes.flatMap((n) => (n.parent ? [n.models[0] ?? "?"] : [])))];
  const edges = models.map((m, i) => {
    const xs: (number | null)[] = [];
    const ys: (number | null)[] = [];
    for (const n of nodes) {
      if (!n.parent || (n.models[0] ?? "?") !== m) continue;
      const p = tree.nodes.get(n.parent)!;
      xs.push(p.depth, n.depth, null);
      ys.push(y.get(p.id)!, y.get(n.id)!, null);
    }
    return { type: "scatter", mode: "lines", name: m, x: xs, y: ys, line: { color: PALETTE[i % PALETTE.length], width: 3 }, hoverinfo: "skip" };
  });
  const points = {
    type: "scatter", mode: "markers", name: "states", showlegend: false,
    x: nodes.map((n) => n.depth), y: nodes.map((n) => y.get(n.id)!),
    marker: { size: nodes.map((n) => (n.leaf ? 16 : 12)), symbol: nodes.map((n) => (n.leaf ? "square" : "circle")), color: nodes.map((n) => value.get(n.id) ?? 0), cmin: 0, cmax: 1, colorscale: "RdYlGn", colorbar: { title: { text: "reward" } }, line: { color: "#333", width: 1 } },
    text: nodes.map((n) => `${n.id}<br>${n.parent ? clip(actionText(n.actions ?? []), 120).replace(/\n/g, "<br>") : "root"}<br>models: ${n.models.join(", ") || "—"}<br>${n.leaf ? `graded: ${n.reward}` : `divergence ${n.divergence?.toFixed(2) ?? "—"}`}`),
    hoverinfo: "text",
  };
  return {
    data: [...edges, points],
    layout: {
      title: { text: opts.title ?? clip(tree.task.task_id, 80) }, width: opts.width ?? 720, height: opts.height ?? 420,
      xaxis: { title: { text: "depth (actions)" }, dtick: 1 }, yaxis: { visible: false }, legend: { title: { text: "edge: model" } },
      margin: { l: 20, r: 20, t: 50, b: 50 },
    },
  };
}

/** The divergence histogram of a run summary (its bins, as counted). */
export function divergenceFigure(h: { edges: number[]; counts: number[] }, title = "divergence at expanded states"): Figure {
  return {
    data: [{ type: "bar", x: h.counts.map((_, i) => `${h.edges[i]}–${h.edges[i + 1]}`), y: h.counts, marker: { color: "#1f77b4" } }],
    layout: { title: { text: title }, xaxis: { title: { text: "D = (distinct − 1) / (valid − 1)" } }, yaxis: { title: { text: "states" } }, width: 720, height: 360 },
  };
}

/** One row per state a gate judged: the divergence, the head's predicted outcome of the followed action
 *  and its uncertainty, which signal fired, and whether the tree branched (notebook 07's table). */
export function gateRows(tree: Tree): Record<string, string | number | boolean | null>[] {
  return [...tree.nodes.values()].filter((n) => n.gate).map((n) => ({
    node: n.id.slice(0, 8), depth: n.depth, proposals: n.proposals.filter((p) => p.key).length, distinct: n.gate!.confidence?.p.length ?? null,
    divergence: Number(n.gate!.divergence.toFixed(3)), divergence_fires: n.gate!.divergence_fires,
    followed_p: n.gate!.confidence ? Number(n.gate!.confidence.followed_p.toFixed(3)) : null, uncertainty_bits: n.gate!.confidence ? Number(n.gate!.confidence.uncertainty.toFixed(3)) : null,
    confidence_fires: n.gate!.confidence?.fires ?? null, gate: n.gate!.kind, branched: n.children.length > 1, children: n.children.length,
    followed: clip(n.children.length ? actionText(tree.nodes.get(n.children[0]!)?.actions ?? []) : "", 60),
  }));
}
