import { z } from "zod";
import type { Figure, Table } from "../viz/index.js";

/** A metric value as it lands in metrics.json. */
export const MetricValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);
export type MetricValue = z.infer<typeof MetricValue>;

export interface StageContext {
  /** scratch/runs/<timestamp>/: a stage may write its own artifacts under `<runDir>/<stage>/`. */
  runDir: string;
  /** Progress and log lines (stderr). */
  log: (msg: string) => void;
  seed: number;
}

export interface StageOutput {
  /** One paragraph saying what the stage found, for the report. */
  summary: string;
  metrics: Record<string, MetricValue>;
  tables?: { title: string; table: Table }[];
  figures?: { title: string; figure: Figure }[];
}

/** One pipeline stage's contribution to `composer-lab demo`. Each stage folder exports one. */
export interface DemoStage {
  name: string;
  title: string;
  /** What the stage does, in one sentence (shown in the report and notebooks). */
  description: string;
  run(ctx: StageContext): Promise<StageOutput>;
}

export const StageRecord = z.object({
  name: z.string(),
  title: z.string(),
  status: z.enum(["ok", "failed", "skipped"]),
  seconds: z.number(),
  metrics: z.record(MetricValue),
  error: z.string().optional(),
});
export type StageRecord = z.infer<typeof StageRecord>;

/** The schema of scratch/runs/<timestamp>/metrics.json. */
export const RunMetrics = z.object({
  run_id: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  node: z.string(),
  platform: z.string(),
  ok: z.boolean(),
  stages: z.array(StageRecord),
});
export type RunMetrics = z.infer<typeof RunMetrics>;
