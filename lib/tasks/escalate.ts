/**
 * Escalation (feature-deletion-datagen.md §2 "create"): when the curriculum's median pass rate
 * crosses its band, the builder makes harder variants of the repos whose tasks were retired —
 * a larger span (function → class → file → feature), one more independent feature, and hint
 * starvation of the context — each with a higher difficulty prior and its knobs recorded.
 * The source repo is rebuilt from a pool task (its broken snapshot + golden diff) unless given.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sandbox } from "../sandbox/index.js";
import { buildFromRepo, type BuildHooks, type BuildOptions, type BuildReport } from "./build.js";
import { applyUnifiedDiff } from "./diffs.js";
import { loadTask, readIndex } from "./pool.js";
import { GRANULARITIES, granularityLadder, type GranularityName as Granularity } from "./granularity/index.js";

// the span knob climbs each granularity's `harder` (granularity/index.ts)
const SPAN: Granularity[] = granularityLadder();
/** Difficulty prior added per escalation knob. */
export const KNOB_BONUS = 0.1;

export interface HarderVariant {
  knobs: string[];
  options: BuildOptions;
}

/** The harder variants of a repo whose retired tasks had these granularities / feature counts. */
export function harderVariants(retired: { granularity: Granularity; features: number; escalation: string[] }[], level = 1): HarderVariant[] {
  const widest = Math.max(...retired.map((t) => SPAN.indexOf(t.granularity)));
  const features = Math.max(...retired.map((t) => t.features));
  const out: HarderVariant[] = [];
  const next = GRANULARITIES[SPAN[widest]!].harder ?? SPAN[widest]!;
  if (SPAN.indexOf(next) > widest) out.push({ knobs: [`span:${next}`], options: { granularity: next } });
  out.push({ knobs: [`multi-feature:${features + 1}`], options: { granularity: "function", features: features + 1 } });
  const starve = { starve_context: ["docstrings", "type_hints", ...(level > 1 ? (["comments"] as const) : [])], strip_docstring: true, strip_type_hints: true } satisfies BuildOptions;
  out.push({ knobs: [`starvation:${starve.starve_context.join("+")}`], options: { granularity: SPAN[widest]!, ...starve } });
  // From the second escalation on, the knobs stack.
  if (level > 1) out.push({ knobs: [`span:${next}`, `starvation:${starve.starve_context.join("+")}`], options: { granularity: next, ...starve } });
  return out;
}

export interface HarderReport {
  repos: { repo: string; from: string[]; variants: { knobs: string[]; report: Omit<BuildReport, "rejections"> & { rejections: number } }[] }[];
  validated: number;
  candidates: number;
  seconds: number;
}

/**
 * Builds harder variants for the repos of `retired` tasks of `pool` (all its tasks when none are
 * named) into `out`. `sourceRepo` replaces the repo rebuilt from the pool (one repo only).
 */
export async function buildHarder(pool: string, out: string, sandbox: Sandbox, opts: { retired?: string[]; level?: number; sourceRepo?: string; base?: BuildOptions } = {}, hooks: BuildHooks = {}): Promise<HarderReport> {
  const t0 = performance.now();
  const index = readIndex(pool);
  const chosen = opts.retired?.length ? index.filter((t) => opts.retired!.includes(t.task_id)) : index;
  if (chosen.length === 0) throw new Error(`${pool}: none of the tasks to escalate from is in the pool (${(opts.retired ?? []).slice(0, 3).join(", ")})`);
  const byRepo = new Map<string, typeof chosen>();
  for (const t of chosen) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
  const report: HarderReport = { repos: [], validated: 0, candidates: 0, seconds: 0 };
  for (const [repo, tasks] of byRepo) {
    const work = mkdtempSync(join(tmpdir(), "composer-lab-harder-"));
    try {
      let source = opts.sourceRepo;
      if (!source) {
        // The solved repo: a task's broken snapshot with its golden diff applied.
        const t = loadTask(pool, tasks[0]!.task_id);
        source = join(work, repo.replace(/[^\w.-]+/g, "_"));
        cpSync(t.broken.kind === "dir" ? t.broken.path : "", source, { recursive: true });
        applyUnifiedDiff(source, t.golden_diff);
      }
      const prior = tasks.map((t) => ({ granularity: t.granularity, features: Number(t.task_id.match(/-and-(\d+)/)?.[1] ?? 0) + 1, escalation: t.escalation }));
      const level = opts.level ?? 1 + Math.max(0, ...tasks.map((t) => t.escalation.length));
      const variants = [];
      for (const [i, v] of harderVariants(prior, level).entries()) {
        hooks.log?.(`escalating ${repo}: ${v.knobs.join(", ")}`);
        const r = await buildFromRepo(source, out, sandbox, {
          max: 6, ...opts.base, ...v.options, repo_name: repo, id_suffix: `-x${level}v${i + 1}`,
          difficulty_bonus: Math.min(0.45, KNOB_BONUS * v.knobs.length * level), escalation: v.knobs,
        }, hooks);
        const { rejections, ...rest } = r;
        variants.push({ knobs: v.knobs, report: { ...rest, rejections: rejections.length } });
        report.validated += r.validated;
        report.candidates += r.candidates;
      }
      report.repos.push({ repo, from: tasks.map((t) => t.task_id), variants });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}
