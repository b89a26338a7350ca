/**
 * Is the SDPO teacher better than the student where SDPO distils? For each seed of a comparison spec,
 * on that seed's per-seed SFT checkpoint (the warm start every arm starts RL from): sample 4 rollouts
 * for each of the first 48 training tasks (temperature 1, as RL does), keep the failed ones a hint
 * layer speaks to (the rollouts that become SDPO rows), and compare on those tasks
 *   - greedy reward: the student (plain prompt) vs the teacher (the same weights, hinted prompt, as the
 *     trainer builds it), and
 *   - mean log-prob per token of the correct call (the environment's demonstration) under each.
 * SDPO pulls the student towards the teacher; it can only help where the teacher is the better policy.
 * Writes datasets/train/<name>/teacher-probe.json.
 *
 *   npx tsx scripts/probe-sdpo-teacher.ts SPEC.yaml [RUN_DIR]
 */
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import YAML from "yaml";
import { readFileSync } from "node:fs";
import { initBackend } from "../lib/backend/index.js";
import { Rng, datasetsDir, mean, scratchDir } from "../lib/core/index.js";
import { STOP, type ToolCallTask } from "../lib/env/index.js";
import { defaultLayered } from "../lib/hints/index.js";
import { Trainer, decode, loadLatestCheckpoint, sample, scoreContinuation, type TrainConfigInput } from "../lib/train/index.js";

const [specPath, runDirArg] = process.argv.slice(2);
if (!specPath) throw new Error("usage: probe-sdpo-teacher.ts SPEC.yaml [RUN_DIR]");
const spec = YAML.parse(readFileSync(specPath, "utf8")) as { name: string; seeds: number[]; base: TrainConfigInput };
const runDir = runDirArg ?? join(scratchDir(), "runs", spec.name);
if (spec.base.init_from) spec.base.init_from = resolve(dirname(specPath), spec.base.init_from);
await initBackend("wasm");
const gen = defaultLayered();
const out: Record<string, unknown>[] = [];
for (const seed of spec.seeds) {
  const ck = await loadLatestCheckpoint(join(runDir, `seed-${seed}`, "sft", "checkpoints"));
  if (!ck) {
    console.error(`seed ${seed}: no SFT checkpoint under ${runDir}`);
    continue;
  }
  const policy = ck.policy;
  const tr = new Trainer({ ...spec.base, seed }, { run_dir: join(runDir, "probe-tmp") });
  const tasks = tr.train_tasks.slice(0, 48);
  const G = 4;
  const outs = sample(policy, tasks.flatMap((t) => Array<string>(G).fill(tr.variant.prompt(t))), { max_new_tokens: tr.config.rl.max_completion_length, temperature: 1, stop: [STOP], rng: new Rng(1000 + seed) });
  const rows: { task: ToolCallTask; hinted: string; renamed: boolean }[] = [];
  for (let i = 0; i < outs.length; i++) {
    const task = tasks[Math.floor(i / G)]!;
    const g = tr.variant.grade(task, outs[i]!.text);
    if (!g.error) continue;
    const h = await gen.generate(g.error);
    if (!h) continue;
    rows.push({ task, hinted: decode(tr.hintedPrompt(task, h.hint, outs[i]!.ids.length, policy.config.block_size)), renamed: tr.variant.isRenamed(task) });
  }
  const greedy = (prompts: string[]) => sample(policy, prompts, { max_new_tokens: tr.config.rl.max_completion_length, temperature: 0, stop: [STOP] }).map((o, i) => tr.variant.grade(rows[i]!.task, o.text).reward);
  const student = greedy(rows.map((r) => tr.variant.prompt(r.task)));
  const teacher = greedy(rows.map((r) => r.hinted));
  const lpS = rows.map((r) => mean(scoreContinuation(policy, tr.variant.prompt(r.task), tr.variant.demonstration(r.task)).tokenLogprobs));
  const lpT = rows.map((r) => mean(scoreContinuation(policy, r.hinted, tr.variant.demonstration(r.task)).tokenLogprobs));
  const part = (keep: (i: number) => boolean) => {
    const idx = rows.map((_, i) => i).filter(keep);
    return {
      rows: idx.length,
      greedy_reward: { student: mean(idx.map((i) => student[i]!)), teacher: mean(idx.map((i) => teacher[i]!)) },
      demo_logprob_per_token: { student: mean(idx.map((i) => lpS[i]!)), teacher: mean(idx.map((i) => lpT[i]!)) },
    };
  };
  const r = { seed, rollouts: outs.length, sdpo_rows: rows.length, all: part(() => true), ...(tr.variant.name === "renamed_args" ? { v1: part((i) => !rows[i]!.renamed), v2: part((i) => rows[i]!.renamed) } : {}) };
  console.error(JSON.stringify(r));
  out.push(r);
  policy.dispose();
}
const file = join(datasetsDir("train"), spec.name, "teacher-probe.json");
writeFileSync(file, JSON.stringify({ about: "scripts/probe-sdpo-teacher.ts: on each seed's SFT checkpoint, failed rollouts (48 training tasks × 4, temperature 1) that get a hint; greedy reward and demonstration log-prob per token, student (plain prompt) vs teacher (hinted prompt)", seeds: out }, null, 1) + "\n");
console.log(JSON.stringify({ out: file, seeds: out.length }));
