/**
 * The one rollout path: a graded group of completions → SDPO rows (each rollout the teacher has
 * something to show for — a successful sibling, the environment's feedback, or a hint layer's hint —
 * the teacher sees the same prompt with that hint spliced in) and DPO pairs
 * (lib/collate's dpoPairsFromGroup), and every row → a token sequence by lib/collate's packing and
 * truncation rule (promptCompletion, sdpoSequences), the same for online rows and for rows replayed
 * from collated trace data. The trainer's rlStep only runs forward passes and losses on them.
 */
import { DpoPair, dpoPairsFromGroup, promptCompletion, sdpoSequences, type GroupOptions, type Seq, type Tokenizer } from "../collate/index.js";
import type { Rng } from "../core/index.js";
import { gradeAll, renderMessages, type EnvGrade, type EnvTask, type Environment } from "../env/index.js";
import type { LayeredHintGenerator } from "../hints/index.js";
import type { Policy } from "./model.js";
import { sample, type Completion } from "./sample.js";
import { BOS, decode, encode } from "./tokenizer.js";

/** The byte tokenizer as lib/collate's Tokenizer. */
export const byteTokenizer: Tokenizer = { encode: (t) => encode(t), decode, bos: BOS };

/** One sampled completion of a task, graded. */
export interface Rollout<T extends EnvTask = EnvTask> {
  task: T;
  /** The student's prompt as text and as ids (BOS first). */
  prompt: string;
  prompt_ids: number[];
  completion: Completion;
  grade: EnvGrade;
}

/**
 * G sampled completions per task, graded (concurrency at a time), as one group per task; grade_s is
 * the wall time spent grading.
 */
export async function sampleGroups<T extends EnvTask>(
  env: Environment<T>, policy: Policy, tasks: T[],
  opts: { num_generations: number; max_new_tokens: number; temperature: number; top_k: number; top_p: number; rng: Rng; concurrency: number },
): Promise<{ groups: Rollout<T>[][]; grade_s: number }> {
  const G = opts.num_generations;
  const prompts = tasks.map((t) => renderMessages(env.prompt(t)));
  const promptIds = prompts.map((p) => encode(p, { bos: true }));
  const outs = sample(policy, tasks.flatMap((_, k) => Array<string>(G).fill(prompts[k]!)), { max_new_tokens: opts.max_new_tokens, temperature: opts.temperature, top_k: opts.top_k, top_p: opts.top_p, stop: [env.stop], rng: opts.rng });
  const t0 = performance.now();
  const grades = await gradeAll(env, outs.map((o, i) => ({ task: tasks[Math.floor(i / G)]!, completion: o.text })), opts.concurrency);
  const grade_s = (performance.now() - t0) / 1000;
  const groups = tasks.map((task, k) => outs.slice(k * G, (k + 1) * G).map((completion, j) => ({
    task, prompt: prompts[k]!, prompt_ids: promptIds[k]!, completion, grade: grades[k * G + j]!,
  })));
  return { groups, grade_s };
}

/** An SDPO row: student and teacher prompts (differing by the hint) over the student's own completion. */
export interface SdpoSite {
  student_prompt_ids: number[];
  teacher_prompt_ids: number[];
  completion_ids: number[];
  bos: number | null;
  hint: string;
  /** What fed the teacher: "sibling", "feedback", "sibling+feedback" or a hint layer's name (replayed rows: "replay:<layer>"). */
  layer: string;
}

/** A completion's ids, never empty (an empty completion trains on BOS: its first token). */
export const completionIds = (c: Completion): number[] => (c.ids.length ? c.ids : [BOS]);

/**
 * The teacher's context as ids: the prompt with the hint spliced in, the hint shortened from its end
 * ("...") until prompt + completion fit the block and the prompt is at most `maxRepromptLen` tokens.
 * Packing cuts an over-long context from the left, which for a hinted prompt would remove what was
 * asked: the teacher would see the hint and not the task.
 *
 * `maxRepromptLen` is TRL's `max_reprompt_len` (SDPOConfig, default 10240; sdpo_trainer.py keeps the
 * last max_reprompt_len ids of the teacher's prompt, `ids[-max_reprompt_len:]`). The length cap is
 * TRL's; where it is met differs: the lab shortens the privileged context (the hint) first, since TRL's
 * left cut would drop the start of the task here (the lab's prompt puts the hint above the task; the
 * bug docs/results.md names for the toy tool calls). Only when the prompt without any hint is still
 * longer than the cap are its first ids dropped, as TRL drops them.
 */
export function hintedPromptIds<T extends EnvTask>(env: Environment<T>, task: T, hint: string, completionLength: number, blockSize: number, maxRepromptLen = Number.POSITIVE_INFINITY): number[] {
  const room = Math.min(blockSize + 1 - Math.min(completionLength, Math.floor(blockSize / 2)), maxRepromptLen);
  let h = hint;
  for (;;) {
    const ids = encode(renderMessages(env.prompt(task, h)), { bos: true });
    const over = ids.length - room;
    if (over <= 0) return ids;
    if (h.length === 0) return ids.length > maxRepromptLen ? ids.slice(ids.length - maxRepromptLen) : ids;
    h = h.length > over + 3 ? `${h.slice(0, h.length - over - 3).trimEnd()}...` : "";
  }
}

/** Who the teacher is shown, TRL's SDPOConfig reprompting fields (lib/train config's SdpoChannelConfig). */
export interface RepromptOptions {
  use_successful_as_teacher: boolean;
  success_reward_threshold: number;
  dont_reprompt_on_self_success: boolean;
  include_environment_feedback: boolean;
  environment_feedback_only_without_solution: boolean;
  /** TRL max_reprompt_len: the teacher prompt's length cap in tokens (hintedPromptIds). */
  max_reprompt_len: number;
}

/** The hint text of a successful sibling (TRL solution_template, "Correct solution:", shortened for a byte policy). */
export const solutionHint = (text: string): string => `solution: ${text.trim()}`;
/**
 * The environment's feedback on a graded attempt (TRL privileged_context): the failing assertion when
 * the grade has one (pytest's expected-vs-got line, e.g. `assert 0 == 2`: short enough to survive the
 * byte policy's block), else the grade's error text.
 */
export const feedbackOf = (grade: EnvGrade): string | null => {
  const e = grade.error;
  const f = (e?.assertion_excerpt ? `failed: ${e.assertion_excerpt}` : e?.error_message)?.trim();
  return f ? f : null;
};

/**
 * The teacher's hint for one rollout of a group, as TRL's SDPOTrainer builds its reprompt
 * (sdpo_trainer.py, the teacher-context builder): a successful sibling (reward ≥ threshold; never
 * itself with dont_reprompt_on_self_success) as the solution, the environment's feedback when
 * include_environment_feedback (and, with environment_feedback_only_without_solution, only where no
 * sibling was found), both when both apply; else, for a failed rollout, the lab's hint layers. Returns
 * the hint and its source, or null (no SDPO row), and what TRL counts for its metrics.
 */
export async function teacherHint(
  group: { reward: number; text: string; grade: EnvGrade }[], i: number, opts: RepromptOptions, layers: LayeredHintGenerator | null,
): Promise<{ hint: { hint: string; layer: string } | null; has_solution: boolean; feedback_available: boolean; feedback_used: boolean }> {
  const me = group[i]!;
  const winners = opts.use_successful_as_teacher
    ? group.map((r, j) => ({ r, j })).filter(({ r, j }) => r.reward >= opts.success_reward_threshold && !(opts.dont_reprompt_on_self_success && j === i))
    : [];
  const solution = winners[0]?.r.text ?? null;
  const feedback = feedbackOf(me.grade);
  const useFeedback = opts.include_environment_feedback && feedback !== null && (!opts.environment_feedback_only_without_solution || solution === null);
  const parts = [...(solution !== null ? [solutionHint(solution)] : []), ...(useFeedback ? [feedback!] : [])];
  const counts = { has_solution: solution !== null, feedback_available: feedback !== null, feedback_used: useFeedback };
  if (parts.length) return { hint: { hint: parts.join("\n"), layer: solution !== null && useFeedback ? "sibling+feedback" : solution !== null ? "sibling" : "feedback" }, ...counts };
  const err = me.grade.error;
  if (!layers || !err || me.reward >= opts.success_reward_threshold) return { hint: null, ...counts };
  const siblings = group.filter((_, j) => j !== i).map((s) => ({ reward: s.reward, solution_excerpt: s.text.trim() }));
  const h = await layers.generate({ ...err, sibling_rollouts: siblings });
  return { hint: h ? { hint: h.hint, layer: h.layer } : null, ...counts };
}

/** TRL's self_distillation/* counts of one group (summed over groups, divided by rollouts / groups). */
export interface RepromptCounts {
  rollouts: number;
  success_groups: number;
  with_solution: number;
  feedback_available: number;
  feedback_used: number;
  reprompted: number;
}

/**
 * TRL's self_distillation/* metrics from the counts summed over a step's groups (SDPOTrainer): the share
 * of groups with a rollout at or above success_reward_threshold, and the shares of the step's rollouts
 * shown a successful sibling, with feedback available, with feedback used, and reprompted (any SDPO row).
 */
export function repromptMetrics(c: RepromptCounts, groups: number): {
  success_group_fraction: number; success_sample_fraction: number; feedback_available_fraction: number; feedback_used_fraction: number; reprompt_sample_fraction: number;
} {
  if (groups <= 0 || c.rollouts <= 0) throw new Error(`repromptMetrics: ${groups} groups, ${c.rollouts} rollouts`);
  return {
    success_group_fraction: c.success_groups / groups, success_sample_fraction: c.with_solution / c.rollouts,
    feedback_available_fraction: c.feedback_available / c.rollouts, feedback_used_fraction: c.feedback_used / c.rollouts,
    reprompt_sample_fraction: c.reprompted / c.rollouts,
  };
}

/**
 * SDPO sites of one group: each rollout teacherHint gives a hint to (the group's other rollouts are
 * its siblings). Returns the sites, the count per source, and TRL's counts.
 */
export async function sdpoSites<T extends EnvTask>(
  env: Environment<T>, group: Rollout<T>[], hints: LayeredHintGenerator | null, blockSize: number, opts: RepromptOptions,
): Promise<{ sites: SdpoSite[]; layers: Record<string, number>; counts: RepromptCounts }> {
  const sites: SdpoSite[] = [];
  const layers: Record<string, number> = {};
  const view = group.map((r) => ({ reward: r.grade.reward, text: r.completion.text, grade: r.grade }));
  const counts: RepromptCounts = {
    rollouts: group.length, success_groups: view.some((r) => r.reward >= opts.success_reward_threshold) ? 1 : 0,
    with_solution: 0, feedback_available: 0, feedback_used: 0, reprompted: 0,
  };
  for (const [i, r] of group.entries()) {
    const t = await teacherHint(view, i, opts, hints);
    counts.with_solution += t.has_solution ? 1 : 0;
    counts.feedback_available += t.feedback_available ? 1 : 0;
    counts.feedback_used += t.feedback_used ? 1 : 0;
    if (!t.hint) continue;
    counts.reprompted++;
    layers[t.hint.layer] = (layers[t.hint.layer] ?? 0) + 1;
    const completion_ids = completionIds(r.completion);
    sites.push({
      student_prompt_ids: r.prompt_ids, teacher_prompt_ids: hintedPromptIds(env, r.task, t.hint.hint, completion_ids.length, blockSize, opts.max_reprompt_len),
      completion_ids, bos: BOS, hint: t.hint.hint, layer: t.hint.layer,
    });
  }
  return { sites, layers, counts };
}

/** DPO pairs of one group by lib/collate's rule (a winner at the group's top reward vs each lower sibling). */
export function groupPairs(group: Rollout[], opts: GroupOptions = {}): DpoPair[] {
  if (!group.length) return [];
  // The pairs carry each rollout's own sampled ids (stop tokens included), not a re-encoding of its text.
  const ids = group.map((r) => completionIds(r.completion));
  const texts = group.map((r, i) => ({ text: decode(ids[i]!), reward: r.grade.reward }));
  const idsOf = new Map(texts.map((x, i) => [x.text, ids[i]!]));
  const tokenizer: Tokenizer = { encode: (t) => idsOf.get(t) ?? encode(t), decode, bos: BOS };
  return dpoPairsFromGroup(group[0]!.prompt, texts, tokenizer, opts);
}

/** A prompt + completion in block_size + 1 tokens (the trainer's window: block_size predictions). */
export const toSeq = (prompt_ids: number[], completion_ids: number[], blockSize: number): Seq => promptCompletion(prompt_ids, completion_ids, blockSize + 1, BOS);

/** Student and teacher sequences of an SDPO site (collate's cut: the same completion tokens in both). */
export const sdpoSeqs = (site: Pick<SdpoSite, "student_prompt_ids" | "teacher_prompt_ids" | "completion_ids" | "bos">, blockSize: number): { student: Seq; teacher: Seq } => sdpoSequences(site, blockSize + 1);

/** Chosen and rejected sequences of a DPO pair. */
export const dpoSeqs = (p: Pick<DpoPair, "prompt_ids" | "chosen_ids" | "rejected_ids">, blockSize: number): { chosen: Seq; rejected: Seq } => ({
  chosen: toSeq(p.prompt_ids, p.chosen_ids, blockSize),
  rejected: toSeq(p.prompt_ids, p.rejected_ids, blockSize),
});
