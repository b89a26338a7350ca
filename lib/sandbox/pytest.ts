/**
 * The ONE place that knows how to run a pytest suite in a sandbox and read its results: a small
 * plugin writes one JSON line per test report to a results directory bound into the sandbox;
 * collection errors do not abort the run (--continue-on-collection-errors).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { projectRoot } from "../core/index.js";
import type { RunOptions, RunResult, Sandbox } from "./types.js";

export const TestOutcome = z.enum(["passed", "failed", "error", "skipped", "xfailed", "xpassed"]);
export type TestOutcome = z.infer<typeof TestOutcome>;

export const TestResult = z.object({
  nodeid: z.string(),
  outcome: TestOutcome,
  /** Where it was decided: collect, setup, call, teardown. */
  phase: z.string(),
  duration: z.number(),
  message: z.string().nullable(),
});
export type TestResult = z.infer<typeof TestResult>;

export interface PytestRun {
  tests: TestResult[];
  collectionErrors: { nodeid: string; message: string | null }[];
  counts: Record<TestOutcome, number>;
  /** pytest's exit status as the plugin saw it (null when pytest never finished). */
  exitstatus: number | null;
  run: RunResult;
  /** Present when coverage was asked for. */
  coverage?: CoverageMap;
  /** Result lines whose signature did not verify (written by code under test, not the plugin). */
  forged: number;
}

interface Line {
  nodeid: string;
  phase: string;
  outcome: string;
  duration?: number;
  wasxfail?: boolean;
  longrepr?: string | null;
  exitstatus?: number;
}

/** Folds per-phase reports into one outcome per test, by pytest's own rules: a failing setup is
 *  an error, a skipped setup a skip (or xfail), the call decides otherwise (xfail/xpass from
 *  `wasxfail`), and a failing teardown turns the test into an error. */
export function foldReports(lines: Line[]): { tests: TestResult[]; collectionErrors: PytestRun["collectionErrors"]; exitstatus: number | null } {
  const byTest = new Map<string, Partial<Record<"setup" | "call" | "teardown", Line>>>();
  const collectionErrors: PytestRun["collectionErrors"] = [];
  let exitstatus: number | null = null;
  for (const l of lines) {
    if (l.phase === "session") exitstatus = l.exitstatus ?? null;
    else if (l.phase === "collect") collectionErrors.push({ nodeid: l.nodeid, message: l.longrepr ?? null });
    else if (l.phase === "setup" || l.phase === "call" || l.phase === "teardown") {
      const t = byTest.get(l.nodeid) ?? {};
      t[l.phase] = l;
      byTest.set(l.nodeid, t);
    }
  }
  const tests: TestResult[] = [];
  for (const [nodeid, p] of byTest) {
    const duration = (p.setup?.duration ?? 0) + (p.call?.duration ?? 0) + (p.teardown?.duration ?? 0);
    let outcome: TestOutcome;
    let decided: Line | undefined;
    if (p.setup?.outcome === "failed") [outcome, decided] = ["error", p.setup];
    else if (p.setup?.outcome === "skipped") [outcome, decided] = [p.setup.wasxfail ? "xfailed" : "skipped", p.setup];
    else if (p.call) {
      decided = p.call;
      outcome = p.call.wasxfail ? (p.call.outcome === "skipped" ? "xfailed" : p.call.outcome === "passed" ? "xpassed" : "failed") : (p.call.outcome as TestOutcome);
    } else [outcome, decided] = ["error", p.setup ?? p.teardown];
    if (p.teardown?.outcome === "failed") [outcome, decided] = ["error", p.teardown];
    tests.push({ nodeid, outcome, phase: decided?.phase ?? "call", duration, message: decided?.longrepr ?? null });
  }
  return { tests, collectionErrors, exitstatus };
}

export interface PytestOptions extends Omit<RunOptions, "workdir"> {
  /** Node ids to run (default: the whole suite). */
  tests?: string[];
  /** Extra pytest arguments. */
  args?: string[];
  /** Measure per-test line coverage of these source paths (relative to the workdir). */
  coverage?: { source: string[] };
}

/** file (relative) → line → node ids of the tests that ran it. */
export type CoverageMap = Record<string, Record<number, string[]>>;

export async function runPytest(sandbox: Sandbox, workdir: string, opts: PytestOptions = {}): Promise<PytestRun> {
  const first = await runPytestOnce(sandbox, workdir, opts);
  // Given node ids, pytest runs nothing when one of their files fails to collect, even with
  // --continue-on-collection-errors: run the others again and report the broken file's tests as errors.
  if (opts.tests?.length && first.collectionErrors.length && first.tests.length === 0) {
    const bad = new Set(first.collectionErrors.map((c) => c.nodeid.split("::")[0]));
    const rest = opts.tests.filter((t) => !bad.has(t.split("::")[0]));
    const second = rest.length && rest.length < opts.tests.length ? await runPytestOnce(sandbox, workdir, { ...opts, tests: rest }) : undefined;
    const errored: TestResult[] = opts.tests.filter((t) => bad.has(t.split("::")[0])).map((nodeid) => ({ nodeid, outcome: "error", phase: "collect", duration: 0, message: first.collectionErrors.find((c) => c.nodeid === nodeid.split("::")[0])?.message ?? null }));
    const tests = [...(second?.tests ?? []), ...errored];
    const counts = Object.fromEntries(TestOutcome.options.map((o) => [o, 0])) as Record<TestOutcome, number>;
    for (const t of tests) counts[t.outcome]++;
    return { ...(second ?? first), tests, counts, collectionErrors: first.collectionErrors, forged: first.forged + (second?.forged ?? 0) };
  }
  return first;
}

async function runPytestOnce(sandbox: Sandbox, workdir: string, opts: PytestOptions): Promise<PytestRun> {
  const results = mkdtempSync(join(tmpdir(), "composer-lab-pytest-"));
  try {
    const { tests, args, coverage, ...runOpts } = opts;
    const bound = sandbox.name !== "none";
    const resultsIn = bound ? "/results" : results;
    const covArgs = coverage ? [...coverage.source.map((s) => `--cov=${s}`), "--cov-context=test", "--cov-report="] : [];
    const pytest = [
      "python3", "-m", "pytest", "-p", "composer_lab_results", "-p", "no:cacheprovider", "--continue-on-collection-errors",
      "-q", "--no-header", "-rN", ...covArgs, ...(args ?? []), ...(tests ?? []),
    ];
    // With coverage, the same sandbox run also writes the per-test line map as JSON.
    const q = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
    const cmd = coverage
      ? ["/bin/sh", "-c", `${pytest.map(q).join(" ")}; rc=$?; python3 -m coverage json -q --show-contexts -o ${q(`${resultsIn}/coverage.json`)} >/dev/null 2>&1; exit $rc`]
      : pytest;
    const plugin = join(projectRoot(), "lib", "sandbox", "pytest_plugin");
    // Sandboxes bind the plugin and the results folder in; unsandboxed runs use the host paths.
    // A one-time key, handed to the plugin on stdin, signs every result line.
    const key = randomBytes(24).toString("hex");
    const run = await sandbox.run(cmd, {
      timeoutMs: 300_000,
      ...runOpts,
      stdin: `${key}\n`,
      workdir,
      env: {
        COMPOSER_LAB_SIGNED: "1",
        PYTHONPATH: bound ? "/opt/composer-lab" : plugin, COMPOSER_LAB_RESULTS: `${resultsIn}/results.jsonl`,
        ...(coverage ? { COVERAGE_FILE: `${resultsIn}/.coverage` } : {}), ...runOpts.env,
      },
      roBinds: bound ? { [plugin]: "/opt/composer-lab", ...runOpts.roBinds } : {},
      rwBinds: bound ? { [results]: "/results", ...runOpts.rwBinds } : {},
    });
    let lines: Line[] = [];
    let forged = 0;
    try {
      lines = readFileSync(join(results, "results.jsonl"), "utf8").split("\n").filter(Boolean).flatMap((l) => {
        try {
          const signed = JSON.parse(l) as { r?: unknown; s?: unknown };
          const expected = typeof signed.r === "string" ? createHmac("sha256", key).update(signed.r).digest("hex") : "";
          if (typeof signed.s !== "string" || signed.s.length !== expected.length || !timingSafeEqual(Buffer.from(signed.s), Buffer.from(expected))) {
            forged++;
            return [];
          }
          return [JSON.parse(signed.r as string) as Line];
        } catch {
          forged++;
          return [];
        }
      });
    } catch {
      /* pytest never started */
    }
    const folded = foldReports(lines);
    const counts = Object.fromEntries(TestOutcome.options.map((o) => [o, 0])) as Record<TestOutcome, number>;
    for (const t of folded.tests) counts[t.outcome]++;
    return { ...folded, counts, run, forged, ...(coverage ? { coverage: readCoverage(join(results, "coverage.json")) } : {}) };
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
}

/** coverage.py's JSON (with --show-contexts) → file → line → test node ids. */
function readCoverage(file: string): CoverageMap {
  let raw: { files?: Record<string, { contexts?: Record<string, string[]> }> };
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return {};
  }
  const map: CoverageMap = {};
  for (const [path, data] of Object.entries(raw.files ?? {})) {
    const rel = path.replace(/^\/work\//, "");
    const lines: Record<number, string[]> = {};
    for (const [line, contexts] of Object.entries(data.contexts ?? {})) {
      // pytest-cov names contexts "<nodeid>|setup", "<nodeid>|run", "<nodeid>|teardown"; "" is import time
      const ids = [...new Set(contexts.filter(Boolean).map((c) => c.replace(/\|(setup|run|teardown)$/, "")))];
      lines[Number(line)] = ids;
    }
    map[rel] = lines;
  }
  return map;
}
