/** `composer-lab runs PATH...`: TRL trainer_state.json, TensorBoard event files and lab runs read by train.loadRun (docs/external-runs.md). */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { Command } from "commander";
import { emit, jsonOpt } from "../output.js";

const SOURCES = ["trainer_state", "tensorboard", "lab"] as const;

export function registerRuns(program: Command): void {
  program
    .command("runs")
    .description("read training runs (TRL / transformers trainer_state.json, TensorBoard event files, the lab's metrics.jsonl) into one table: what each holds, the rows of chosen metrics, a page of plots")
    .argument("<paths...>", "run folders or files; NAME=PATH names a run")
    .option("--metric <names>", "comma-separated metrics (normalized names: reward, kl, distillation_loss, …) whose rows to print and plot")
    .option("--sources <names>", `only these sources (comma-separated: ${SOURCES.join(", ")})`)
    .option("--no-names", "keep every metric name as written (no normalization map)")
    .option("--html <file>", "write a self-contained page with one plot per --metric")
    .addOption(jsonOpt())
    .action(async (paths: string[], o: { metric?: string; sources?: string; names: boolean; html?: string; json?: boolean }) => {
      const sources = o.sources?.split(",").map((s) => s.trim()).filter(Boolean);
      const bad = sources?.filter((s) => !(SOURCES as readonly string[]).includes(s));
      if (bad?.length) throw new Error(`--sources: unknown source ${bad.map((b) => JSON.stringify(b)).join(", ")} (known: ${SOURCES.join(", ")})`);
      const named = Object.fromEntries(paths.map((p) => {
        const m = /^([^=/]+)=(.+)$/.exec(p);
        if (m) return [m[1]!, m[2]!];
        const path = p.replace(/(.)\/+$/, "$1");
        // as loadRun names it: a folder by its name, a file by its folder's
        return [basename(existsSync(path) && !statSync(path).isDirectory() ? dirname(resolve(path)) : resolve(path)), path];
      }));
      if (Object.keys(named).length !== paths.length) throw new Error(`two runs share a name (${paths.join(" ")}); name them NAME=PATH`);
      const { loadRuns, runFigures } = await import("../../train/index.js");
      const table = loadRuns(named, { sources: sources as (typeof SOURCES)[number][] | undefined, ...(o.names ? {} : { names: false as const }) });
      const rows = table.objects() as { run: string; source: string; step: number; metric: string; value: number; wall_time: number | null; tag: string }[];
      const groups = new Map<string, typeof rows>();
      for (const r of rows) {
        const k = `${r.run}\u0000${r.source}`;
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k)!.push(r);
      }
      const runs = [...groups.values()].map((g) => ({
        run: g[0]!.run, source: g[0]!.source, points: g.length, metrics: [...new Set(g.map((r) => r.metric))].sort(),
        first_step: Math.min(...g.map((r) => r.step)), last_step: Math.max(...g.map((r) => r.step)),
      }));
      const metrics = o.metric?.split(",").map((s) => s.trim()).filter(Boolean) ?? [];
      const known = new Set(rows.map((r) => r.metric));
      const missing = metrics.filter((m) => !known.has(m));
      if (metrics.length && missing.length === metrics.length) throw new Error(`--metric: no run has ${missing.join(", ")} (metrics: ${[...known].sort().join(", ")})`);
      const selected = rows.filter((r) => metrics.includes(r.metric));
      if (o.html) {
        if (!metrics.length) throw new Error("--html needs --metric (the metrics to plot)");
        const { toHTML } = await import("../../viz/index.js");
        writeFileSync(o.html, toHTML(runFigures(table, metrics), `runs: ${Object.keys(named).join(", ")}`));
      }
      emit(!!o.json, { ok: true, runs, rows: metrics.length ? selected : undefined, missing_metrics: missing.length ? missing : undefined, html: o.html }, () => [
        ...runs.map((r) => `${r.run} (${r.source}): ${r.points} points, steps ${r.first_step}–${r.last_step}, ${r.metrics.length} metrics: ${r.metrics.join(", ")}`),
        ...selected.map((r) => `${r.run}\t${r.source}\t${r.step}\t${r.metric}\t${r.value}`),
        ...(missing.length ? [`no run has: ${missing.join(", ")}`] : []),
        ...(o.html ? [`plots: ${o.html}`] : []),
      ].join("\n"));
    });
}
