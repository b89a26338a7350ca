/**
 * Is the hinted teacher a better policy than the student on the FD-micro tasks, and did hint-conditioned
 * SFT (the env's mistake()) change that? For each given SFT checkpoint and each training task (the first
 * --tasks N), per hint kind: one mistake of that kind is graded for real in bwrap and the hint layers turn
 * the grade into a hint — the argument returned unchanged (it always fails its tests: the template
 * hint) and a body that does not parse (the hack monitor's flag: the raw-error hint) — and the golden
 * body (the sft_corpus demonstration) is scored
 *   - under the student: the plain prompt, and
 *   - under the teacher: the same weights, the prompt with the hint spliced in as the trainer builds it.
 * Reported per checkpoint and hint kind: mean log-prob per golden token under each, the share of tasks
 * where the teacher is the likelier one, and KL(teacher ‖ student) per golden token (the exact KL over
 * the 257-entry vocabulary). SDPO pulls the student towards the teacher; it can only help where the
 * teacher is the better policy. Writes datasets/train/fd-micro-compare/teacher-probe.json.
 *
 * Issue 27: hint kinds also include the environment's feedback (the failing assertion of the mistake's real grade,
 * `failed: assert 0 == 2`) and a passing sibling (the golden body shown as the correct solution), the two
 * sources the SDPO teacher reads; --split rl probes the RL tasks SFT never showed (sft.task_fraction < 1), where
 * the student cannot know what the hint says; --out names the file (default: fd-micro-compare/teacher-probe.json).
 *
 *   npx tsx scripts/probe-fd-teacher.ts [--config FILE] [--tasks N] [--split all|rl|sft] [--out FILE] [--grade-cache FILE.jsonl] LABEL=CHECKPOINT_DIR [LABEL=CHECKPOINT_DIR ...]
 */
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { initBackend } from "../lib/backend/index.js";
import { datasetsDir, mean, projectRoot, scratchDir } from "../lib/core/index.js";
import { FeatureDeletionEnvironment, gradeAll, renderMessages, type BodyMistake } from "../lib/env/index.js";
import { defaultLayered } from "../lib/hints/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { decode, encode, feedbackOf, hintedPromptIds, loadCheckpoint, loadLatestCheckpoint, loadTrainConfig, sampleStd, scoreContinuation, sftRlTasks, solutionHint } from "../lib/train/index.js";

const args = process.argv.slice(2);
const opt = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const configFile = opt("--config") ?? datasetsDir("configs", "fd-micro.yaml");
const checkpoints = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")).map((a) => {
  const at = a.indexOf("=");
  if (at < 1) throw new Error(`usage: probe-fd-teacher.ts [--config FILE] [--tasks N] LABEL=CHECKPOINT_DIR ... (got ${a})`);
  return { label: a.slice(0, at), dir: a.slice(at + 1) };
});
const config = loadTrainConfig(configFile);
if (config.env.kind !== "feature_deletion") throw new Error(`${configFile}: not a feature_deletion env`);
await initBackend(config.backend);
const env = await FeatureDeletionEnvironment.open({
  sandbox: await getSandbox(config.env.sandbox), store: config.env.store, run_id: config.env.run_id, pool: config.env.pool,
  gradeCacheFile: opt("--grade-cache") ?? scratchDir("fd-teacher-probe-grades.jsonl"),
});
const split = opt("--split") ?? "all";
const parts = sftRlTasks(env.splits().train, config.sft.task_fraction);
const pool = split === "rl" ? parts.rl : split === "sft" ? parts.sft : env.splits().train;
const tasks = pool.slice(0, Number(opt("--tasks") ?? Infinity));
const KINDS: BodyMistake["kind"][] = ["argument_unchanged", "broken_syntax"];
const hints = defaultLayered();
// Per probe kind, each task's hint: the lab's layers on a mistake's real grade (template / raw error), the same
// grade's feedback (the failing assertion), or the golden body as a passing sibling's solution.
const hinted: Record<string, ({ hint: string; layer: string } | null)[]> = {};
for (const kind of KINDS) {
  const mistakes = tasks.map((t) => (env.mistakes(t).find((m) => m.kind === kind)?.body ?? "    return None") + env.stop);
  const grades = await gradeAll(env, tasks.map((task, i) => ({ task, completion: mistakes[i]! })), 2);
  hinted[kind] = await Promise.all(grades.map(async (g) => (g.error ? await hints.generate(g.error) : null)));
  if (kind === "argument_unchanged") hinted[`feedback:${kind}`] = grades.map((g) => (feedbackOf(g) ? { hint: feedbackOf(g)!, layer: "feedback" } : null));
}
hinted["sibling"] = tasks.map((t) => {
  const d = env.demonstration(t);
  return d ? { hint: solutionHint(d.split(env.stop)[0]!), layer: "sibling" } : null;
});
const PROBES = Object.keys(hinted);

const out: Record<string, unknown>[] = [];
for (const { label, dir } of checkpoints) {
  // A run's checkpoints folder (its latest), or one checkpoint (…/ckpt_000500).
  const ck = /ckpt_\d+\/?$/.test(dir) ? await loadCheckpoint(dir) : await loadLatestCheckpoint(dir);
  if (!ck) throw new Error(`${dir}: no checkpoint`);
  const bs = ck.policy.config.block_size;
  for (const kind of PROBES) {
    const rows = tasks.flatMap((task, i) => {
      const hint = hinted[kind]![i]?.hint;
      const golden = env.demonstration(task);
      if (!hint || !golden) return [];
      const student = scoreContinuation(ck.policy, renderMessages(env.prompt(task)), golden);
      // The teacher's context exactly as the trainer builds it (the hint shortened to fit the block).
      const teacherCtx = decode(hintedPromptIds(env, task, hint, encode(golden).length, bs).slice(1));
      const teacher = scoreContinuation(ck.policy, teacherCtx, golden);
      const kl = teacher.logDists!.map((lt, k) => {
        const ls = student.logDists![k]!;
        let s = 0;
        for (let v = 0; v < lt.length; v++) s += Math.exp(lt[v]!) * (lt[v]! - ls[v]!);
        return s;
      });
      return [{ task_id: task.task_id, student: mean(student.tokenLogprobs), teacher: mean(teacher.tokenLogprobs), kl: mean(kl) }];
    });
    const s = rows.map((r) => r.student);
    const t = rows.map((r) => r.teacher);
    const k = rows.map((r) => r.kl);
    const layers: Record<string, number> = {};
    for (const h of hinted[kind]!) if (h) layers[h.layer] = (layers[h.layer] ?? 0) + 1;
    const row = {
      label, checkpoint: dir, mistake: kind, hint_layers: layers, tasks: rows.length,
      student_logprob_per_token: mean(s), teacher_logprob_per_token: mean(t), teacher_minus_student: mean(t) - mean(s),
      teacher_likelier_share: mean(rows.map((r) => (r.teacher > r.student ? 1 : 0))),
      kl_teacher_student_per_token: mean(k), kl_sample_std_over_tasks: sampleStd(k),
    };
    console.log(JSON.stringify(row));
    out.push(row);
  }
  ck.policy.dispose();
}
writeFileSync(opt("--out") ?? datasetsDir("train", "fd-micro-compare", "teacher-probe.json"), JSON.stringify({
  what: "golden body of each training task scored under the plain prompt (student) and under the prompt with a hint (teacher), same weights: argument_unchanged → the lab's template hint and (feedback:argument_unchanged) the grade's failing assertion; broken_syntax → raw-error hint; sibling → the golden body shown as a passing sibling's solution",
  config: relative(projectRoot(), configFile), split, tasks: tasks.length, results: out,
}, null, 1));
