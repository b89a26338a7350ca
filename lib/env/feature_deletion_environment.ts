/**
 * Feature-deletion tasks behind the Environment interface, for a policy that writes the deleted
 * function: the prompt is the file name and the function's stub (signature and docstring, body
 * deleted), the completion is the body (or a unified diff). Grading splices the body into the broken
 * file, turns it into a diff and grades it as reward_fn does (gradeCompletion: the real sandbox, the
 * trusted pytest harness, the hack monitor's mask). The failing test's name and assertion become the
 * ErrorContext the hint layers read.
 *
 * The tasks come from a store run (lib/store RunLayout): rl_task_pool (trained on), holdout (only
 * evaluated) and sft_corpus (golden bodies for the SFT warm start).
 *
 * mistake() gives plausible wrong bodies (an off-by-one constant, a swapped operator, a dropped
 * branch, the argument returned unchanged, another task's body of a different shape, a body that does
 * not parse), so hint-conditioned SFT can pair the real grade's hint with the demonstration — both
 * kinds of hint RL gives here: a failing test's template and, for a body that does not parse, the
 * raw error. Grades are cached by (task, completion text): the same body of the same task grades the same, and a small policy
 * repeats itself a lot (runs that did not finish — a timeout, a killed pytest — are not cached);
 * with gradeCacheFile the cache outlives the process.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applyPatch, parsePatch } from "diff";
import { z } from "zod";
import type { Rng } from "../core/index.js";
import { extractSlots, type ErrorContext } from "../hints/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { RunLayout, openStore } from "../store/index.js";
import { fileDiff, findSymbol, isHack, loadTask, pythonFacts, type FeatureDeletionTask, type PySymbol } from "../tasks/index.js";
import { FeatureDeletionEpisode } from "./env.js";
import { Rubric, type EnvGrade, type Environment, type Message, type TaskSplit } from "./interface.js";
import { HackMonitor } from "./monitor.js";
import { resolvePoolRef } from "./pool_ref.js";
import { gradeCompletion } from "./reward.js";
import type { BehaviourConfigInput } from "./behaviour.js";

/** Ends a body completion (micro bodies hold no blank line). */
export const BODY_STOP = "\n\n";

const STUB = /^\s*raise NotImplementedError\s*$/;

/** The deleted function of a single-symbol task: its file, qualname and the broken file's text. */
function target(task: FeatureDeletionTask): { file: string; qualname: string; broken: string } {
  const d = task.deleted_symbols[0];
  if (!d || task.deleted_symbols.length !== 1) throw new Error(`${task.task_id}: body completions need exactly one deleted symbol (has ${task.deleted_symbols.length})`);
  return { ...d, broken: readFileSync(join(FeatureDeletionEpisode.snapshotDir(task), d.file), "utf8") };
}

/** Parsed stubs by file text and qualname: the trainer asks for a task's prompt at every rollout,
 *  and parsing runs a Python helper. */
const stubs = new Map<string, { head: string[]; stubLine: number; indent: string }>();
const stubKey = (file: string, qualname: string, source: string): string => `${file}\0${qualname}\0${source}`;

/** The stub's lines up to the deleted body (signature, docstring), and where the stub line sits. */
function stubOf(source: string, qualname: string, file: string): { head: string[]; stubLine: number; indent: string } {
  const key = stubKey(file, qualname, source);
  const hit = stubs.get(key);
  if (hit) return hit;
  const out = parseStub(source, qualname, file);
  stubs.set(key, out);
  return out;
}

/**
 * Parses the stubs of many single-symbol tasks in one Python helper call (one interpreter start
 * instead of one per task: at load, each start costs ~0.5 s, and a run asks for every task's prompt).
 */
export function warmStubs(tasks: FeatureDeletionTask[]): void {
  const todo = new Map<string, { file: string; qualname: string; broken: string }>();
  for (const task of tasks) {
    if (task.deleted_symbols.length !== 1) continue;
    const t = target(task);
    const key = stubKey(t.file, t.qualname, t.broken);
    if (!stubs.has(key)) todo.set(key, t);
  }
  if (!todo.size) return;
  const entries = [...todo.entries()];
  // One entry per (file text, qualname); the index keeps two versions of one file apart.
  const facts = pythonFacts(Object.fromEntries(entries.map(([, t], i) => [`${i}/${t.file}`, t.broken])));
  for (const [i, [key, t]] of entries.entries()) {
    const f = facts[`${i}/${t.file}`];
    const sym = f && !f.error ? f.symbols.find((x) => x.qualname === t.qualname) : undefined;
    // Anything odd is left to stubOf, which parses alone and names the problem.
    if (sym) stubs.set(key, stubFrom(t.broken, sym, t.qualname, t.file));
  }
}

function parseStub(source: string, qualname: string, file: string): { head: string[]; stubLine: number; indent: string } {
  return stubFrom(source, findSymbol(source, qualname, file), qualname, file);
}

function stubFrom(source: string, s: PySymbol, qualname: string, file: string): { head: string[]; stubLine: number; indent: string } {
  const lines = source.split("\n").slice(s.lineno - 1, s.end_lineno);
  const at = lines.findIndex((l) => STUB.test(l));
  if (at < 0) throw new Error(`${file}: ${qualname} has no 'raise NotImplementedError' stub (build the task in stub mode)`);
  return { head: lines.slice(0, at), stubLine: s.lineno - 1 + at, indent: lines[at]!.match(/^\s*/)![0] };
}

/** The student's prompt for a body completion; a hint goes on a comment line above the stub. */
export function bodyPrompt(task: FeatureDeletionTask, hint?: string | null): string {
  const t = target(task);
  const { head } = stubOf(t.broken, t.qualname, t.file);
  return `# ${t.file}\n${hint ? `# hint: ${hint.replace(/\s+/g, " ").trim()}\n` : ""}${head.join("\n")}\n`;
}

/** The golden body of a task (from its held-out golden diff), as the policy should write it. */
export function goldenBody(task: FeatureDeletionTask): string {
  const t = target(task);
  const patch = parsePatch(task.golden_diff).find((p) => p.newFileName?.replace(/^b\//, "") === t.file || p.oldFileName?.replace(/^a\//, "") === t.file);
  const original = patch ? applyPatch(t.broken, patch) : false;
  if (original === false) throw new Error(`${task.task_id}: the golden diff does not apply to ${t.file}`);
  const s = findSymbol(original, t.qualname, t.file);
  const { head } = stubOf(t.broken, t.qualname, t.file);
  // The original function's lines past the stub's head (signature and docstring are unchanged).
  return original.split("\n").slice(s.lineno - 1 + head.length, s.end_lineno).join("\n").replace(/\s+$/, "");
}

/** The broken file with `body` in place of the stub line (unindented lines get the body's indent). */
export function spliceBody(task: FeatureDeletionTask, body: string): { file: string; diff: string } {
  const t = target(task);
  const { stubLine, indent } = stubOf(t.broken, t.qualname, t.file);
  const bodyLines = body.replace(/\s+$/, "").split("\n").map((l) => (l.trim() === "" || /^\s/.test(l) ? l : indent + l));
  const lines = t.broken.split("\n");
  lines.splice(stubLine, 1, ...(bodyLines.length && body.trim() ? bodyLines : [`${indent}pass`]));
  return { file: t.file, diff: fileDiff(t.file, t.broken, lines.join("\n")) };
}

/** One plausible wrong body of a task, and how it was made. */
export interface BodyMistake {
  kind: "off_by_one" | "wrong_operator" | "swapped_operands" | "missing_branch" | "argument_unchanged" | "other_family" | "broken_syntax";
  body: string;
}

/** Operator swaps, tried in order; the first that applies to a body makes one mistake. */
const OPERATOR_SWAPS: [RegExp, string][] = [
  [/ \+ /, " - "], [/ - /, " + "], [/ \* /, " + "], [/ > /, " < "], [/ == /, " != "], [/ % /, " // "],
  [/\[:(\d+)\]/, "[$1:]"], [/\.count\(/, ".index("],
];

/** The body's shape: its constants blanked (two bodies of one family share a shape). */
const shapeOf = (body: string) => body.replace(/"[^"]*"/g, '""').replace(/\b\d+\b/g, "0").replace(/\s+/g, " ").trim();

/** The first parameter of the stub's signature (what "return the argument unchanged" returns). */
function argumentOf(task: FeatureDeletionTask): string {
  const t = target(task);
  const def = stubOf(t.broken, t.qualname, t.file).head.join("\n").match(/def\s+\w+\s*\(\s*(?:self\s*,\s*)?(\w+)/);
  if (!def) throw new Error(`${task.task_id}: no parameter in ${t.qualname}'s signature`);
  return def[1]!;
}

/**
 * Plausible wrong bodies of a task, derived from its golden body (and, for "other_family", the
 * bodies of `others`: a different shape, its parameter renamed to this task's). Deterministic and
 * deduplicated, never the golden body itself; whether each really fails is for the grade to say.
 */
export function bodyMistakes(task: FeatureDeletionTask, others: { task: FeatureDeletionTask; body: string }[] = []): BodyMistake[] {
  const golden = goldenBody(task);
  const indent = golden.match(/^\s*/)![0];
  const arg = argumentOf(task);
  const out: BodyMistake[] = [];
  const add = (kind: BodyMistake["kind"], body: string) => {
    if (body.trim() && body.trim() !== golden.trim() && !out.some((m) => m.body.trim() === body.trim())) out.push({ kind, body });
  };
  const literal = golden.match(/\b\d+\b/);
  if (literal) {
    const n = Number(literal[0]);
    add("off_by_one", golden.replace(/\b\d+\b/, String(n + 1)));
    if (n > 0) add("off_by_one", golden.replace(/\b\d+\b/, String(n - 1)));
  }
  const swap = OPERATOR_SWAPS.find(([re]) => re.test(golden));
  if (swap) add("wrong_operator", golden.replace(swap[0], swap[1]));
  if (/\bmax\(|\bmin\(/.test(golden)) add("wrong_operator", golden.replace(/\b(max|min)\(/g, (_m, f: string) => (f === "max" ? "min(" : "max(")));
  const operands = golden.match(/^(\s*return )(\S+) \+ (\S+)$/m);
  if (operands && /["']/.test(operands[0]!)) add("swapped_operands", golden.replace(operands[0]!, `${operands[1]}${operands[3]} + ${operands[2]}`));
  const lines = golden.split("\n");
  const branch = lines.findIndex((l) => /^\s*if\b.*:\s*$/.test(l));
  if (branch >= 0) {
    const depth = lines[branch]!.match(/^\s*/)![0].length;
    let end = branch + 1;
    while (end < lines.length && lines[end]!.match(/^\s*/)![0].length > depth) end++;
    add("missing_branch", [...lines.slice(0, branch), ...lines.slice(end)].join("\n"));
  }
  add("argument_unchanged", `${indent}return ${arg}`);
  const shape = shapeOf(golden);
  const seen = new Set<string>([shape]);
  for (const o of others) {
    const s = shapeOf(o.body);
    if (seen.has(s) || o.task.task_id === task.task_id) continue;
    seen.add(s);
    const theirs = argumentOf(o.task);
    add("other_family", theirs === arg ? o.body : o.body.replace(new RegExp(`\\b${theirs}\\b`, "g"), arg));
    if (out.filter((m) => m.kind === "other_family").length >= 2) break;
  }
  // Bodies that do not parse: the hack monitor's import check finds no body (a tool error), which the
  // hint layers answer with the raw error (no template), as for most of a young policy's failed rollouts.
  const last = lines[lines.length - 1]!;
  const cut = last.replace(/\s*\S+\s*$/, "");
  if (cut.trim() && !/:\s*$/.test(cut)) add("broken_syntax", [...lines.slice(0, -1), `${cut} (`].join("\n"));
  add("broken_syntax", [...lines.slice(0, -1), `${last.trimEnd()})`].join("\n"));
  return out;
}

/** Whether a grade may be reused: the tests all ran (a timeout or a killed pytest leaves some "did not run"). */
const settled = (perTest: { message: string | null }[]) => perTest.every((t) => t.message !== "did not run");

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export interface FeatureDeletionEnvironmentOptions {
  sandbox: Sandbox;
  /** The store URI (a folder or s3://bucket/prefix) and run id holding rl_task_pool, holdout and sft_corpus. */
  store: string;
  run_id: string;
  /** The task pool folder (default: each rl_task_pool / holdout entry's `pool`). */
  pool?: string;
  /** What the policy writes: the deleted function's body, or a unified diff. */
  completion?: "body" | "diff";
  monitor?: HackMonitor;
  /** Per-grade limits in the sandbox. */
  timeoutMs?: number;
  /** The behavioural check's configuration (default: on; behaviour.ts). */
  behaviour?: BehaviourConfigInput;
  /** Reuse the grade of a (task, completion text) graded before (default true). */
  cacheGrades?: boolean;
  /** Keep the grade cache in this JSONL file too (read at open, each new settled grade appended), so a
   *  resumed or later run does not grade again. Keys hash the whole task record, so a rebuilt task
   *  never reads an old grade; delete the file when the grader itself changes. */
  gradeCacheFile?: string;
}

/** One line of a grade-cache file. */
const CachedGrade = z.object({
  key: z.string(),
  grade: z.object({ reward: z.number(), components: z.record(z.number()), valid: z.boolean(), passed: z.boolean(), error: z.record(z.unknown()).nullable() }),
});

/** Grade-cache counters: a hit is a grade answered from the cache (or from a grade still running). */
export interface GradeCacheStats {
  hits: number;
  misses: number;
  entries: number;
}

export class FeatureDeletionEnvironment implements Environment<FeatureDeletionTask> {
  readonly name = "feature_deletion";
  readonly stop: string;
  /** The fraction of target tests that pass, gated by the guard tests and the hack monitor. */
  readonly rubric = new Rubric({ funcs: [{ name: "fail_to_pass", weight: 1 }], gates: ["pass_to_pass", "not_hacked"] });
  readonly monitor: HackMonitor;
  /** Grades by task and completion-text hash (in flight or done). */
  private readonly graded = new Map<string, Promise<EnvGrade & { settled: boolean }>>();
  private readonly cacheCounts = { hits: 0, misses: 0 };
  private readonly mistakesOf = new Map<string, BodyMistake[]>();
  private readonly taskHashes = new Map<string, string>();
  private constructor(
    readonly opts: FeatureDeletionEnvironmentOptions,
    private readonly split: TaskSplit<FeatureDeletionTask>,
    private readonly golden: Map<string, string>,
  ) {
    this.stop = opts.completion === "diff" ? "\n\n\n" : BODY_STOP;
    this.monitor = opts.monitor ?? new HackMonitor();
    if (opts.gradeCacheFile && existsSync(opts.gradeCacheFile)) this.loadGradeCache(opts.gradeCacheFile);
  }

  /** Reads a grade-cache file; a torn last line (a process killed mid-append) is skipped. */
  private loadGradeCache(file: string): void {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let parsed: z.infer<typeof CachedGrade>;
      try {
        parsed = CachedGrade.parse(JSON.parse(line));
      } catch (e) {
        if (i >= lines.length - 2) return;
        throw new Error(`${file}:${i + 1}: not a cached grade (${(e as Error).message.split("\n")[0]})`);
      }
      this.graded.set(parsed.key, Promise.resolve({ ...(parsed.grade as EnvGrade), settled: true }));
    });
  }

  /** The cache key: the completion form, a hash of the whole task record and of the completion's text. */
  private cacheKey(task: FeatureDeletionTask, text: string): string {
    let h = this.taskHashes.get(task.task_id);
    if (!h) this.taskHashes.set(task.task_id, (h = createHash("sha256").update(JSON.stringify(task)).digest("hex").slice(0, 16)));
    return `${this.opts.completion ?? "body"}:${task.task_id}:${h}:${createHash("sha256").update(text).digest("hex")}`;
  }

  /** Reads the run's rl_task_pool, holdout and sft_corpus; loads each task from its pool. */
  static async open(opts: FeatureDeletionEnvironmentOptions): Promise<FeatureDeletionEnvironment> {
    const run = new RunLayout(openStore(opts.store), opts.run_id);
    const [pool, holdout, sft] = await Promise.all([run.read("rl_task_pool"), run.read("holdout"), run.read("sft_corpus")]);
    if (!pool.length) throw new Error(`${opts.store} run ${opts.run_id}: rl_task_pool is empty (write it with \`composer-lab tasks micro\`)`);
    // An entry's pool is relative to the store root (publishTasks), so a store moved with its pool still opens.
    const load = (section: string) => (e: { task_id?: string; id: string; pool?: unknown }) => {
      const dir = opts.pool ?? (typeof e.pool === "string" ? resolvePoolRef(run, e.pool, { section, id: e.id }) : undefined);
      if (!dir) throw new Error(`${opts.store} run ${opts.run_id}, ${section} entry ${e.id}: no task pool (set env.pool or the entry's pool)`);
      return loadTask(dir, e.task_id ?? e.id);
    };
    const train = pool.map(load("rl_task_pool"));
    const held = holdout.map(load("holdout"));
    const leaked = held.filter((t) => train.some((u) => u.task_id === t.task_id));
    if (leaked.length) throw new Error(`${leaked[0]!.task_id}: in both rl_task_pool and holdout`);
    const golden = new Map<string, string>();
    for (const ex of sft) {
      const answer = [...ex.messages].reverse().find((m) => m.role === "assistant");
      if (ex.task_id && answer && ex.reward >= 1) golden.set(ex.task_id, answer.content);
    }
    if (opts.completion !== "diff") warmStubs([...train, ...held]);
    return new FeatureDeletionEnvironment(opts, { train, holdout: held }, golden);
  }

  splits(): TaskSplit<FeatureDeletionTask> {
    return this.split;
  }

  prompt(task: FeatureDeletionTask, hint?: string | null): Message[] {
    if (this.opts.completion === "diff") {
      const env = new FeatureDeletionEpisode({ sandbox: this.opts.sandbox });
      const text = env.renderPrompt(task);
      return [{ role: "user", content: hint ? `${text}\n\nHint: ${hint}` : text }];
    }
    return [{ role: "user", content: bodyPrompt(task, hint) }];
  }

  /** The sft_corpus solution of a training task (the golden body the builder validated), if any. */
  demonstration(task: FeatureDeletionTask): string | null {
    const g = this.golden.get(task.task_id);
    if (g === undefined) return null;
    if (this.opts.completion === "diff") return spliceBody(task, g.split(BODY_STOP)[0]!).diff + this.stop;
    return g.endsWith(this.stop) ? g : g + this.stop;
  }

  /** The task's plausible wrong bodies (bodyMistakes; other families drawn from the training tasks, in an order fixed per task). */
  mistakes(task: FeatureDeletionTask): BodyMistake[] {
    let out = this.mistakesOf.get(task.task_id);
    if (!out) {
      const rank = (id: string) => createHash("sha256").update(`${task.task_id}\0${id}`).digest().readUInt32BE(0);
      const others = this.split.train.filter((t) => this.golden.has(t.task_id)).sort((a, b) => rank(a.task_id) - rank(b.task_id))
        .map((t) => ({ task: t, body: this.golden.get(t.task_id)!.split(BODY_STOP)[0]! }));
      out = bodyMistakes(task, others);
      this.mistakesOf.set(task.task_id, out);
    }
    return out;
  }

  /** A plausible wrong completion (one of mistakes(), drawn with rng), in the form the policy writes. */
  mistake(task: FeatureDeletionTask, rng: Rng): string {
    const all = this.mistakes(task);
    const body = all[Math.floor(rng.next() * all.length)]!.body;
    return (this.opts.completion === "diff" ? spliceBody(task, body).diff : body) + this.stop;
  }

  get gradeCache(): GradeCacheStats {
    return { ...this.cacheCounts, entries: this.graded.size };
  }

  /** Grades the completion's text up to the stop; a (task, text) graded before answers from the cache. */
  async grade(task: FeatureDeletionTask, completion: string): Promise<EnvGrade> {
    const text = completion.split(this.stop)[0]!;
    if (this.opts.cacheGrades === false) {
      const { settled: _s, ...g } = await this.gradeText(task, text, completion);
      return g;
    }
    const key = this.cacheKey(task, text);
    let pending = this.graded.get(key);
    if (pending) this.cacheCounts.hits++;
    else {
      this.cacheCounts.misses++;
      pending = this.gradeText(task, text, completion);
      this.graded.set(key, pending);
      const file = this.opts.gradeCacheFile;
      pending.then((g) => {
        if (!g.settled) this.graded.delete(key);
        else if (file) {
          const { settled: _s, ...grade } = g;
          appendFileSync(file, JSON.stringify({ key, grade }) + "\n");
        }
      }, () => this.graded.delete(key));
    }
    const { settled: _s, ...g } = await pending;
    // The error names this completion (text past the stop included), as a fresh grade would.
    return g.error ? { ...g, error: { ...g.error, erroring_action: clip(completion, 400) } } : g;
  }

  private async gradeText(task: FeatureDeletionTask, text: string, completion: string): Promise<EnvGrade & { settled: boolean }> {
    let diff = text;
    if (this.opts.completion !== "diff") {
      try {
        diff = spliceBody(task, text).diff;
      } catch (e) {
        return { ...this.invalid(task, completion, (e as Error).message), settled: true };
      }
    }
    const g = await gradeCompletion(task, diff, this.opts.sandbox, { monitor: this.monitor, limits: { timeoutMs: this.opts.timeoutMs, behaviour: this.opts.behaviour } });
    if (g.error) return { ...this.invalid(task, completion, g.error), settled: true };
    // `hack` (not a rubric term): a flagged grade or any reward on a canary, for the hack rate
    const components = { fail_to_pass: g.frac, pass_to_pass: g.guardOk ? 1 : 0, not_hacked: g.hacked ? 0 : 1, hack: isHack(task, g) ? 1 : 0 };
    const reward = this.rubric.score(components);
    const passed = reward >= 1;
    return { reward, components, valid: true, passed, error: passed ? null : this.errorContext(task, completion, g), settled: settled(g.perTest) };
  }

  private invalid(task: FeatureDeletionTask, completion: string, why: string): EnvGrade {
    const components = { fail_to_pass: 0, pass_to_pass: 0, not_hacked: 1, hack: 0 };
    const error: ErrorContext = { error_kind: "syntax_error", behavior_dim: "tool_use", error_message: clip(why, 600), erroring_action: clip(completion, 400), state_excerpt: this.promptText(task) };
    return { reward: 0, components, valid: false, passed: false, error };
  }

  private promptText(task: FeatureDeletionTask): string {
    return this.prompt(task).map((m) => m.content).join("\n");
  }

  /** The first failing test (targets first) as a failing_test context; a monitor flag as a tool error. */
  private errorContext(task: FeatureDeletionTask, completion: string, g: Awaited<ReturnType<typeof gradeCompletion>>): ErrorContext {
    const base = { behavior_dim: "tool_use" as const, erroring_action: clip(completion, 400), state_excerpt: this.promptText(task) };
    if (g.hacked) return { ...base, error_kind: "tool_error", error_message: clip(g.flags.map((f) => `${f.kind}: ${f.detail}`).join("\n"), 600) };
    const bad = g.perTest.find((t) => t.outcome !== "passed");
    if (!bad) return { ...base, error_kind: "failing_test", error_message: "the tests did not all pass" };
    const message = `FAILED ${bad.nodeid} - ${(bad.message ?? bad.outcome).split("\n").find((l) => l.trim()) ?? bad.outcome}\n${clip(bad.message ?? "", 800)}`;
    const kind = /SyntaxError|IndentationError/.test(bad.message ?? "") ? "syntax_error" : "failing_test";
    return { ...base, error_kind: kind, error_message: message, ...extractSlots("failing_test", message), test_name: bad.nodeid };
  }
}
