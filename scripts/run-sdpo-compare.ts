/**
 * Runs a comparison spec (datasets/configs/sdpo-compare*.yaml): arms × seeds from a shared base config,
 * one process, runs one after another. Heavy run folders (checkpoints) go to RUN_DIR; the summary
 * (comparison.json: the declared primary metric, per-arm statistics, stopped runs, paired bootstrap
 * CIs, curves) is copied to datasets/train/<name>/ after every run, so a sweep cut short still leaves
 * its finished runs summarised. Rerun with the same RUN_DIR to continue; --summarize only summarises.
 *
 *   npx tsx scripts/run-sdpo-compare.ts SPEC.yaml [RUN_DIR] [--summarize] [--arms a,b]
 * --arms runs only those arms now (the others stay in the plan and are summarised when present).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { datasetsDir, scratchDir } from "../lib/core/index.js";
import { compareVariants, PrimaryMetric, summarizeComparison, type TrainConfigInput } from "../lib/train/index.js";

const Spec = z.object({
  name: z.string().regex(/^[\w.-]+$/),
  primary: PrimaryMetric,
  seeds: z.array(z.number().int()).min(1),
  base: z.record(z.unknown()),
  arms: z.record(z.object({ config: z.record(z.unknown()).default({}), seeds: z.array(z.number().int()).optional() })),
});

const args = process.argv.slice(2);
const summarizeOnly = args.includes("--summarize");
const armsFlag = args.indexOf("--arms");
const onlyArms = armsFlag >= 0 ? args[armsFlag + 1]!.split(",") : null;
const [specPath, runDirArg] = args.filter((a, i) => !a.startsWith("--") && (armsFlag < 0 || i !== armsFlag + 1));
if (!specPath) throw new Error("usage: run-sdpo-compare.ts SPEC.yaml [RUN_DIR] [--summarize]");
const spec = Spec.parse(YAML.parse(readFileSync(specPath, "utf8")));
const base = spec.base as TrainConfigInput;
if (base.init_from) base.init_from = resolve(dirname(specPath), base.init_from);
const runDir = runDirArg ?? join(scratchDir(), "runs", spec.name);
const outDir = join(datasetsDir("train"), spec.name);
mkdirSync(outDir, { recursive: true });
const publish = () => {
  summarizeComparison(runDir, spec.primary, Object.keys(spec.arms));
  copyFileSync(join(runDir, "comparison.json"), join(outDir, "comparison.json"));
  // each seed's starting point: the greedy rewards of its warm start (after the per-seed SFT, before RL)
  const warm = spec.seeds.flatMap((s) => {
    const f = join(runDir, `seed-${s}`, "sft", "summary.json");
    return existsSync(f) ? [{ seed: s, ...(JSON.parse(readFileSync(f, "utf8")) as { final: Record<string, unknown> }).final }] : [];
  });
  writeFileSync(join(outDir, "warm-starts.json"), JSON.stringify({ about: "greedy rewards of each seed's warm start (after its per-seed SFT, before RL)", seeds: warm }, null, 1) + "\n");
};
if (summarizeOnly) {
  publish();
} else {
  for (const a of onlyArms ?? []) if (!(a in spec.arms)) throw new Error(`--arms: no arm ${a} in ${specPath}`);
  const variants = Object.fromEntries(Object.entries(spec.arms).filter(([k]) => !onlyArms || onlyArms.includes(k)).map(([k, v]) => [k, v.config as Partial<TrainConfigInput>]));
  const arm_seeds = Object.fromEntries(Object.entries(spec.arms).flatMap(([k, v]) => (v.seeds ? [[k, v.seeds]] : [])));
  let last = Date.now();
  await compareVariants(base, {
    run_dir: runDir, seeds: spec.seeds, variants, arm_seeds, primary: spec.primary,
    log: (l) => {
      console.error(`${new Date().toISOString().slice(11, 19)} ${l}`);
      // a finished run has written its record: republish the summary
      if (/^seed \d+: /.test(l) && Date.now() - last > 1000) {
        last = Date.now();
        try {
          publish();
        } catch (e) {
          console.error(`summary: ${(e as Error).message}`);
        }
      }
    },
  });
  copyFileSync(join(runDir, "plan.json"), join(outDir, "plan.json"));
  publish();
}
console.log(JSON.stringify({ run_dir: runDir, out: join(outDir, "comparison.json") }));
