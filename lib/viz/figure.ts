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

interface Axes {
  title?: string;
  xTitle?: string;
  yTitle?: string;
  width?: number;
  height?: number;
}

function layout(a: Axes, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: a.title ? { text: a.title } : undefined,
    xaxis: { title: { text: a.xTitle ?? "" }, automargin: true },
    yaxis: { title: { text: a.yTitle ?? "" }, automargin: true },
    width: a.width ?? 720,
    height: a.height ?? 400,
    margin: { l: 60, r: 20, t: a.title ? 50 : 20, b: 50 },
    template: { layout: { font: { family: "Liberation Sans, Arial, sans-serif" } } },
    ...extra,
  };
}

/** One line per series over shared or per-series x values. */
export function lineChart(series: Record<string, { x: number[]; y: number[] }>, axes: Axes = {}): Figure {
  const data = Object.entries(series).map(([name, s]) => ({ type: "scatter", mode: "lines+markers", name, x: s.x, y: s.y }));
  return parseFigure({ data, layout: layout(axes) });
}

/** Bars: one group (or, with `stacked`, one stack) per category, one bar per series. */
export function barChart(categories: string[], series: Record<string, number[]>, axes: Axes & { stacked?: boolean } = {}): Figure {
  const data = Object.entries(series).map(([name, y]) => ({ type: "bar", name, x: categories, y }));
  return parseFigure({ data, layout: layout(axes, { barmode: axes.stacked ? "stack" : "group" }) });
}

/** A histogram of raw values (Plotly bins them). */
export function histogram(values: number[], axes: Axes & { bins?: number } = {}): Figure {
  return parseFigure({
    data: [{ type: "histogram", x: values, nbinsx: axes.bins }],
    layout: layout(axes, { bargap: 0.05 }),
  });
}

/** Mean lines with a shaded band per series (e.g. mean ± std over seeds). */
export function bandChart(series: Record<string, { x: number[]; mean: number[]; lo: number[]; hi: number[] }>, axes: Axes = {}): Figure {
  const palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
  const data = Object.entries(series).flatMap(([name, s], i) => {
    const color = palette[i % palette.length]!;
    return [
      { type: "scatter", mode: "lines", x: s.x, y: s.hi, line: { width: 0, color }, showlegend: false, hoverinfo: "skip", name: `${name} hi` },
      { type: "scatter", mode: "lines", x: s.x, y: s.lo, line: { width: 0, color }, fill: "tonexty", fillcolor: `${color}33`, showlegend: false, hoverinfo: "skip", name: `${name} lo` },
      { type: "scatter", mode: "lines", x: s.x, y: s.mean, line: { color, width: 2 }, name },
    ];
  });
  return parseFigure({ data, layout: layout(axes) });
}
