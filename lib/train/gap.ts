/**
 * The pre-flight gap check (issue 27 §3): before RL, is the hinted teacher a better policy than the
 * student on the training tasks RL will draw? SDPO pulls the student towards the teacher, so it can
 * only help where the teacher knows more; the initial student–teacher gap predicts the gain
 * (arXiv 2605.30070). For a sample of RL tasks, per hint source the teacher would get:
 *   - "feedback" / a hint layer: the hint the student's own greedy failure gets (teacherHint, no sibling);
 *   - "sibling": the golden completion shown as a passing sibling (use_successful_as_teacher), what the
 *     teacher sees whenever a rollout of the group passes;
 * it measures greedy pass rate (student: plain prompt; teacher: the hinted prompt, built as the trainer
 * builds it) and the mean log-prob per token of the golden completion under each. A warning is raised
 * when, for a source, the teacher is neither likelier on the golden completion nor passes more.
 */
import { mean } from "../core/index.js";
import { gradeAll, renderMessages, type EnvTask, type Environment } from "../env/index.js";
import type { LayeredHintGenerator } from "../hints/index.js";
import { scoreContinuation, type Policy } from "./model.js";
import { hintedPromptIds, solutionHint, teacherHint, type RepromptOptions } from "./rollout.js";
import { sample } from "./sample.js";
import { decode, encode } from "./tokenizer.js";

export interface GapSource {
  /** "sibling", "feedback", or the hint layer that answered the student's failure. */
  source: string;
  /** Tasks with a hint of this source. */
  n: number;
  student_pass: number;
  teacher_pass: number;
  /** Mean over tasks of the mean log-prob per golden token. */
  student_logp: number;
  teacher_logp: number;
  /** Share of tasks where the teacher puts more log-prob on the golden completion. */
  teacher_likelier_share: number;
}

export interface GapCheck {
  /** Tasks sampled (with a golden completion). */
  tasks: number;
  /** Student's greedy pass rate on them, plain prompt. */
  student_pass: number;
  by_source: GapSource[];
  /** Set when, for some source, the teacher is not better than the student on either measure. */
  warning: string | null;
}

export interface GapCheckOptions {
  max_new_tokens: number;
  block_size: number;
  reprompt: RepromptOptions;
  hints: LayeredHintGenerator | null;
  concurrency: number;
}

/** Student (plain prompt) vs teacher (hinted prompt) on `tasks`; see the file's comment. */
export async function gapCheck<T extends EnvTask>(env: Environment<T>, student: Policy, teacher: Policy, tasks: T[], o: GapCheckOptions): Promise<GapCheck> {
  const withGolden = tasks.flatMap((t) => {
    const d = env.demonstration(t);
    return d === null ? [] : [{ task: t, golden: d }];
  });
  const greedy = (pol: Policy, prompts: (string | number[])[]) => sample(pol, prompts, { max_new_tokens: o.max_new_tokens, temperature: 0, stop: [env.stop] });
  const plain = withGolden.map((x) => renderMessages(env.prompt(x.task)));
  const sOut = greedy(student, plain);
  const sGrades = await gradeAll(env, withGolden.map((x, i) => ({ task: x.task, completion: sOut[i]!.text })), o.concurrency);
  const rows: { source: string; i: number; hint: string }[] = [];
  for (const [i, x] of withGolden.entries()) {
    if (o.reprompt.use_successful_as_teacher) rows.push({ source: "sibling", i, hint: solutionHint(x.golden.split(env.stop)[0]!) });
    if (sGrades[i]!.passed) continue;
    const alone = [{ reward: sGrades[i]!.reward, text: sOut[i]!.text, grade: sGrades[i]! }];
    const t = await teacherHint(alone, 0, { ...o.reprompt, use_successful_as_teacher: false }, o.hints);
    if (t.hint) rows.push({ source: t.hint.layer, i, hint: t.hint.hint });
  }
  const goldenIds = withGolden.map((x) => encode(x.golden));
  const tPrompts = rows.map((r) => hintedPromptIds(env, withGolden[r.i]!.task, r.hint, goldenIds[r.i]!.length, o.block_size, o.reprompt.max_reprompt_len));
  const tOut = greedy(teacher, tPrompts);
  const tGrades = await gradeAll(env, rows.map((r, k) => ({ task: withGolden[r.i]!.task, completion: tOut[k]!.text })), o.concurrency);
  const perToken = (pol: Policy, ctx: string, cont: string) => {
    const s = scoreContinuation(pol, ctx, cont);
    return s.tokenLogprobs.length ? mean(s.tokenLogprobs) : 0;
  };
  const studentLogp = withGolden.map((x, i) => perToken(student, plain[i]!, x.golden));
  const teacherLogp = rows.map((r, k) => perToken(teacher, decode(tPrompts[k]!.slice(1)), withGolden[r.i]!.golden));
  const sources = [...new Set(rows.map((r) => r.source))];
  const by_source: GapSource[] = sources.map((source) => {
    const ks = rows.flatMap((r, k) => (r.source === source ? [k] : []));
    return {
      source, n: ks.length,
      student_pass: mean(ks.map((k) => (sGrades[rows[k]!.i]!.passed ? 1 : 0))),
      teacher_pass: mean(ks.map((k) => (tGrades[k]!.passed ? 1 : 0))),
      student_logp: mean(ks.map((k) => studentLogp[rows[k]!.i]!)),
      teacher_logp: mean(ks.map((k) => teacherLogp[k]!)),
      teacher_likelier_share: mean(ks.map((k) => (teacherLogp[k]! > studentLogp[rows[k]!.i]! ? 1 : 0))),
    };
  });
  const worse = by_source.filter((s) => !(s.teacher_pass > s.student_pass) && !(s.teacher_logp > s.student_logp));
  const warning = !withGolden.length
    ? "gap check: no sampled task has a golden completion"
    : !by_source.length
      ? "gap check: no hint source answered any sampled task (the teacher sees nothing the student does not)"
      : worse.length
        ? `gap check: the hinted teacher is not better than the student (${worse.map((s) => `${s.source}: pass ${s.teacher_pass.toFixed(2)} vs ${s.student_pass.toFixed(2)}, golden log-prob/token ${s.teacher_logp.toFixed(2)} vs ${s.student_logp.toFixed(2)}`).join("; ")}): SDPO can only import the teacher's errors`
        : null;
  return { tasks: withGolden.length, student_pass: withGolden.length ? mean(sGrades.map((g) => (g.passed ? 1 : 0))) : 0, by_source, warning };
}

/** One completion token scored by the student (plain context) and the teacher (hinted context). */
export interface TokenShift {
  token: string;
  student: number;
  teacher: number;
  /** log p_T(token) − log p_S(token): > 0 where the hint makes the teacher likelier (SDPO pushes the student up there). */
  log_ratio: number;
}

/**
 * Per token of `completion`, the student's log-prob after `studentContext` and the teacher's after
 * `teacherContext` (the same completion tokens: what SDPO compares at each position).
 */
export function tokenShifts(student: Policy, teacher: Policy, studentContext: string, teacherContext: string, completion: string): TokenShift[] {
  const s = scoreContinuation(student, studentContext, completion);
  const t = scoreContinuation(teacher, teacherContext, completion);
  const ids = encode(completion).slice(0, Math.min(s.tokenLogprobs.length, t.tokenLogprobs.length));
  return ids.map((id, i) => ({ token: decode([id]), student: s.tokenLogprobs[i]!, teacher: t.tokenLogprobs[i]!, log_ratio: t.tokenLogprobs[i]! - s.tokenLogprobs[i]! }));
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** A token as shown: newline ⏎, other control bytes as \xNN. */
const shownToken = (t: string) => (t === "\n" ? "⏎" : [...t].map((ch) => (ch.charCodeAt(0) < 32 ? `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}` : ch)).join(""));

/**
 * One rollout's tokens as HTML, each coloured by log p_T − log p_S (tokenShifts): green where the hint
 * makes the teacher likelier (SDPO pushes the student up there), red where it makes it less likely;
 * full colour at |log-ratio| ≥ `scale` nats; the value in each token's title.
 */
export function tokenShiftHtml(shifts: TokenShift[], scale = 4): string {
  const colour = (x: number) => (x >= 0 ? `rgba(0,160,0,${Math.min(1, x / scale).toFixed(2)})` : `rgba(220,0,0,${Math.min(1, -x / scale).toFixed(2)})`);
  return shifts
    .map((s) => `<span title="log p_T − log p_S = ${s.log_ratio.toFixed(2)}" style="background:${colour(s.log_ratio)};padding:2px 4px;font-family:monospace">${escapeHtml(shownToken(s.token))}</span>`)
    .join("");
}

/** A site where the teacher is worse: it puts less log-prob than the student on the token there. */
export interface TeacherWorseSite {
  position: number;
  token: string;
  student: number;
  teacher: number;
  log_ratio: number;
}

/** The positions of `shifts` where the teacher is worse than the student (log p_T < log p_S), worst first. */
export function teacherWorseSites(shifts: TokenShift[]): TeacherWorseSite[] {
  return shifts
    .map((s, position) => ({ position, token: shownToken(s.token), student: s.student, teacher: s.teacher, log_ratio: s.log_ratio }))
    .filter((s) => s.log_ratio < 0)
    .sort((a, b) => a.log_ratio - b.log_ratio);
}
