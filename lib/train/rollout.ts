/**
 * The one rollout path: a graded group of completions → SDPO rows (each failed rollout whose error a
 * hint layer speaks to: the teacher sees the same prompt with the hint spliced in) and DPO pairs
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
  layer: string;
}

/** A completion's ids, never empty (an empty completion trains on BOS: its first token). */
export const completionIds = (c: Completion): number[] => (c.ids.length ? c.ids : [BOS]);

/**
 * The teacher's context as ids: the prompt with the hint spliced in, the hint shortened from its end
 * ("...") until prompt + completion fit the block. Packing cuts an over-long context from the left,
 * which for a hinted prompt would remove what was asked: the teacher would see the hint and not the task.
 */
export function hintedPromptIds<T extends EnvTask>(env: Environment<T>, task: T, hint: string, completionLength: number, blockSize: number): number[] {
  const room = blockSize + 1 - Math.min(completionLength, Math.floor(blockSize / 2));
  let h = hint;
  for (;;) {
    const ids = encode(renderMessages(env.prompt(task, h)), { bos: true });
    const over = ids.length - room;
    if (over <= 0 || h.length === 0) return ids;
    h = h.length > over + 3 ? `${h.slice(0, h.length - over - 3).trimEnd()}...` : "";
  }
}

/**
 * SDPO sites of one group: each failed rollout whose error the generator hints (the group's other
 * rollouts are its siblings, for the sibling layer). Returns the sites and the count per layer.
 */
export async function sdpoSites<T extends EnvTask>(env: Environment<T>, group: Rollout<T>[], hints: LayeredHintGenerator, blockSize: number): Promise<{ sites: SdpoSite[]; layers: Record<string, number> }> {
  const sites: SdpoSite[] = [];
  const layers: Record<string, number> = {};
  for (const [i, r] of group.entries()) {
    const err = r.grade.error;
    if (!err) continue;
    const siblings = group.filter((_, j) => j !== i).map((s) => ({ reward: s.grade.reward, solution_excerpt: s.completion.text.trim() }));
    const hint = await hints.generate({ ...err, sibling_rollouts: siblings });
    if (!hint) continue;
    layers[hint.layer] = (layers[hint.layer] ?? 0) + 1;
    const completion_ids = completionIds(r.completion);
    sites.push({
      student_prompt_ids: r.prompt_ids, teacher_prompt_ids: hintedPromptIds(env, r.task, hint.hint, completion_ids.length, blockSize),
      completion_ids, bos: BOS, hint: hint.hint, layer: hint.layer,
    });
  }
  return { sites, layers };
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
