import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { scratchDir, timestampSlug } from "../core/index.js";
import { renderReport } from "./report.js";
import { RunMetrics, type DemoStage, type StageOutput, type StageRecord } from "./stage.js";
import { STAGES } from "./stages.js";
import { LocalStore, openStore } from "../store/index.js";

export interface DemoOptions {
  /** Where to write the run (default scratch/runs/<timestamp>/). */
  outDir?: string;
  /** Run only these stages (by name). */
  only?: string[];
  seed?: number;
  log?: (msg: string) => void;
  /** Called after each stage (for progress bars). */
  onStage?: (record: StageRecord) => void;
  stages?: DemoStage[];
}

export interface DemoResult {
  runDir: string;
  report: string;
  metricsPath: string;
  metrics: RunMetrics;
}


/**
 * Runs every stage (or `only`) on the bundled datasets and writes metrics.json and report.html.
 * A failing stage is recorded with its error and the others still run.
 */
export async function runDemo(opts: DemoOptions = {}): Promise<DemoResult> {
  const all = opts.stages ?? STAGES;
  const unknown = (opts.only ?? []).filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown stage(s): ${unknown.join(", ")} (known: ${all.map((s) => s.name).join(", ")})`);
  const stages = opts.only?.length ? all.filter((s) => opts.only!.includes(s.name)) : all;
  const started = new Date();
  const runId = timestampSlug(started);
  const runDir = opts.outDir ?? scratchDir("runs", runId);
  mkdirSync(runDir, { recursive: true });
  const log = opts.log ?? ((m: string) => process.stderr.write(m + "\n"));
  const records: StageRecord[] = [];
  const outputs = new Map<string, StageOutput>();
  for (const stage of stages) {
    const t0 = performance.now();
    let record: StageRecord;
    try {
      const out = await stage.run({ runDir, seed: opts.seed ?? 0, log: (m) => log(`[${stage.name}] ${m}`) });
      outputs.set(stage.name, out);
      record = { name: stage.name, title: stage.title, status: "ok", seconds: (performance.now() - t0) / 1000, metrics: out.metrics };
    } catch (e) {
      const err = e as Error;
      log(`[${stage.name}] failed: ${err.message}`);
      record = { name: stage.name, title: stage.title, status: "failed", seconds: (performance.now() - t0) / 1000, metrics: {}, error: err.stack ?? err.message };
    }
    records.push(record);
    opts.onStage?.(record);
  }
  const metrics = RunMetrics.parse({
    run_id: runId,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    ok: records.every((r) => r.status !== "failed"),
    stages: records,
  });
  const metricsPath = join(runDir, "metrics.json");
  const report = join(runDir, "report.html");
  // Through the Store (atomic writes); mirrored to COMPOSER_LAB_STORE (e.g. s3://bucket/prefix) when set.
  const files = { "metrics.json": JSON.stringify(metrics, null, 2) + "\n", "report.html": renderReport(metrics, outputs) };
  const local = new LocalStore(runDir);
  for (const [k, v] of Object.entries(files)) await local.put(k, v);
  if (process.env.COMPOSER_LAB_STORE) {
    const remote = openStore(process.env.COMPOSER_LAB_STORE);
    for (const [k, v] of Object.entries(files)) await remote.put(`runs/${runId}/demo/${k}`, v);
  }
  return { runDir, report, metricsPath, metrics };
}
