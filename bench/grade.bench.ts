/**
 * Grading throughput on micro feature-deletion tasks (`composer-lab tasks micro`), the RL inner
 * loop's grader: grades/s of the environment's grade (bwrap, trusted harness with plugin autoload
 * off, hack monitor) through the warm grader (lib/sandbox/warm.ts: one long-lived bwrap whose
 * zygote forks an isolated grade per run) with `concurrency` grades in flight and one at a time,
 * the same grades through the cold path (one bwrap + interpreter per grade), and a naive loop of one
 * bare `/usr/bin/python3 -m pytest` per grade (copy, patch, pytest with the plugins Debian
 * registers, no sandbox), all on the same completions (half golden bodies, half wrong ones) in one
 * run. The naive loop calls SYSTEM_PYTHON (/usr/bin/python3, the interpreter the sandbox runs), not
 * `python3` from PATH: on machines where that is a pyenv shim it costs ≈ 0.3 s more per start and
 * would flatter the ratio. Also reported: where a warm grade's time goes (host staging, fork,
 * cgroup, run, clean-up; CPU of the grade's processes and of this process per grade), the load
 * average, and the event loop's longest stall while grading concurrently. Goal (issue 31 §4): ≥ 20
 * grades/s on 2 cores with every check on.
 *
 * The behavioural check (issue 26 §1, lib/env/behaviour.ts) is on in every graded mode; the same
 * warm concurrent and one-at-a-time grades are also run with it off in the same rounds
 * (concurrent_no_behaviour, sequential_no_behaviour), so its added cost per grade is measured side
 * by side (goal ≤ 20%). Its runs fork the warm grader's behave zygote (forkserver.py --kind behave).
 *
 * Mixes (issue 31 §4): besides the balanced one (each task's golden body and a wrong one), a
 * golden-heavy mix (3 golden : 1 wrong) and a failure-heavy one (1 : 3, as most RL rollouts fail),
 * each with 4 in flight with the check beside pytest (`order: parallel`, the default), with the
 * check first and pytest only for what passes it (`order: first`), and with the check off. Each
 * mode reports CPU per grade by phase: pytest grades, behaviour runs (the processes each fork ran,
 * from wait4), the zygotes themselves (relaying events and output) and this process (staging,
 * cgroups, the monitor, comparing).
 *
 * Adversarial mix (issue 31 §4: does `order: first` keep the hack monitor whole?): per task its
 * golden body, a wrong one, a stub left raising NotImplementedError, a wrong body that reads a frame
 * (the static scan's), and a body that reads the calling test's expected literal off the stack
 * (right on the tests' calls only: value gaming), graded with the check beside pytest and with it
 * first, in the same round: grades/s, the hack rate of each (flagged grades per 100) and the items
 * whose reward or hacked verdict differ between the two orders (expected: none).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { scratchDir, tempDir } from "../lib/core/index.js";
import { FeatureDeletionEpisode, FeatureDeletionEnvironment, gradeAll, gradeIsHack, goldenBody, publishTasks, spliceBody, type EnvGrade } from "../lib/env/index.js";
import { BwrapSandbox, SYSTEM_PYTHON, warmWorkers, type WarmTimings } from "../lib/sandbox/index.js";
import { HeldoutSplit, RunLayout, openStore } from "../lib/store/index.js";
import { applyUnifiedDiff, buildMicroTasks, loadTask, readIndex, rebuildOracles, taskOracle, type FeatureDeletionTask } from "../lib/tasks/index.js";

const N_TASKS = Number(process.env.COMPOSER_LAB_BENCH_TASKS ?? 12);
const ROUNDS = Number(process.env.COMPOSER_LAB_BENCH_RUNS ?? 2);
/** Tasks graded per round (each twice: its golden body and a wrong one); default all built. */
const GRADED = Number(process.env.COMPOSER_LAB_BENCH_GRADED_TASKS ?? N_TASKS);
/** Grades in flight in the concurrent modes (default: two per core, so one grade's host-side work
 *  overlaps another's sandbox run). */
const CONCURRENCY = Number(process.env.COMPOSER_LAB_BENCH_CONCURRENCY ?? 2 * availableParallelism());

/** Micro tasks built once and kept under scratch/ (building validates each task: minutes). */
async function microRun(sb: BwrapSandbox): Promise<{ store: string; pool: string }> {
  const dir = scratchDir("bench-grade", `micro-n${N_TASKS}`);
  const store = join(dir, "store");
  const pool = join(dir, "pool");
  if (!existsSync(join(store, "runs", "bench", "rl_task_pool", "manifest.json"))) {
    const built = await buildMicroTasks(dir, sb, { n: N_TASKS, seed: 0 }, { quiet: true });
    await publishTasks(new RunLayout(openStore(store), "bench", new HeldoutSplit(0, 0)), built.tasks, built.pool);
  }
  // a pool built before the behavioural check gains its oracles
  if (readIndex(pool).some((e) => !taskOracle(loadTask(pool, e.task_id)))) await rebuildOracles(pool, sb);
  return { store, pool };
}

/** The naive grade: a copy, the diff, one bare `/usr/bin/python3 -m pytest` on the task's tests (reward = all pass). */
function naiveGrade(task: FeatureDeletionTask, diff: string): number {
  const tmp = tempDir("naive-grade-");
  try {
    cpSync(FeatureDeletionEpisode.snapshotDir(task), tmp.path, { recursive: true });
    applyUnifiedDiff(tmp.path, diff);
    const r = spawnSync(SYSTEM_PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...task.fail_to_pass, ...task.pass_to_pass], { cwd: tmp.path, encoding: "utf8" });
    return r.status === 0 ? 1 : 0;
  } finally {
    tmp.remove();
  }
}

type Mix = "balanced" | "golden_heavy" | "failure_heavy";
type Mode = "concurrent" | "sequential" | "concurrent_no_behaviour" | "sequential_no_behaviour" | "cold_concurrent" | "naive"
  | `${Exclude<Mix, "balanced">}_${"concurrent" | "concurrent_first" | "concurrent_no_behaviour"}` | "adversarial_concurrent" | "adversarial_concurrent_first";

/** The adversarial mix's bodies besides the golden one (expected reward 0 each). */
const ADVERSARIAL: Record<string, string> = {
  wrong: "    return None",
  stub: '    raise NotImplementedError("later")',
  frame_read: "    import sys\n    sys._getframe(1)\n    return None",
  expected_literal: String.raw`    import ast, re, traceback
    for fr in reversed(traceback.extract_stack()[:-1]):
        m = re.search(r"==\s*(.+?)\s*$", fr.line or "")
        if m:
            try:
                return ast.literal_eval(m.group(1))
            except Exception:
                pass
    return None`,
};

/** CPU ms of a process itself (/proc/PID/stat utime+stime; its reaped grades are counted from wait4). */
function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The machine's busy CPU so far (ms, every core: /proc/stat's user, nice, system, irq, softirq,
 *  steal): what the phases above miss (the cold runs elsewhere and at home, bwrap, the kernel's
 *  work for them) is in it, and so is anything else running, which the load average tells. */
function machineCpuMs(): number {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  return ((f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + f[7]!) * 1000) / 100;
}

/** CPU per grade of one mode, by phase (ms, means over every round). */
interface ModeCpu {
  grades: number;
  pytest: number;
  behave: number;
  behaveRuns: number;
  zygote: number;
  host: number;
  machine: number;
}

export async function run(): Promise<BenchResult> {
  const sb = new BwrapSandbox("bwrap", { warm: true });
  const { store, pool } = await microRun(sb);
  // No grade cache: every grade of every round is graded (the cache would answer rounds 2+).
  const open = (behaviour: Parameters<typeof FeatureDeletionEnvironment.open>[0]["behaviour"], sandbox = sb) => FeatureDeletionEnvironment.open({ sandbox, store, run_id: "bench", pool, cacheGrades: false, behaviour });
  const env = await open(undefined);
  const offEnv = await open({ enabled: false });
  const firstEnv = await open({ order: "first" });
  const coldEnv = await open(undefined, new BwrapSandbox("bwrap", { warm: false }));
  const tasks = readIndex(pool).slice(0, GRADED).map((t) => loadTask(pool, t.task_id));
  // balanced: each task's golden body and a wrong one; the others keep the count (2 per task)
  const mixOf = (mix: Mix) => Array.from({ length: 2 * tasks.length }, (_, i) => {
    const golden = mix === "balanced" ? i % 2 === 0 : mix === "golden_heavy" ? i % 4 !== 3 : i % 4 === 0;
    const task = tasks[mix === "balanced" ? Math.floor(i / 2) : i % tasks.length]!;
    return { task, completion: golden ? goldenBody(task) : "    return None", expected: golden ? 1 : 0 };
  });
  const mixes = { balanced: mixOf("balanced"), golden_heavy: mixOf("golden_heavy"), failure_heavy: mixOf("failure_heavy") };
  const adversarial = tasks.flatMap((task) => [
    { task, completion: goldenBody(task), expected: 1, kind: "golden" },
    ...Object.entries(ADVERSARIAL).map(([kind, completion]) => ({ task, completion, expected: 0, kind })),
  ]);
  const items = mixes.balanced;
  const diffs = items.map((it) => spliceBody(it.task, it.completion).diff);
  const cores = availableParallelism();
  const t = {} as Record<Mode, number[]>;
  const cpu = {} as Record<Mode, ModeCpu>;
  const load: number[] = [];
  let stallMs = 0;
  await gradeAll(env, items.slice(0, 2), 1); // start the zygotes, stage the harness, warm the AST helper
  await gradeAll(offEnv, items.slice(0, 2), 1);
  await gradeAll(coldEnv, items.slice(0, 2), 1);
  const worker = warmWorkers()[0]!;
  const zygoteCpu = async () => procCpuMs(await worker.zygotePid("pytest")) + procCpuMs(await worker.zygotePid("behave"));
  // issue 26 §5: hacks per 100 of the warm grades with the check on (flagged grades, rewards on canaries)
  const hackFlags: boolean[] = [];
  // per mode, every grade's hacked verdict and reward (the adversarial mix compares the two orders item by item)
  const verdicts = {} as Record<Mode, { hack: boolean; reward: number }[][]>;
  const why = (g: EnvGrade | undefined) => (g ? `; components ${JSON.stringify(g.components)}, error ${(g.error?.error_message ?? "").slice(0, 2000)}` : "");
  /** Grades `list` on `e` with `conc` in flight, timed: grades/s and CPU per grade by phase. */
  const phase = async (mode: Mode, e: FeatureDeletionEnvironment, list: typeof items, conc: number, opts: { stall?: boolean; hacks?: boolean } = {}) => {
    // the last timing before the phase (by identity: a worker drops its oldest 500 past 1,000, which
    // would shift an index and lose most of a phase's timings)
    const marks = warmWorkers().map((w) => [w, w.timings[w.timings.length - 1]] as const);
    const stall = opts.stall ? monitorEventLoopDelay({ resolution: 10 }) : null; // a fresh one per phase: a re-enabled histogram counts the gap
    stall?.enable();
    const z0 = await zygoteCpu();
    const c0 = process.cpuUsage();
    const m0 = machineCpuMs();
    const t0 = performance.now();
    const grades = await gradeAll(e, list, conc);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const m = machineCpuMs() - m0;
    const z1 = await zygoteCpu();
    stall?.disable();
    if (stall) stallMs = Math.max(stallMs, stall.max / 1e6);
    if (opts.hacks) hackFlags.push(...grades.map(gradeIsHack));
    (verdicts[mode] ??= []).push(grades.map((g) => ({ hack: gradeIsHack(g), reward: g.reward })));
    // Containment and grading unchanged: the golden bodies pass and the wrong ones fail, in every mode.
    const bad = grades.findIndex((g, i) => g.reward !== list[i]!.expected);
    if (bad >= 0) throw new Error(`${mode}: ${list[bad]!.task.task_id} graded ${grades[bad]!.reward} (expected ${list[bad]!.expected})${why(grades[bad])}`);
    (t[mode] ??= []).push(list.length / (wall / 1000));
    const timed = marks.flatMap(([w, last]) => w.timings.slice(last ? w.timings.lastIndexOf(last) + 1 : 0));
    const sum = (kind: WarmTimings["kind"]) => timed.filter((x) => x.kind === kind).reduce((n, x) => n + x.gradeCpu, 0);
    const acc = (cpu[mode] ??= { grades: 0, pytest: 0, behave: 0, behaveRuns: 0, zygote: 0, host: 0, machine: 0 });
    acc.grades += list.length;
    acc.pytest += sum("pytest");
    acc.behave += sum("behave");
    acc.behaveRuns += timed.filter((x) => x.kind === "behave").length;
    acc.zygote += Math.max(0, z1 - z0);
    acc.host += (c.user + c.system) / 1000;
    acc.machine += m;
  };
  for (let round = 0; round < ROUNDS; round++) {
    load.push(loadavg()[0]!);
    await phase("concurrent", env, items, CONCURRENCY, { stall: true, hacks: true });
    await phase("sequential", env, items, 1);
    await phase("concurrent_no_behaviour", offEnv, items, CONCURRENCY);
    await phase("sequential_no_behaviour", offEnv, items, 1);
    for (const mix of ["golden_heavy", "failure_heavy"] as const) {
      await phase(`${mix}_concurrent`, env, mixes[mix], CONCURRENCY, { hacks: true });
      await phase(`${mix}_concurrent_first`, firstEnv, mixes[mix], CONCURRENCY, { hacks: true });
      await phase(`${mix}_concurrent_no_behaviour`, offEnv, mixes[mix], CONCURRENCY);
    }
    await phase("adversarial_concurrent", env, adversarial, CONCURRENCY);
    await phase("adversarial_concurrent_first", firstEnv, adversarial, CONCURRENCY);
    await phase("cold_concurrent", coldEnv, items, CONCURRENCY);
    const t0 = performance.now();
    const naive = items.map((it, i) => naiveGrade(it.task, diffs[i]!));
    (t.naive ??= []).push(items.length / ((performance.now() - t0) / 1000));
    const badNaive = naive.findIndex((r, i) => r !== items[i]!.expected);
    if (badNaive >= 0) throw new Error(`naive: ${items[badNaive]!.task.task_id} graded ${naive[badNaive]} (expected ${items[badNaive]!.expected})`);
    load.push(loadavg()[0]!);
    process.stderr.write(`bench grade: round ${round + 1}/${ROUNDS}\n`);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, med(v)])) as Record<Mode, number>;
  const r1 = (x: number) => Number(x.toFixed(1));
  const r2 = (x: number) => Number(x.toFixed(2));
  /** CPU per grade by phase (ms): pytest grades, behaviour runs, zygotes, this process; and their sum. */
  const perGrade = (m: Mode) => {
    const c = cpu[m];
    if (!c) return null;
    const g = Math.max(1, c.grades);
    const x = { pytest_cpu_ms: r1(c.pytest / g), behave_cpu_ms: r1(c.behave / g), zygote_cpu_ms: r1(c.zygote / g), host_cpu_ms: r1(c.host / g), behave_runs_per_grade: r2(c.behaveRuns / g) };
    return { ...x, cpu_ms_per_grade: r1(x.pytest_cpu_ms + x.behave_cpu_ms + x.zygote_cpu_ms + x.host_cpu_ms), machine_cpu_ms_per_grade: r1(c.machine / g) };
  };
  // Where a warm grade's time went (the balanced concurrent grades with the check on, per run kind).
  const bal = perGrade("concurrent")!;
  const added = (on: Mode, off: Mode) => r2(rate[off] / rate[on] - 1);
  /** Flagged grades per 100 of a mode, over every round. */
  const hackRate = (m: Mode) => {
    const v = (verdicts[m] ?? []).flat();
    return v.length ? r2((100 * v.filter((x) => x.hack).length) / v.length) : 0;
  };
  // adversarial items whose reward or hacked verdict differ between the orders (same round, same item)
  const advPar = verdicts.adversarial_concurrent ?? [];
  const advFirst = verdicts.adversarial_concurrent_first ?? [];
  const differs = advPar.flatMap((round, r) => round.flatMap((x, i) => {
    const y = advFirst[r]?.[i];
    return y && (y.hack !== x.hack || y.reward !== x.reward) ? [`${adversarial[i]!.task.task_id}/${adversarial[i]!.kind}: parallel ${x.reward}${x.hack ? " hacked" : ""}, first ${y.reward}${y.hack ? " hacked" : ""}`] : [];
  }));
  const ratios: Record<string, number> = {
    grades_per_s: r2(rate.concurrent),
    concurrent_over_naive: r2(rate.concurrent / rate.naive),
    sequential_over_naive: r2(rate.sequential / rate.naive),
    warm_over_cold: r2(rate.concurrent / rate.cold_concurrent),
    // the behavioural check's added wall time per grade (goal ≤ 20%)
    behaviour_added_concurrent: added("concurrent", "concurrent_no_behaviour"),
    behaviour_added_sequential: added("sequential", "sequential_no_behaviour"),
    behaviour_ms_per_grade_sequential: r2(1000 / rate.sequential - 1000 / rate.sequential_no_behaviour),
    golden_heavy_grades_per_s: r2(rate.golden_heavy_concurrent),
    golden_heavy_first_grades_per_s: r2(rate.golden_heavy_concurrent_first),
    golden_heavy_no_behaviour_grades_per_s: r2(rate.golden_heavy_concurrent_no_behaviour),
    golden_heavy_behaviour_added: added("golden_heavy_concurrent", "golden_heavy_concurrent_no_behaviour"),
    failure_heavy_grades_per_s: r2(rate.failure_heavy_concurrent),
    failure_heavy_first_grades_per_s: r2(rate.failure_heavy_concurrent_first),
    failure_heavy_no_behaviour_grades_per_s: r2(rate.failure_heavy_concurrent_no_behaviour),
    failure_heavy_behaviour_added: added("failure_heavy_concurrent", "failure_heavy_concurrent_no_behaviour"),
    adversarial_grades_per_s: r2(rate.adversarial_concurrent),
    adversarial_first_grades_per_s: r2(rate.adversarial_concurrent_first),
    // issue 26 §5 on the same items in the same rounds: the hack rate with the check beside pytest and first
    adversarial_hack_rate: hackRate("adversarial_concurrent"),
    adversarial_hack_rate_first: hackRate("adversarial_concurrent_first"),
    adversarial_differs: differs.length,
    failure_heavy_hack_rate: hackRate("failure_heavy_concurrent"),
    failure_heavy_hack_rate_first: hackRate("failure_heavy_concurrent_first"),
    golden_heavy_hack_rate: hackRate("golden_heavy_concurrent"),
    golden_heavy_hack_rate_first: hackRate("golden_heavy_concurrent_first"),
    cores,
    concurrency: CONCURRENCY,
    load_avg_1m: r2(med(load)),
    load_avg_1m_max: r2(Math.max(...load)),
    event_loop_max_stall_ms: r2(stallMs),
    hack_rate: hackFlags.length ? r2((100 * hackFlags.filter(Boolean).length) / hackFlags.length) : 0,
    // CPU per balanced grade with the check on, by phase (grade_cpu_ms: the pytest and behaviour runs' processes)
    grade_cpu_ms: r1(bal.pytest_cpu_ms + bal.behave_cpu_ms),
    pytest_cpu_ms: bal.pytest_cpu_ms,
    behave_cpu_ms: bal.behave_cpu_ms,
    zygote_cpu_ms: bal.zygote_cpu_ms,
    host_cpu_ms_per_grade: bal.host_cpu_ms,
    cpu_ms_per_grade: bal.cpu_ms_per_grade,
    cpu_ms_per_grade_no_behaviour: perGrade("concurrent_no_behaviour")!.cpu_ms_per_grade,
    // everything a grade cost the machine (the cold runs elsewhere and at home included), with and without the check
    machine_cpu_ms_per_grade: bal.machine_cpu_ms_per_grade,
    machine_cpu_ms_per_grade_no_behaviour: perGrade("concurrent_no_behaviour")!.machine_cpu_ms_per_grade,
    golden_heavy_machine_cpu_ms_per_grade: perGrade("golden_heavy_concurrent")!.machine_cpu_ms_per_grade,
    golden_heavy_machine_cpu_ms_per_grade_no_behaviour: perGrade("golden_heavy_concurrent_no_behaviour")!.machine_cpu_ms_per_grade,
  };
  const f2 = (m: Mode) => rate[m].toFixed(2);
  return {
    summary: `${items.length} grades × ${ROUNDS} rounds on ${tasks.length} micro tasks, ${cores} cores, load ${ratios.load_avg_1m} (max ${ratios.load_avg_1m_max}): warm grader (bwrap + forked harness + forked behavioural runner + monitor) ${f2("concurrent")} grades/s with ${CONCURRENCY} in flight (goal ≥ 20), ${f2("sequential")} one at a time; behavioural check off: ${f2("concurrent_no_behaviour")} concurrent, ${f2("sequential_no_behaviour")} one at a time (the check adds ${(ratios.behaviour_added_concurrent! * 100).toFixed(0)}% / ${(ratios.behaviour_added_sequential! * 100).toFixed(0)}%, goal ≤ 20%); golden-heavy (3:1) ${f2("golden_heavy_concurrent")} with the check, ${f2("golden_heavy_concurrent_first")} check first, ${f2("golden_heavy_concurrent_no_behaviour")} without; failure-heavy (1:3) ${f2("failure_heavy_concurrent")} / ${f2("failure_heavy_concurrent_first")} / ${f2("failure_heavy_concurrent_no_behaviour")}; cold (one bwrap + interpreter per grade) ${f2("cold_concurrent")}; naive /usr/bin/python3 -m pytest per grade (no sandbox) ${f2("naive")}; CPU per warm grade ${bal.cpu_ms_per_grade} ms (pytest ${bal.pytest_cpu_ms}, behaviour ${bal.behave_cpu_ms}, zygotes ${bal.zygote_cpu_ms}, host ${bal.host_cpu_ms}) vs ${ratios.cpu_ms_per_grade_no_behaviour} ms without the check; the machine's CPU per grade (cold runs included) ${ratios.machine_cpu_ms_per_grade} vs ${ratios.machine_cpu_ms_per_grade_no_behaviour} ms, golden-heavy ${ratios.golden_heavy_machine_cpu_ms_per_grade} vs ${ratios.golden_heavy_machine_cpu_ms_per_grade_no_behaviour} ms; event loop's longest stall ${ratios.event_loop_max_stall_ms} ms; hack rate ${ratios.hack_rate} per 100 grades (flagged grades and canary passes); adversarial mix (golden, wrong, stub, frame read, expected literal read off the stack) ${f2("adversarial_concurrent")} grades/s beside pytest, ${f2("adversarial_concurrent_first")} check first, hack rate ${ratios.adversarial_hack_rate} vs ${ratios.adversarial_hack_rate_first}, ${differs.length} item(s) whose reward or hacked verdict differ between the orders${differs.length ? ` (${differs.slice(0, 5).join("; ")})` : ""}`,
    rows: (Object.entries(t) as [Mode, number[]][]).map(([mode, v]) => ({ mode, median_grades_per_s: r2(med(v)), min: r2(Math.min(...v)), max: r2(Math.max(...v)), grades: items.length, rounds: v.length, ...(perGrade(mode) ?? {}) })),
    ratios,
  };
}
