/** Plots of training runs: one run's curves, and variants compared over seeds. */
import { mean } from "../core/index.js";
import { bandChart, barChart, lineChart, parseFigure, type Figure } from "../viz/index.js";
import { CHANNEL_NAMES } from "./channels.js";
import { sampleStd } from "./stats.js";
import type { StepMetrics, VariantSummary } from "./config.js";
import type { GapCheck } from "./gap.js";

/**
 * The primary metric per arm: each completed run as a point (by seed), stopped runs as crosses; and
 * each arm's paired difference to the baseline with its bootstrap CI.
 */
export function primaryMetricFigures(summary: VariantSummary[], metric = "held-out greedy reward", baseline = "grpo"): Figure[] {
  const arms = summary.map((s) => s.variant);
  const points = parseFigure({
    data: [
      { type: "scatter", mode: "markers", name: "completed run", x: summary.flatMap((s) => s.heldout_values.map(() => s.variant)), y: summary.flatMap((s) => s.heldout_values.map((v) => v.heldout)), text: summary.flatMap((s) => s.heldout_values.map((v) => `seed ${v.seed}`)), marker: { size: 9 } },
      { type: "scatter", mode: "markers", name: "stopped by the guard", x: summary.flatMap((s) => s.stopped_runs.map(() => s.variant)), y: summary.flatMap((s) => s.stopped_runs.map((v) => v.heldout)), text: summary.flatMap((s) => s.stopped_runs.map((v) => `seed ${v.seed}, ${v.rollouts} rollouts`)), marker: { symbol: "x", size: 10 } },
      { type: "scatter", mode: "markers", name: "mean of completed", x: arms, y: summary.map((s) => s.heldout_mean), marker: { symbol: "line-ew-open", size: 28 } },
    ],
    layout: { title: { text: `${metric} per run` }, yaxis: { title: { text: metric } }, width: 760, height: 400 },
  });
  const withCI = summary.filter((s) => s.vs_baseline);
  const diffs = withCI.length
    ? [parseFigure({
      data: [{
        type: "scatter", mode: "markers", name: `arm − ${baseline}`, x: withCI.map((s) => s.variant), y: withCI.map((s) => s.vs_baseline!.mean_diff),
        error_y: { type: "data", symmetric: false, array: withCI.map((s) => s.vs_baseline!.hi - s.vs_baseline!.mean_diff), arrayminus: withCI.map((s) => s.vs_baseline!.mean_diff - s.vs_baseline!.lo) },
        text: withCI.map((s) => `n = ${s.vs_baseline!.n} paired seeds`), marker: { size: 10 },
      }],
      layout: { title: { text: `Difference to ${baseline} (paired by seed, 95% bootstrap CI)` }, yaxis: { title: { text: `Δ ${metric}` }, zeroline: true }, width: 760, height: 380 },
    })]
    : [];
  return [points, ...diffs];
}

/** Reward by rollouts, mean ± sample std over seeds, one band per variant (plus valid-call rate). */
export function comparisonFigures(rl: Record<string, StepMetrics[][]>, smooth = 3): Figure[] {
  const band = (key: "reward_mean" | "valid_rate") =>
    Object.fromEntries(
      Object.entries(rl).map(([name, perSeed]) => {
        // A run the held-out guard stopped is shorter: each point averages the seeds still running.
        const longest = perSeed.reduce((a, b) => (b.length > a.length ? b : a));
        const x = longest.map((m) => m.rollouts);
        const ys = perSeed.map((ms) => movingAverage(ms.map((m) => m[key] ?? 0), smooth));
        const at = (i: number) => ys.filter((y) => i < y.length).map((y) => y[i]!);
        const mu = x.map((_, i) => mean(at(i)));
        const sd = x.map((_, i) => sampleStd(at(i)) ?? 0); // ddof 1; 0 where a single run remains
        return [name, { x, mean: mu, lo: mu.map((m, i) => m - sd[i]!), hi: mu.map((m, i) => m + sd[i]!) }];
      }),
    );
  return [
    bandChart(band("reward_mean"), { title: `Reward by rollouts (mean ± sample std over seeds, ${smooth}-step moving average)`, xTitle: "rollouts", yTitle: "reward" }),
    bandChart(band("valid_rate"), { title: "Valid tool calls", xTitle: "rollouts", yTitle: "valid-call rate" }),
  ];
}

/** Dash styles for lines that may coincide (e.g. a valid rate of 1 under a reward of 1), in series order. */
const DASHES = ["solid", "dash", "dot", "dashdot", "longdash"] as const;
const MARKERS = ["circle", "square", "diamond", "triangle-up", "x"] as const;

/** Each line of a figure gets its own dash and marker, so lines that coincide stay told apart. */
function distinctLines(fig: Figure): Figure {
  fig.data.forEach((d, i) => {
    d.line = { ...(d.line as object | undefined), dash: DASHES[i % DASHES.length] };
    d.marker = { ...(d.marker as object | undefined), symbol: MARKERS[i % MARKERS.length], size: 7 };
  });
  return fig;
}

/**
 * One run's curves: the SFT loss, reward (sampled, with the greedy train-proxy and held-out reward of
 * each guard check), each loss channel, and the teacher–student shift at hinted turns. x is the
 * integer step; a value missing at a step (a channel off, no hinted row) is a gap, never bridged.
 */
export function trainingFigures(metrics: StepMetrics[]): Figure[] {
  const rlm = metrics.filter((m) => m.phase === "rl");
  const series = (ms: StepMetrics[], key: keyof StepMetrics) => ({ x: ms.map((m) => m.step), y: ms.map((m) => (typeof m[key] === "number" ? (m[key] as number) : null)) });
  const has = (s: { y: (number | null)[] }) => s.y.some((v) => v !== null);
  const figs: Figure[] = [lineChart({ "lm_ce (SFT)": series(metrics.filter((m) => m.phase === "sft"), "loss_lm_ce") }, { title: "SFT warm start", xTitle: "step", yTitle: "cross-entropy" })];
  // sft.until's convergence checks: the hinted greedy pass on held-out tasks per hint source.
  const sftChecks = metrics.filter((m) => m.sft_check);
  if (sftChecks.length) {
    const sources = [...new Set(sftChecks.flatMap((m) => m.sft_check!.by_source.map((b) => b.source)))];
    const at = (src: string, key: "teacher_pass" | "teacher_logp") => ({ x: sftChecks.map((m) => m.step), y: sftChecks.map((m) => m.sft_check!.by_source.find((b) => b.source === src)?.[key] ?? null) });
    figs.push(distinctLines(lineChart({
      ...Object.fromEntries(sources.map((src) => [`hinted pass (${src})`, at(src, "teacher_pass")])),
      ...Object.fromEntries(sources.map((src) => [`golden log p / token (${src})`, at(src, "teacher_logp")])),
    }, { title: "SFT convergence (sft.until): hinted greedy pass and golden log-prob on held-out tasks", xTitle: "step", yTitle: "pass rate / log p" })));
  }
  if (rlm.length) {
    const checks = rlm.filter((m) => m.heldout);
    const reward: Record<string, { x: number[]; y: (number | null)[] }> = { "reward (sampled)": series(rlm, "reward_mean"), "valid completions": series(rlm, "valid_rate") };
    if (checks.length) {
      reward["train proxy (greedy)"] = { x: checks.map((m) => m.step), y: checks.map((m) => m.heldout!.proxy) };
      reward["held-out (greedy)"] = { x: checks.map((m) => m.step), y: checks.map((m) => m.heldout!.heldout) };
    }
    figs.push(distinctLines(lineChart(reward, { title: "Reward: sampled rollouts, and greedy on train-proxy and held-out tasks at each guard check", xTitle: "step", yTitle: "reward" })));
    const hacks = series(rlm, "hack_rate");
    if (has(hacks)) figs.push(lineChart({ "hack rate (flagged grades + canary passes)": hacks }, { title: "Hack rate per 100 grades (issue 26: flagged grades and any reward on a canary)", xTitle: "step", yTitle: "hacks / 100 grades" }));
    const ch = Object.fromEntries(CHANNEL_NAMES.map((n) => [n, series(rlm, `loss_${n}` as const)] as const).filter(([, s]) => has(s)));
    figs.push(distinctLines(lineChart(ch, { title: "Loss channels", xTitle: "step", yTitle: "loss" })));
    const shift = series(rlm, "shift_kl");
    if (has(shift)) {
      figs.push(distinctLines(lineChart({
        "KL(teacher‖student) at hinted tokens": shift, "teacher − student log p of the sampled tokens": series(rlm, "teacher_student_gap"), entropy: series(rlm, "entropy"),
      }, { title: "Teacher–student gap, hint shift and entropy", xTitle: "step", yTitle: "nats / token" })));
    }
    const trl = Object.fromEntries((["success_group_fraction", "success_sample_fraction", "feedback_used_fraction", "reprompt_sample_fraction"] as const)
      .map((k) => [k, series(rlm, k)] as const).filter(([, s]) => has(s)));
    if (Object.keys(trl).length) figs.push(distinctLines(lineChart(trl, { title: "Who the teacher saw (TRL's self_distillation metrics)", xTitle: "step", yTitle: "fraction" })));
  }
  return figs;
}

/** The pre-flight gap check: greedy pass and golden log-prob per token, student vs hinted teacher, per hint source. */
export function gapCheckFigures(gap: GapCheck): Figure[] {
  const cats = gap.by_source.map((s) => `${s.source} (n = ${s.n})`);
  if (!cats.length) return [];
  return [
    barChart(cats, { student: gap.by_source.map((s) => s.student_pass), "hinted teacher": gap.by_source.map((s) => s.teacher_pass) }, { title: "Gap check before RL: greedy pass rate", yTitle: "pass rate" }),
    barChart(cats, { student: gap.by_source.map((s) => s.student_logp), "hinted teacher": gap.by_source.map((s) => s.teacher_logp) }, { title: "Gap check before RL: mean log-prob per golden token", yTitle: "log p / token" }),
  ];
}

function movingAverage(xs: number[], k: number): number[] {
  return xs.map((_, i) => mean(xs.slice(Math.max(0, i - k + 1), i + 1)));
}
