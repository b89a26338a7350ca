/**
 * Is the SDPO teacher better than the student where SDPO distils? For each seed of a comparison spec,
 * on that seed's per-seed SFT checkpoint (the warm start every arm starts RL from): sample 4 rollouts
 * for each of the first 48 training tasks (temperature 1, as RL does), keep the failed ones a hint
 * layer speaks to (the rollouts that become SDPO rows), and compare on those tasks
 *   - greedy reward: the student (plain prompt) vs the teacher (the same weights, hinted prompt, as the
 *     trainer builds it), and
 *   - mean log-prob per token of the correct call (the environment's demonstration) under each.
 * SDPO pulls the student towards the teacher; it can only help where the teacher is the better policy.
 * Where a sibling rollout of the same task succeeded, the teacher is also probed with the sibling layer's
 * hint (that successful call), as the sdpo-sibling-first arm and TRL's successful-sibling reprompt use.
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
import { SiblingBootstrapGenerator, defaultLayered } from "../lib/hints/index.js";
import { Trainer, decode, loadLatestCheckpoint, sample, scoreContinuation, type TrainConfigInput } from "../lib/train/index.js";

const [specPath, runDirArg] = process.argv.slice(2);
if (!specPath) throw new Error("usage: probe-sdpo-teacher.ts SPEC.yaml [RUN_DIR]");
const spec = YAML.parse(readFileSync(specPath, "utf8")) as { name: string; seeds: number[]; base: TrainConfigInput };
const runDir = runDirArg ?? join(scratchDir(), "runs", spec.name);
if (spec.base.init_from) spec.base.init_from = resolve(dirname(specPath), spec.base.init_from);
await initBackend("wasm");
const gen = defaultLayered();
const sibling = new SiblingBootstrapGenerator(0.99); // the trainer's sibling layer
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
  const rows: { task: ToolCallTask; hinted: string; renamed: boolean; sibling: string | null }[] = [];
  const grades = outs.map((o, i) => tr.variant.grade(tasks[Math.floor(i / G)]!, o.text));
  for (let i = 0; i < outs.length; i++) {
    const task = tasks[Math.floor(i / G)]!;
    const g = grades[i]!;
    if (!g.error) continue;
    const h = await gen.generate(g.error);
    if (!h) continue;
    // what the sibling layer would say (a successful rollout of the same task), as the sdpo-sibling-first arm uses
    const g0 = Math.floor(i / G) * G;
    const sib = sibling.generate({ ...g.error, sibling_rollouts: grades.slice(g0, g0 + G).map((x, j) => ({ reward: x.reward, solution_excerpt: outs[g0 + j]!.text.trim() })).filter((_, j) => g0 + j !== i) });
    const fit = (hint: string) => decode(tr.hintedPrompt(task, hint, outs[i]!.ids.length, policy.config.block_size));
    rows.push({ task, hinted: fit(h.hint), renamed: tr.variant.isRenamed(task), sibling: sib ? fit(sib) : null });
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
  // the rows with a successful sibling: the teacher given the sibling's call instead of the template hint
  const sibIdx = rows.map((_, i) => i).filter((i) => rows[i]!.sibling);
  const sibTeacher = sibIdx.length ? sample(policy, sibIdx.map((i) => rows[i]!.sibling!), { max_new_tokens: tr.config.rl.max_completion_length, temperature: 0, stop: [STOP] }).map((o, k) => tr.variant.grade(rows[sibIdx[k]!]!.task, o.text).reward) : [];
  const sibLp = sibIdx.map((i) => mean(scoreContinuation(policy, rows[i]!.sibling!, tr.variant.demonstration(rows[i]!.task)).tokenLogprobs));
  const sibling_hint = {
    rows: sibIdx.length,
    greedy_reward: { student: mean(sibIdx.map((i) => student[i]!)), teacher_template: mean(sibIdx.map((i) => teacher[i]!)), teacher_sibling: mean(sibTeacher) },
    demo_logprob_per_token: { student: mean(sibIdx.map((i) => lpS[i]!)), teacher_template: mean(sibIdx.map((i) => lpT[i]!)), teacher_sibling: mean(sibLp) },
  };
  const r = { seed, rollouts: outs.length, sdpo_rows: rows.length, all: part(() => true), sibling_hint, ...(tr.variant.name === "renamed_args" ? { v1: part((i) => !rows[i]!.renamed), v2: part((i) => rows[i]!.renamed) } : {}) };
  console.error(JSON.stringify(r));
  out.push(r);
  policy.dispose();
}
const file = join(datasetsDir("train"), spec.name, "teacher-probe.json");
writeFileSync(file, JSON.stringify({ about: "scripts/probe-sdpo-teacher.ts: on each seed's SFT checkpoint, failed rollouts (48 training tasks × 4, temperature 1) that get a hint; greedy reward and demonstration log-prob per token, student (plain prompt) vs teacher (hinted prompt, default layer order: templates first); sibling_hint: the rows where a sibling rollout succeeded, with the teacher given that sibling's call instead", seeds: out }, null, 1) + "\n");
console.log(JSON.stringify({ out: file, seeds: out.length }));
