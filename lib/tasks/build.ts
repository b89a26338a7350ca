/**
 * The feature-deletion task builder. Three ways to make a (broken repo, tests, golden diff) tuple:
 *  - Path B (ast): per-test coverage maps tests → lines; candidates are functions / classes / files
 *    covered by few tests (selective), deleted by editing the syntax tree;
 *  - Path A (git): a commit that adds code and tests: revert the code, keep the tests;
 *  - Path A (swe): SWE-bench-style instances over a local checkout: broken = base + test_patch,
 *    golden = patch.
 * Every candidate passes the four validation gates of the seed's §5c in the sandbox before it is
 * emitted (1 baseline passes, 2 deletion breaks the targets, 3 the rest still passes, 4 the golden
 * diff restores green); rejections are counted per gate. Builds run in parallel, show progress,
 * and resume: validated and rejected candidates are not redone, and a task appears whole or not at all.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import pLimit from "p-limit";
import { z } from "zod";
import { progress } from "../core/index.js";
import { ensurePyEnv, gradeSuite, masksFor, projectNames, PyEnv, RepoLayout, repoLayout, runPytest, scanMasks, type CoverageMap, type MaskPlan, type PytestRun, type Sandbox } from "../sandbox/index.js";
import { type DeleteOptions } from "./delete.js";
import { deleteInto } from "./deletion.js";
import { GATE_OF, GateFailure, type Gate } from "./gates.js";
import { GRANULARITIES, slug, type Candidate, type SelectContext } from "./granularity/index.js";
import { pyFiles, sourceFiles } from "./repo_files.js";
import { applyUnifiedDiff, fileDiff } from "./diffs.js";
import { detectLicense } from "./license.js";
import { addToPool, readIndex, taskRepoDir } from "./pool.js";
import { pythonFacts } from "./pyast.js";
import { FeatureDeletionTask, Granularity } from "./schema.js";
import { buildOracle, writeOracle, type Oracle } from "./oracle.js";
import { MutationOptions, mutationGate, uncheckedSymbols, type MutationReport } from "./mutants.js";
import { scrub, stripBundledDeps } from "./scrub.js";

export const BuildOptions = z.object({
  path: z.enum(["ast", "git", "swe"]).default("ast"),
  granularity: Granularity.default("function"),
  /** Stop after this many validated tasks (this run). */
  max: z.number().int().positive().default(20),
  /** Escalation: how the feature is deleted. */
  mode: z.enum(["stub", "remove"]).default("stub"),
  /** Escalation (starvation): strip docstrings / type hints of the deleted code. */
  strip_docstring: z.boolean().default(false),
  strip_type_hints: z.boolean().default(false),
  /** Escalation (starvation of the context): strip these from every file the deletion touches. */
  starve_context: z.array(z.enum(["docstrings", "type_hints", "comments"])).default([]),
  /** Scrub: also remove bundled copies of the project (venvs, site-packages, wheels, vendored copies). */
  strip_bundled: z.boolean().default(true),
  /** Make the repo's own Python environment (venv, editable install) and test in it (true), use the
   *  system Python (false), or this environment. */
  pyenv: z.union([z.boolean(), PyEnv]).default(true),
  /** Where the project's code lives, when detection (repoLayout) gets it wrong. */
  layout: RepoLayout.optional(),
  /** Install the project's requirements and test extras into that environment (needs a package index). */
  deps: z.boolean().default(false),
  /** Escalation: added to every emitted task's difficulty prior, and the knobs that made it harder. */
  difficulty_bonus: z.number().min(0).max(1).default(0),
  escalation: z.array(z.string()).default([]),
  /** Appended to every candidate id (variants of one repo in one pool). */
  id_suffix: z.string().regex(/^[\w.-]*$/).default(""),
  /** Escalation (multi-feature): independent deletions per task. */
  features: z.number().int().positive().default(1),
  /** Escalation (coupling): the largest share of the suite that may touch a candidate. */
  max_coupling: z.number().min(0).max(1).default(0.5),
  /** Escalation (span): the smallest and largest deleted body, in lines. */
  min_lines: z.number().int().min(1).default(2),
  max_lines: z.number().int().positive().default(200),
  concurrency: z.number().int().positive().default(2),
  /** Run only the tests each gate needs (sound for stubs: untouched tests cannot see a stubbed body). */
  selective: z.boolean().default(true),
  repo_name: z.string().optional(),
  timeoutMs: z.number().int().positive().default(600_000),
  /** Path A (git): how many commits back to look. */
  max_commits: z.number().int().positive().default(200),
  /** Record each emitted task's behavioural oracle (<pool>/oracle/<id>.json; oracle.ts). */
  oracle: z.boolean().default(true),
  /** The mutation gate (mutants.ts) for the symbols the oracle does not check. */
  mutation: MutationOptions.default({}),
});
export type BuildOptions = z.input<typeof BuildOptions>;

export interface BuildReport {
  candidates: number;
  validated: number;
  /** Validated in an earlier (interrupted) run and not redone. */
  resumed: number;
  rejected: Record<Gate, number>;
  rejections: { id: string; gate: Gate; reason: string }[];
  /** Candidates that hit an infrastructure error (not a gate): retried by the next run. */
  errors: { id: string; error: string }[];
  testRuns: { invocations: number; tests: number; suite_size: number; suite_equivalents: number; per_validated_task: number | null };
  seconds: number;
  tasks: string[];
  /** Path B: the repo's layout and Python environment, and what the run changed about its pytest config. */
  environment?: { layout: RepoLayout; pyenv: PyEnv | null; notes: string[]; bundled_removed: string[] };
  /** Path B: symbols of the chosen granularity, and how many each filter dropped. */
  funnel?: Record<string, number>;
  /** Why there are no candidates, per cause (empty when there are some). */
  why_no_candidates?: { cause: "no_tests" | "all_tests_failing" | "no_coverage" | "nothing_deletable" | "uncovered" | "too_coupled" | "span"; detail: string }[];
}

/** A prepared candidate: the repo before and after, and what was deleted. */
interface Prepared {
  id: string;
  original: string;
  broken: string;
  golden: string;
  deleted_symbols: { file: string; qualname: string }[];
  granularity: z.infer<typeof Granularity>;
  base_commit: string;
  description: string;
  /** Tests that may be affected (covering tests), when selection is sound. */
  affected?: string[];
  /** Known targets/guards (Path A swe): validated rather than discovered. */
  known?: { fail_to_pass: string[]; pass_to_pass: string[] };
  /** Run these tests (by id) at gates 2–3 instead of the affected ones (deletions whose reach is not
   *  line coverage: a deleted module breaks its importers at collection). */
  runAll?: string[];
}

class Counter {
  invocations = 0;
  tests = 0;
  add(r: PytestRun) {
    this.invocations++;
    this.tests += r.tests.length;
    return r;
  }
}

const failing = (r: PytestRun) => new Set(r.tests.filter((t) => t.outcome === "failed" || t.outcome === "error").map((t) => t.nodeid));
const passing = (r: PytestRun) => new Set(r.tests.filter((t) => t.outcome === "passed").map((t) => t.nodeid));

/** Runs gates 2–4 on a prepared candidate against the baseline (gate 1 has been checked). */
async function runGates(p: Prepared, baseline: PytestRun, sandbox: Sandbox, counter: Counter, opts: { selective: boolean; timeoutMs: number; py?: { layout?: RepoLayout | null; pyenv?: PyEnv | null } }): Promise<{ fail_to_pass: string[]; pass_to_pass: string[]; mask: MaskPlan; check: string[]; graded: (dir: string, tests: string[]) => Promise<PytestRun> }> {
  const basePass = passing(baseline);
  // Gates 2–4 run as grading does (lib/sandbox/grade.ts: a throwaway writable copy, protected files
  // read-only, the project's installed copies masked), so a golden diff accepted here earns 1 there.
  const mask = await scanMasks(sandbox, p.original, projectNames(p.original), { pyenv: opts.py?.pyenv });
  const graded = (dir: string, t: string[] | undefined) => gradeSuite(sandbox, p.broken, dir, t ?? [], { timeoutMs: opts.timeoutMs, ...opts.py, masks: masksFor(mask, "pytest") });
  if (p.known) {
    const bad = [...p.known.fail_to_pass, ...p.known.pass_to_pass].filter((t) => !basePass.has(t));
    if (bad.length) throw new GateFailure("baseline", `${bad.length} listed tests do not pass on the solved repo (e.g. ${bad[0]})`);
  }
  const tests = p.known ? [...p.known.fail_to_pass, ...p.known.pass_to_pass] : p.runAll ? p.runAll : opts.selective && p.affected ? p.affected : undefined;
  const res = counter.add(await graded(p.broken, tests));
  if (res.collectionErrors.length && !tests) throw new GateFailure("keeps_rest", `collection breaks: ${res.collectionErrors.map((c) => c.nodeid).join(", ")}`);
  const nowFailing = failing(res);
  const ran = new Set(res.tests.map((t) => t.nodeid));
  let fail_to_pass: string[];
  let pass_to_pass: string[];
  if (p.known) {
    fail_to_pass = p.known.fail_to_pass;
    const stillPass = fail_to_pass.filter((t) => !nowFailing.has(t) && ran.has(t));
    if (stillPass.length) throw new GateFailure("breaks_target", `${stillPass.length} FAIL_TO_PASS tests pass without the patch (e.g. ${stillPass[0]})`);
    const broke = p.known.pass_to_pass.filter((t) => !passing(res).has(t));
    if (broke.length) throw new GateFailure("keeps_rest", `${broke.length} PASS_TO_PASS tests fail on the broken repo (e.g. ${broke[0]})`);
    pass_to_pass = p.known.pass_to_pass;
  } else {
    fail_to_pass = [...nowFailing].filter((t) => basePass.has(t)).sort();
    if (fail_to_pass.length === 0) throw new GateFailure("breaks_target", "no test fails after the deletion");
    const affected = new Set(p.affected ?? []);
    const collateral = p.affected ? fail_to_pass.filter((t) => !affected.has(t)) : [];
    if (collateral.length) throw new GateFailure("keeps_rest", `${collateral.length} tests that never ran the deleted code fail (e.g. ${collateral[0]})`);
    const lost = tests ? [] : [...basePass].filter((t) => !ran.has(t));
    if (lost.length) throw new GateFailure("keeps_rest", `${lost.length} tests no longer run (e.g. ${lost[0]})`);
    pass_to_pass = [...basePass].filter((t) => !nowFailing.has(t)).sort();
  }
  // Gate 4: the golden diff restores green (targets, and the affected guards).
  const solved = mkdtempSync(join(tmpdir(), "composer-lab-solved-"));
  const check = p.known ? [...fail_to_pass, ...pass_to_pass] : [...new Set([...fail_to_pass, ...(p.affected ?? fail_to_pass)])];
  try {
    cpSync(p.broken, solved, { recursive: true });
    applyUnifiedDiff(solved, p.golden);
    const fixed = counter.add(await graded(solved, check));
    const notFixed = check.filter((t) => !passing(fixed).has(t));
    if (notFixed.length) throw new GateFailure("solvable", `the golden diff leaves ${notFixed.length} tests failing (e.g. ${notFixed[0]})`);
  } finally {
    rmSync(solved, { recursive: true, force: true });
  }
  return { fail_to_pass, pass_to_pass, mask, check, graded: async (dir, t) => counter.add(await graded(dir, t)) };
}

/**
 * After gates 1–4: the golden gate on every declared sandbox kind (hooks), the behavioural oracle
 * (never fails a task by itself: a failed build is recorded with its reason), and the mutation gate
 * for the symbols that oracle cannot check (the targets alone then decide the reward).
 */
async function coverageGates(p: Prepared, gates: Awaited<ReturnType<typeof runGates>>, meta: { repo: string; py?: { pyenv?: PyEnv | null } }, sandbox: Sandbox, o: { oracle: boolean; mutation: z.output<typeof MutationOptions>; goldenGate?: BuildHooks["goldenGate"] }): Promise<{ oracle: Oracle | null; mutation: MutationReport | null }> {
  const provisional = FeatureDeletionTask.parse({
    task_id: p.id, repo: meta.repo, base_commit: p.base_commit, broken: { kind: "dir", path: p.broken }, fail_to_pass: gates.fail_to_pass, pass_to_pass: gates.pass_to_pass,
    golden_diff: p.golden, granularity: p.granularity, deleted_symbols: p.deleted_symbols, description: p.description,
    mask: maskRecord(gates.mask),
  });
  if (o.goldenGate) {
    const g = await o.goldenGate(provisional);
    if (!g.ok) throw new GateFailure("solvable", `the golden diff does not earn 1 unflagged on every sandbox kind the pool declares: ${g.why}`);
  }
  const oracle = o.oracle ? await buildOracle(provisional, sandbox, { pyenv: meta.py?.pyenv }) : null;
  if (!o.mutation.enabled) return { oracle, mutation: null };
  const mutation = await mutationGate({ broken: p.broken, golden_diff: p.golden, symbols: uncheckedSymbols(p.deleted_symbols, oracle), fail_to_pass: gates.fail_to_pass, check: gates.check }, gates.graded, o.mutation);
  if (mutation.survivors.length) throw new GateFailure("kills_mutants", `the behavioural check does not cover ${mutation.symbols.join(", ")} and the target tests pass a smaller body: ${mutation.survivors[0]!.what} (${mutation.graded} of ${mutation.mutants} mutants graded)`);
  return { oracle, mutation };
}

/** What a task records of the gates' mask plan (the grader masks the same names on its own kind). */
const maskRecord = (m: MaskPlan) => ({ names: m.names, dists: m.dists, sandbox: m.sandbox, paths: m.entries.map((e) => e.path), unmaskable: m.harness_needs });

/** Writes a validated task into the pool: snapshot (temp + rename), golden diff, index line last. */
function emit(pool: string, p: Prepared, gates: { fail_to_pass: string[]; pass_to_pass: string[]; mask?: MaskPlan }, meta: { repo: string; license: string; difficulty_bonus?: number; escalation?: string[]; mutation?: MutationReport | null }): FeatureDeletionTask {
  const dest = taskRepoDir(pool, p.id);
  const task = FeatureDeletionTask.parse({
    task_id: p.id, repo: meta.repo, base_commit: p.base_commit, broken: { kind: "dir", path: dest },
    fail_to_pass: gates.fail_to_pass, pass_to_pass: gates.pass_to_pass, golden_diff: p.golden, granularity: p.granularity,
    deleted_symbols: p.deleted_symbols, upstream_license: meta.license, description: p.description, escalation: meta.escalation ?? [],
    // what the gates masked (the grader masks the same names on its own sandbox kind)
    ...(gates.mask ? { mask: maskRecord(gates.mask) } : {}),
    ...(meta.mutation ? { mutation: { symbols: meta.mutation.symbols, mutants: meta.mutation.mutants, killed: meta.mutation.killed } } : {}),
    // fewer failing targets and more deleted symbols read as harder
    // (an escalated build adds its bonus: starvation, span and multi-feature knobs)
    difficulty_prior: Math.min(0.95, Math.max(0.05, 0.5 + 0.05 * p.deleted_symbols.length - 0.02 * gates.fail_to_pass.length + (meta.difficulty_bonus ?? 0))),
  });
  rmSync(dest + ".tmp", { recursive: true, force: true });
  mkdirSync(dirname(dest), { recursive: true });
  cpSync(p.broken, dest + ".tmp", { recursive: true });
  scrub(dest + ".tmp");
  rmSync(dest, { recursive: true, force: true });
  renameSync(dest + ".tmp", dest);
  addToPool(pool, task);
  return task;
}

interface StateLine {
  id: string;
  status: "validated" | "rejected";
  gate?: Gate;
  reason?: string;
}

function readState(pool: string): Map<string, StateLine> {
  const f = join(pool, "build-state.jsonl");
  const m = new Map<string, StateLine>();
  if (!existsSync(f)) return m;
  for (const line of readFileSync(f, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const s = JSON.parse(line) as StateLine;
      m.set(s.id, s);
    } catch {
      /* a torn last line from a killed build: ignore it */
    }
  }
  return m;
}

/** What coverage measures: the project's own packages and modules (the layout's), else the repo. */
function coverageSources(layout: RepoLayout): string[] {
  return layout.packages.length ? layout.packages.map((p) => (p.path.endsWith(".py") ? p.name : p.path)) : ["."];
}

/** Path B candidates: covered by ≥ 1 test, chosen for selectivity (few tests touch them). `funnel`
 *  (when given) counts the symbols of the granularity and what each filter dropped. */
export function selectCandidates(repo: string, coverage: CoverageMap, suite: string[], opts: z.output<typeof BuildOptions>, repoSlug: string, funnel: Record<string, number> = {}, layout?: RepoLayout): Candidate[] {
  const files = sourceFiles(repo);
  const facts = pythonFacts(Object.fromEntries(files.map((f) => [f, readFileSync(join(repo, f), "utf8")])));
  const maxTests = Math.max(1, Math.floor(opts.max_coupling * suite.length));
  const testsOf = (file: string, from: number, to: number) => {
    const cov = coverage[file] ?? {};
    const s = new Set<string>();
    for (let l = from; l <= to; l++) for (const t of cov[l] ?? []) s.add(t);
    return [...s];
  };
  const out: Candidate[] = [];
  const strategy = GRANULARITIES[opts.granularity];
  let texts: Record<string, string> | undefined;
  const ctx: SelectContext = { repo, roots: layout?.roots ?? ["."], repoSlug, testsOf, facts, funnel, texts: () => (texts ??= Object.fromEntries(pyFiles(repo).map((x) => [x, readFileSync(join(repo, x), "utf8")]))) };
  for (const file of files) {
    const f = facts[file];
    if (f && !f.error) out.push(...strategy.select(ctx, file, f));
  }
  funnel.symbols = out.length;
  funnel.uncovered = out.filter((c) => c.tests.length === 0).length;
  funnel.too_coupled = out.filter((c) => c.tests.length > maxTests).length;
  const inSpan = (c: Candidate) => c.lines >= opts.min_lines && (c.lines <= opts.max_lines || !strategy.capsSpan);
  funnel.span = out.filter((c) => c.tests.length >= 1 && c.tests.length <= maxTests && !inSpan(c)).length;
  return out
    .filter((c) => c.tests.length >= 1 && c.tests.length <= maxTests && inSpan(c))
    .sort((a, b) => a.tests.length - b.tests.length || a.id.localeCompare(b.id));
}

/** Groups single candidates into multi-feature ones whose test sets are disjoint. */
function groupFeatures(cands: Candidate[], n: number): Candidate[] {
  if (n <= 1) return cands;
  const used = new Set<string>();
  const groups: Candidate[] = [];
  for (const c of cands) {
    if (used.has(c.id)) continue;
    const group = [c];
    const tests = new Set(c.tests);
    for (const d of cands) {
      if (group.length >= n) break;
      if (used.has(d.id) || group.includes(d) || d.tests.some((t) => tests.has(t))) continue;
      group.push(d);
      d.tests.forEach((t) => tests.add(t));
    }
    if (group.length < n) continue;
    group.forEach((g) => used.add(g.id));
    groups.push({ id: `${group[0]!.id}-and-${n - 1}`, file: group.map((g) => g.file).join(","), qualnames: group.flatMap((g) => g.qualnames.map((q) => `${g.file}::${q}`)), tests: [...tests], lines: group.reduce((a, g) => a + g.lines, 0) });
  }
  return groups;
}

export interface BuildHooks {
  log?: (m: string) => void;
  quiet?: boolean;
  /** Called after each candidate (validated or rejected). */
  onCandidate?: (id: string, status: "validated" | "rejected", detail: string) => void;
  /** The golden gate (issue 26 §4): grades the validated task's golden diff on every sandbox kind the
   *  pool declares (`tasks build --sandboxes`; the CLI grades with lib/env); a task enters the pool
   *  only when it earns 1 unflagged on each (else gate 4 rejects it, naming the kind and why). */
  goldenGate?: (task: FeatureDeletionTask) => Promise<{ ok: boolean; why: string }>;
}

/** The shared driver: prepared candidates through the gates, in parallel, resumable. */
async function drive(pool: string, jobs: { id: string; prepare: () => Promise<Prepared> }[], baselineOf: (p: Prepared) => Promise<PytestRun>, sandbox: Sandbox, o: z.output<typeof BuildOptions>, meta: { repo: string; license: string; suite_size: number; py?: { layout?: RepoLayout | null; pyenv?: PyEnv | null } }, counter: Counter, hooks: BuildHooks, t0: number): Promise<BuildReport> {
  mkdirSync(pool, { recursive: true });
  const state = readState(pool);
  const inIndex = new Set(existsSync(join(pool, "index.jsonl")) ? readIndex(pool).map((t) => t.task_id) : []);
  // A snapshot without its index line is a task a killed build left half-written: drop it.
  if (existsSync(join(pool, "tasks"))) for (const d of readdirSync(join(pool, "tasks"))) if (!inIndex.has(d)) rmSync(join(pool, "tasks", d), { recursive: true, force: true });
  const report: BuildReport = { candidates: jobs.length, validated: 0, resumed: 0, rejected: { gate1: 0, gate2: 0, gate3: 0, gate4: 0 }, rejections: [], errors: [], testRuns: { invocations: 0, tests: 0, suite_size: meta.suite_size, suite_equivalents: 0, per_validated_task: null }, seconds: 0, tasks: [] };
  const record = (s: StateLine) => appendFileSync(join(pool, "build-state.jsonl"), JSON.stringify(s) + "\n");
  const todo = jobs.filter((j) => {
    if (inIndex.has(j.id)) {
      report.resumed++;
      report.tasks.push(j.id);
      return false;
    }
    const s = state.get(j.id);
    if (s?.status === "rejected" && s.gate) {
      report.rejected[s.gate]++;
      report.rejections.push({ id: j.id, gate: s.gate, reason: s.reason ?? "" });
      return false;
    }
    return true;
  });
  const bar = progress(todo.length, "tasks", { quiet: hooks.quiet });
  const limit = pLimit(o.concurrency);
  let emitted = report.resumed;
  await Promise.all(
    todo.map((job) =>
      limit(async () => {
        if (emitted >= o.max) return bar.tick(1, `${job.id} skipped (max reached)`);
        let p: Prepared | undefined;
        try {
          p = await job.prepare();
          const baseline = await baselineOf(p);
          const gates = await runGates(p, baseline, sandbox, counter, { selective: o.selective && o.mode === "stub" && o.path === "ast", timeoutMs: o.timeoutMs, py: meta.py });
          const { oracle, mutation } = await coverageGates(p, gates, meta, sandbox, { oracle: o.oracle, mutation: o.mutation, goldenGate: hooks.goldenGate });
          if (emitted >= o.max) return bar.tick(1, `${job.id} skipped (max reached)`);
          emitted++;
          emit(pool, p, gates, { ...meta, difficulty_bonus: o.difficulty_bonus, escalation: o.escalation, mutation });
          if (oracle) writeOracle(pool, oracle);
          record({ id: job.id, status: "validated" });
          report.validated++;
          report.tasks.push(job.id);
          hooks.onCandidate?.(job.id, "validated", `${gates.fail_to_pass.length} FAIL_TO_PASS`);
          bar.tick(1, `${job.id} ok`);
        } catch (e) {
          if (!(e instanceof GateFailure)) {
            report.errors.push({ id: job.id, error: (e as Error).message });
            hooks.onCandidate?.(job.id, "rejected", (e as Error).message);
            return bar.tick(1, `${job.id} error`);
          }
          const gate: Gate = GATE_OF[e.gate];
          const reason = e.message;
          record({ id: job.id, status: "rejected", gate, reason });
          report.rejected[gate]++;
          report.rejections.push({ id: job.id, gate, reason });
          hooks.onCandidate?.(job.id, "rejected", reason);
          bar.tick(1, `${job.id} ${gate}`);
        } finally {
          if (p) for (const d of new Set([p.broken, dirname(p.broken)])) if (d.includes("composer-lab-cand-")) rmSync(d, { recursive: true, force: true });
        }
      }),
    ),
  );
  bar.stop();
  report.testRuns = {
    invocations: counter.invocations, tests: counter.tests, suite_size: meta.suite_size,
    suite_equivalents: meta.suite_size ? Number((counter.tests / meta.suite_size).toFixed(2)) : 0,
    per_validated_task: report.validated ? Number((counter.tests / meta.suite_size / report.validated).toFixed(2)) : null,
  };
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}

/** A scrubbed working copy of a repo at <work>/original (bundled copies of the project stripped too). */
function scrubbedCopy(repo: string, work: string, bundled?: RepoLayout): { original: string; bundledRemoved: string[] } {
  const original = join(work, "original");
  cpSync(repo, original, { recursive: true });
  scrub(original);
  return { original, bundledRemoved: bundled ? stripBundledDeps(original, bundled.packages) : [] };
}

/** Path B: coverage-mapped AST deletion over a Python repo with a pytest suite. */
export async function buildFromRepo(repo: string, pool: string, sandbox: Sandbox, options: BuildOptions = {}, hooks: BuildHooks = {}): Promise<BuildReport> {
  const o = BuildOptions.parse(options);
  const t0 = performance.now();
  const counter = new Counter();
  const work = mkdtempSync(join(tmpdir(), "composer-lab-build-"));
  try {
    const { original, bundledRemoved } = scrubbedCopy(repo, work, o.strip_bundled ? repoLayout(repo) : undefined);
    const layout = o.layout ?? repoLayout(original);
    const pyenv = typeof o.pyenv === "object" ? o.pyenv : o.pyenv ? await ensurePyEnv(original, sandbox, { deps: o.deps, log: hooks.log }) : null;
    const py = { layout, pyenv };
    hooks.log?.(`measuring per-test coverage of ${repo} (${layout.kind} layout: ${layout.packages.map((p) => p.path).join(", ") || "no package found"}; ${pyenv ? `venv ${pyenv.key}, repo ${pyenv.install === "editable" ? "installed editable" : "on a path entry"}` : "system Python"})`);
    const baseline = counter.add(await runPytest(sandbox, original, { coverage: { source: coverageSources(layout) }, timeoutMs: o.timeoutMs, ...py }));
    const lastLine = (baseline.run.stderr.trim().split("\n").pop() ?? "").trim();
    if (baseline.shadowed.length) {
      const s = baseline.shadowed[0]!;
      throw new Error(`${repo}: the tests imported the project module ${s.module} from ${s.file}, not from the repo (${baseline.shadowed.length} such modules) — an installed copy shadows the repo's ${layout.kind} layout (${layout.roots.join(", ")})`);
    }
    if (baseline.tests.length === 0) throw new Error(`${repo}: pytest found no tests (${lastLine})`);
    const basePass = passing(baseline);
    const repoSlug = slug(o.repo_name ?? basename(repo)) + o.id_suffix;
    const funnel: Record<string, number> = {};
    const cands = groupFeatures(selectCandidates(original, baseline.coverage ?? {}, [...basePass], o, repoSlug, funnel, layout), o.features);
    const why: NonNullable<BuildReport["why_no_candidates"]> = [];
    if (cands.length === 0) {
      const covered = Object.values(baseline.coverage ?? {}).some((lines) => Object.values(lines).some((t) => t.length));
      if (basePass.size === 0) why.push({ cause: "all_tests_failing", detail: `none of the ${baseline.tests.length} tests passes on the original (${lastLine})` });
      else if (!covered) why.push({ cause: "no_coverage", detail: `no line of ${coverageSources(layout).join(", ")} was run by a test (coverage measured ${Object.keys(baseline.coverage ?? {}).length} files)` });
      else if (!funnel.symbols) why.push({ cause: "nothing_deletable", detail: `no ${o.granularity}-level symbol with a body in ${sourceFiles(original).length} source files${funnel.no_closure ? ` (${funnel.no_closure} public symbols have no helper only they use)` : ""}` });
      else {
        if (funnel.uncovered) why.push({ cause: "uncovered", detail: `${funnel.uncovered} of ${funnel.symbols} symbols are run by no test` });
        if (funnel.too_coupled) why.push({ cause: "too_coupled", detail: `${funnel.too_coupled} are run by more than ${o.max_coupling} of the suite` });
        if (funnel.span) why.push({ cause: "span", detail: `${funnel.span} are outside ${o.min_lines}–${o.max_lines} lines` });
      }
    }
    const delOpts: DeleteOptions = { mode: o.mode, strip_docstring: o.strip_docstring, strip_type_hints: o.strip_type_hints };
    const allTests = [...basePass].sort();
    const jobs = cands.map((c) => ({
      id: c.id,
      prepare: async (): Promise<Prepared> => {
        const baseFail = c.tests.filter((t) => !basePass.has(t));
        if (baseFail.length) throw new GateFailure("baseline", `${baseFail.length} covering tests fail on the original (e.g. ${baseFail[0]})`);
        const broken = join(mkdtempSync(join(tmpdir(), "composer-lab-cand-")), "repo");
        cpSync(original, broken, { recursive: true });
        const deleted = c.qualnames.map((q) => (q.includes("::") ? { file: q.split("::")[0]!, qualname: q.split("::")[1]! } : { file: c.file, qualname: q }));
        const strategy = GRANULARITIES[o.granularity];
        const d = strategy.delete({ original, broken, layout, delete: delOpts, starve: o.starve_context, allTests }, c, deleted);
        return {
          id: c.id, original, broken, golden: d.golden, deleted_symbols: deleted, granularity: o.granularity, base_commit: "working-tree",
          description: strategy.describe(c, deleted), affected: d.affected ?? c.tests, runAll: o.starve_context.length ? allTests : d.runAll,
        };
      },
    }));
    const report = await drive(pool, jobs, async () => baseline, sandbox, o, { repo: o.repo_name ?? basename(repo), license: detectLicense(repo), suite_size: baseline.tests.length, py }, counter, hooks, t0);
    return { ...report, environment: { layout, pyenv, notes: baseline.notes, bundled_removed: bundledRemoved }, funnel, why_no_candidates: why };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Explicit deletions (a chosen symbol list) through the same gates: one task or a GateFailure. */
export async function buildDeletionTask(sourceRepo: string, pool: string, spec: { task_id: string; repo: string; deletions: { file: string; qualname: string }[]; description?: string; upstream_license?: string } & DeleteOptions, sandbox: Sandbox): Promise<FeatureDeletionTask> {
  const counter = new Counter();
  const work = mkdtempSync(join(tmpdir(), "composer-lab-build-"));
  try {
    const { original } = scrubbedCopy(sourceRepo, work);
    const baseline = counter.add(await runPytest(sandbox, original));
    if (baseline.tests.length === 0 || failing(baseline).size || baseline.collectionErrors.length) throw new GateFailure("baseline", `the original suite does not pass (${failing(baseline).size} failing, ${baseline.collectionErrors.length} collection errors, ${baseline.tests.length} tests)`);
    const broken = join(work, "broken");
    cpSync(original, broken, { recursive: true });
    const golden = deleteInto(original, broken, spec.deletions, spec);
    const p: Prepared = { id: spec.task_id, original, broken, golden, deleted_symbols: spec.deletions, granularity: "function", base_commit: "working-tree", description: spec.description ?? "" };
    const gates = await runGates(p, baseline, sandbox, counter, { selective: false, timeoutMs: 600_000 });
    const { oracle, mutation } = await coverageGates(p, gates, { repo: spec.repo }, sandbox, { oracle: true, mutation: MutationOptions.parse({}) });
    mkdirSync(pool, { recursive: true });
    const task = emit(pool, p, gates, { repo: spec.repo, license: spec.upstream_license ?? detectLicense(sourceRepo), mutation });
    if (oracle) writeOracle(pool, oracle);
    return task;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const git = (repo: string, args: string[]): string => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
const isTestFile = (f: string) => /(^|\/)(tests?|testing)\/|(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/.test(f);

/** Extracts a commit's tree into `dest` (host-side git on a local, trusted checkout). */
function extractCommit(repo: string, commit: string, dest: string): void {
  mkdirSync(dest, { recursive: true });
  const tar = execFileSync("git", ["-C", repo, "archive", "--format=tar", commit], { maxBuffer: 1024 * 1024 * 1024 });
  execFileSync("tar", ["-x", "-C", dest], { input: tar });
}

/**
 * The symbols a golden patch defines or changes (Path A has no deletion list of its own): every
 * function, method or class of the patched non-test Python files whose source differs between the
 * broken and the original tree, so the hack monitor checks them as it does Path B's deletions.
 */
export function symbolsChangedBy(broken: string, original: string, files: string[]): { file: string; qualname: string }[] {
  const py = files.filter((f) => f.endsWith(".py") && !isTestFile(f));
  const read = (root: string, f: string) => (existsSync(join(root, f)) ? readFileSync(join(root, f), "utf8") : "");
  const facts = pythonFacts(Object.fromEntries(py.flatMap((f) => [[`b:${f}`, read(broken, f)], [`o:${f}`, read(original, f)]])));
  const out: { file: string; qualname: string }[] = [];
  for (const f of py) {
    const before = new Map((facts[`b:${f}`]?.symbols ?? []).map((s) => [s.qualname, s.source]));
    for (const s of facts[`o:${f}`]?.symbols ?? []) if (before.get(s.qualname) !== s.source) out.push({ file: f, qualname: s.qualname });
  }
  // A changed method changes its class's source too: keep the innermost symbols only.
  return out.filter((s) => !out.some((t) => t !== s && t.file === s.file && t.qualname.startsWith(`${s.qualname}.`)));
}

/** Path A (git): commits that add code and tests → revert the code, keep the tests. */
export async function buildFromGitHistory(repo: string, pool: string, sandbox: Sandbox, options: BuildOptions = {}, hooks: BuildHooks = {}): Promise<BuildReport> {
  const o = BuildOptions.parse({ ...options, path: "git" });
  const t0 = performance.now();
  const counter = new Counter();
  const repoSlug = slug(o.repo_name ?? basename(repo));
  const commits = git(repo, ["log", "--format=%H %P", `-n${o.max_commits}`]).trim().split("\n").map((l) => l.split(" ")).filter((p) => p.length === 2) as [string, string][];
  const baselines = new Map<string, Promise<PytestRun>>();
  let suiteSize = 0;
  const jobs = commits.flatMap(([commit, parent]) => {
    const changed = git(repo, ["diff", "--name-status", parent, commit]).trim().split("\n").filter(Boolean).map((l) => l.split("\t") as [string, string]);
    const code = changed.filter(([st, f]) => f.endsWith(".py") && !isTestFile(f) && /^[AM]/.test(st)).map(([st, f]) => ({ added: st.startsWith("A"), file: f }));
    const tests = changed.filter(([, f]) => isTestFile(f));
    if (code.length === 0 || tests.length === 0) return [];
    return [{
      id: `${repoSlug}-commit-${commit.slice(0, 10)}`,
      prepare: async (): Promise<Prepared> => {
        const dir = mkdtempSync(join(tmpdir(), "composer-lab-cand-"));
        const original = join(dir, "original");
        extractCommit(repo, commit, original);
        scrub(original);
        const broken = join(dir, "repo");
        cpSync(original, broken, { recursive: true });
        const diffs: string[] = [];
        for (const c of code) {
          const after = readFileSync(join(original, c.file), "utf8");
          const before = c.added ? "" : git(repo, ["show", `${parent}:${c.file}`]);
          if (c.added) rmSync(join(broken, c.file));
          else writeFileSync(join(broken, c.file), before);
          diffs.push(c.added ? fileDiff(c.file, "", after).replace(`--- a/${c.file}`, "--- /dev/null") : fileDiff(c.file, before, after));
        }
        const deleted_symbols = symbolsChangedBy(broken, original, code.map((c) => c.file));
        return { id: `${repoSlug}-commit-${commit.slice(0, 10)}`, original, broken, golden: diffs.join(""), deleted_symbols, granularity: "file", base_commit: commit, description: git(repo, ["log", "-1", "--format=%s", commit]).trim() };
      },
    }];
  });
  const baselineOf = (p: Prepared) => {
    if (!baselines.has(p.original)) baselines.set(p.original, runPytest(sandbox, p.original, { timeoutMs: o.timeoutMs }).then((r) => { suiteSize = Math.max(suiteSize, r.tests.length); return counter.add(r); }));
    return baselines.get(p.original)!;
  };
  const report = await drive(pool, jobs, baselineOf, sandbox, o, { repo: o.repo_name ?? basename(repo), license: detectLicense(repo), suite_size: 0 }, counter, hooks, t0);
  report.testRuns.suite_size = suiteSize;
  report.testRuns.suite_equivalents = suiteSize ? Number((counter.tests / suiteSize).toFixed(2)) : 0;
  report.testRuns.per_validated_task = report.validated && suiteSize ? Number((counter.tests / suiteSize / report.validated).toFixed(2)) : null;
  return report;
}

/** SWE-bench's instance columns (lists may come JSON-encoded as strings). */
export const SweInstance = z.object({
  instance_id: z.string(),
  repo: z.string(),
  base_commit: z.string(),
  patch: z.string(),
  test_patch: z.string(),
  FAIL_TO_PASS: z.union([z.array(z.string()), z.string().transform((s) => JSON.parse(s) as string[])]),
  PASS_TO_PASS: z.union([z.array(z.string()), z.string().transform((s) => JSON.parse(s) as string[])]),
  problem_statement: z.string().optional(),
});
export type SweInstance = z.infer<typeof SweInstance>;

/** Reads instances from JSON (an array) or JSONL, naming the line of a bad one. */
export function readSweInstances(file: string): SweInstance[] {
  const text = readFileSync(file, "utf8").trim();
  const rows: { v: unknown; line: number }[] = text.startsWith("[") ? (JSON.parse(text) as unknown[]).map((v, i) => ({ v, line: i + 1 })) : text.split("\n").filter((l) => l.trim()).map((l, i) => ({ v: JSON.parse(l), line: i + 1 }));
  return rows.map(({ v, line }) => {
    const r = SweInstance.safeParse(v);
    if (!r.success) throw new Error(`${file}:${line}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
    return r.data;
  });
}

/** Path A (swe): SWE-bench-style instances over a local checkout of their repo. */
export async function buildFromSweInstances(instancesFile: string, checkout: string, pool: string, sandbox: Sandbox, options: BuildOptions = {}, hooks: BuildHooks = {}): Promise<BuildReport> {
  const o = BuildOptions.parse({ ...options, path: "swe" });
  const t0 = performance.now();
  const counter = new Counter();
  const instances = readSweInstances(instancesFile);
  const baselines = new Map<string, Promise<PytestRun>>();
  const jobs = instances.map((inst) => ({
    id: slug(inst.instance_id),
    prepare: async (): Promise<Prepared> => {
      const dir = mkdtempSync(join(tmpdir(), "composer-lab-cand-"));
      const original = join(dir, "original");
      extractCommit(checkout, inst.base_commit, original);
      applyUnifiedDiff(original, inst.test_patch);
      const broken = join(dir, "repo");
      cpSync(original, broken, { recursive: true });
      const patched = applyUnifiedDiff(original, inst.patch);
      scrub(original);
      scrub(broken);
      return {
        id: slug(inst.instance_id), original, broken, golden: inst.patch, deleted_symbols: symbolsChangedBy(broken, original, patched.files.map((f) => f.path)), granularity: "feature", base_commit: inst.base_commit,
        description: inst.problem_statement ?? "", known: { fail_to_pass: inst.FAIL_TO_PASS, pass_to_pass: inst.PASS_TO_PASS },
      };
    },
  }));
  const baselineOf = (p: Prepared) => {
    if (!baselines.has(p.original)) baselines.set(p.original, runPytest(sandbox, p.original, { tests: [...p.known!.fail_to_pass, ...p.known!.pass_to_pass], timeoutMs: o.timeoutMs }).then((r) => counter.add(r)));
    return baselines.get(p.original)!;
  };
  const size = Math.max(1, ...instances.map((i) => i.FAIL_TO_PASS.length + i.PASS_TO_PASS.length));
  return drive(pool, jobs, baselineOf, sandbox, o, { repo: instances[0]?.repo ?? basename(checkout), license: detectLicense(checkout), suite_size: size }, counter, hooks, t0);
}
