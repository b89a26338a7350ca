import { z } from "zod";

/** A Plotly figure as plain JSON: what notebooks, PNG export and report.html all consume. */
export const Figure = z.object({
  data: z.array(z.record(z.unknown())).min(1, "a figure needs at least one trace"),
  layout: z.record(z.unknown()).default({}),
  config: z.record(z.unknown()).optional(),
});
export type Figure = z.infer<typeof Figure>;

/** Validates a figure, naming the offending field on failure. */
export function parseFigure(value: unknown): Figure {
  const r = Figure.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`invalid figure at ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return r.data;
}

export interface Axes {
  title?: string;
  xTitle?: string;
  yTitle?: string;
  width?: number;
  height?: number;
  /** Log scale, for values that differ by orders of magnitude. */
  logX?: boolean;
  logY?: boolean;
}

/** 1, 2, 5, 10, 20, 50, … : the smallest such step at least `raw`. */
function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
}

/** Whole-number ticks when every x is an integer (steps, counts): no "2.5 steps". */
function integerTicks(xs: readonly unknown[]): Record<string, unknown> {
  const nums = xs.filter((x): x is number => typeof x === "number");
  if (!nums.length || nums.length !== xs.length || !nums.every(Number.isInteger)) return {};
  const span = Math.max(...nums) - Math.min(...nums);
  return { tick0: 0, dtick: niceStep(span / 8) };
}

function layout(a: Axes, extra: Record<string, unknown> = {}, xs: readonly unknown[] = []): Record<string, unknown> {
  return {
    title: a.title ? { text: a.title } : undefined,
    xaxis: { title: { text: a.xTitle ?? "" }, automargin: true, ...(a.logX ? { type: "log" } : integerTicks(xs)) },
    yaxis: { title: { text: a.yTitle ?? "" }, automargin: true, ...(a.logY ? { type: "log" } : {}) },
    width: a.width ?? 720,
    height: a.height ?? 400,
    margin: { l: 60, r: 20, t: a.title ? 50 : 20, b: 50 },
    template: { layout: { font: { family: "Liberation Sans, Arial, sans-serif" } } },
    ...extra,
  };
}

/** Ten colours (Plotly's D3 set), eight marker symbols and four dashes: series i gets a combination no
 *  other series of the figure has, for any number of series (colour first, then symbol, then dash). */
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "cross", "star", "triangle-down"];
const DASHES = ["solid", "dash", "dot", "dashdot"];
export function seriesStyle(i: number): { color: string; symbol: string; dash: string } {
  const c = PALETTE.length;
  const k = SYMBOLS.length;
  return { color: PALETTE[i % c]!, symbol: SYMBOLS[Math.floor(i / c) % k]!, dash: DASHES[Math.floor(i / (c * k)) % DASHES.length]! };
}

/** A series; `null` in y is a missing value and shows as a gap, never bridged. */
export interface Series {
  x: number[];
  y: (number | null)[];
}

/** One line per series over shared or per-series x values. */
export function lineChart(series: Record<string, Series>, axes: Axes = {}): Figure {
  const data = Object.entries(series).map(([name, s], i) => {
    const st = seriesStyle(i);
    return { type: "scatter", mode: "lines+markers", name, x: s.x, y: s.y, connectgaps: false, line: { color: st.color, dash: st.dash }, marker: { color: st.color, symbol: st.symbol } };
  });
  // the legend lists the series in the order they were given (and drawn)
  return parseFigure({ data, layout: layout(axes, { legend: { traceorder: "normal" } }, Object.values(series).flatMap((s) => s.x)) });
}

/** Fill patterns for bars past the palette: series i gets colour i mod 10 and pattern ⌊i / 10⌋. */
const PATTERNS = ["", "/", "\\", "x", ".", "+", "-", "|"];

/**
 * Bars: one group (or, with `stacked`, one stack) per category, one bar per series; each series its own
 * colour (and, past ten, its own fill pattern), the legend in the order given. `horizontal` draws the
 * categories down the y axis in the order given (the first on top), the values along x: xTitle names the
 * values, yTitle the categories; the height grows with the number of categories.
 */
export function barChart(categories: string[], series: Record<string, (number | null)[]>, axes: Axes & { stacked?: boolean; horizontal?: boolean } = {}): Figure {
  const data = Object.entries(series).map(([name, v], i) => {
    const pattern = PATTERNS[Math.floor(i / PALETTE.length) % PATTERNS.length]!;
    const marker = { color: PALETTE[i % PALETTE.length], ...(pattern ? { pattern: { shape: pattern } } : {}) };
    return axes.horizontal ? { type: "bar", orientation: "h", name, y: categories, x: v, marker } : { type: "bar", name, x: categories, y: v, marker };
  });
  const extra: Record<string, unknown> = { barmode: axes.stacked ? "stack" : "group", legend: { traceorder: "normal" }, showlegend: data.length > 1 };
  if (!axes.horizontal) return parseFigure({ data, layout: layout(axes, extra) });
  const l = layout({ ...axes, height: axes.height ?? Math.max(300, 110 + categories.length * 24) }, extra);
  l.yaxis = { ...(l.yaxis as object), autorange: "reversed", type: "category" };
  return parseFigure({ data, layout: l });
}

/** Equal-width bins over all values; whole-number values get whole-number bins (one value each when the range allows). */
export function binEdges(values: readonly number[], bins = 20, range?: readonly [number, number]): number[] {
  const finite = values.filter(Number.isFinite);
  if (!finite.length && !range) return [0, 1];
  const lo = range?.[0] ?? Math.min(...finite);
  const hi = range?.[1] ?? Math.max(...finite);
  if (finite.every(Number.isInteger)) {
    const width = Math.max(1, Math.ceil((hi - lo + 1) / bins));
    const n = Math.ceil((hi - lo + 1) / width);
    return Array.from({ length: n + 1 }, (_, i) => lo - 0.5 + i * width);
  }
  if (hi === lo) return [lo - 0.5, hi + 0.5];
  const width = (hi - lo) / bins;
  return Array.from({ length: bins + 1 }, (_, i) => lo + i * width);
}

/** Counts per bin; the last bin includes its upper edge. */
export function binCounts(values: readonly number[], edges: readonly number[]): number[] {
  const counts = new Array<number>(edges.length - 1).fill(0);
  const last = edges.length - 2;
  for (const v of values) {
    if (!Number.isFinite(v) || v < edges[0]! || v > edges[last + 1]!) continue;
    let i = edges.findIndex((e, j) => j > 0 && v < e) - 1;
    if (i < 0) i = last;
    counts[i]!++;
  }
  return counts;
}

/**
 * A histogram of raw values, binned here (so the page needs only plotly.js's basic build and the
 * bins are the same in every viewer). Several series share one set of bins and overlay.
 */
export function histogram(values: number[] | Record<string, number[]>, axes: Axes & { bins?: number; range?: [number, number] } = {}): Figure {
  const series = Array.isArray(values) ? { count: values } : values;
  const edges = binEdges(Object.values(series).flat(), axes.bins ?? 20, axes.range);
  const centers = edges.slice(0, -1).map((e, i) => (e + edges[i + 1]!) / 2);
  const widths = edges.slice(0, -1).map((e, i) => edges[i + 1]! - e);
  const round = (v: number) => +v.toPrecision(4);
  const data = Object.entries(series).map(([name, vs]) => ({
    type: "bar",
    name,
    x: centers,
    y: binCounts(vs, edges),
    width: widths,
    text: centers.map((_, i) => `[${round(edges[i]!)}, ${round(edges[i + 1]!)}${i === centers.length - 1 ? "]" : ")"}`),
    hovertemplate: "%{text}: %{y}<extra>%{fullData.name}</extra>",
    textposition: "none",
    opacity: Array.isArray(values) ? 1 : 0.6,
  }));
  return parseFigure({
    data,
    layout: layout(axes, { barmode: "overlay", bargap: 0, showlegend: !Array.isArray(values) }),
  });
}

/** Mean lines with a shaded band per series (e.g. mean ± std over seeds). */
export function bandChart(series: Record<string, { x: number[]; mean: number[]; lo: number[]; hi: number[] }>, axes: Axes = {}): Figure {
  const data = Object.entries(series).flatMap(([name, s], i) => {
    const { color, dash } = seriesStyle(i);
    return [
      { type: "scatter", mode: "lines", x: s.x, y: s.hi, line: { width: 0, color }, showlegend: false, hoverinfo: "skip", name: `${name} hi` },
      { type: "scatter", mode: "lines", x: s.x, y: s.lo, line: { width: 0, color }, fill: "tonexty", fillcolor: `${color}33`, showlegend: false, hoverinfo: "skip", name: `${name} lo` },
      { type: "scatter", mode: "lines", x: s.x, y: s.mean, line: { color, width: 2, dash }, name },
    ];
  });
  return parseFigure({ data, layout: layout(axes, {}, Object.values(series).flatMap((s) => s.x)) });
}
