/** arquero tables for people: aligned text in the CLI/REPL, HTML in notebooks and reports. */
import * as aq from "arquero";

export type Table = aq.ColumnTable;
export { aq };

/** A number for reading: integers whole, others to 4 decimals (trailing zeros dropped), extremes in exponent form. */
export function formatNumber(v: number): string {
  if (Number.isInteger(v) || !Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 1e5 || Math.abs(v) < 1e-3 ? v.toExponential(3) : v.toFixed(4).replace(/\.?0+$/, "");
}

function cell(v: unknown, maxWidth: number): string {
  let s: string;
  if (v === null || v === undefined) s = "";
  else if (typeof v === "number") s = formatNumber(v);
  else if (v instanceof Date) s = v.toISOString();
  else if (typeof v === "object") s = JSON.stringify(v);
  else s = String(v);
  s = s.replace(/\s+/g, " ");
  return s.length > maxWidth ? s.slice(0, maxWidth - 1) + "…" : s;
}

/** Aligned plain text: numbers right-aligned, long cells cut, at most `limit` rows shown. */
export function tableText(t: Table, opts: { limit?: number; maxWidth?: number } = {}): string {
  const limit = opts.limit ?? 50;
  const maxWidth = opts.maxWidth ?? 40;
  const names = t.columnNames();
  const rows = t.objects({ limit }) as Record<string, unknown>[];
  const numeric = names.map((n) => rows.length > 0 && rows.every((r) => r[n] == null || typeof r[n] === "number"));
  const body = rows.map((r) => names.map((n) => cell(r[n], maxWidth)));
  const widths = names.map((n, i) => Math.max(n.length, ...body.map((b) => b[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  const lines = [fmt(names), widths.map((w) => "─".repeat(w)).join("  "), ...body.map(fmt)];
  const more = t.numRows() - rows.length;
  if (more > 0) lines.push(`… ${more} more row${more === 1 ? "" : "s"} (${t.numRows()} in all)`);
  return lines.join("\n");
}

/** HTML for notebooks and reports (arquero's own renderer; numbers rounded as in tableText). */
export function tableHTML(t: Table, opts: { limit?: number } = {}): string {
  const format = Object.fromEntries(t.columnNames().map((n) => [n, (v: unknown) => (typeof v === "number" ? formatNumber(v) : v == null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v))]));
  return t.toHTML({ limit: opts.limit ?? 100, format });
}

/** Builds a table from row objects (the common case when summarizing results). */
export function fromRows(rows: readonly object[]): Table {
  return aq.from(rows as Record<string, unknown>[]);
}
