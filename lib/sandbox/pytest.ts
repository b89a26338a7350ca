/**
 * The ONE place that knows how to run a pytest suite in a sandbox and read its results: a small
 * plugin writes one JSON line per test report to a results directory bound into the sandbox;
 * collection errors do not abort the run (--continue-on-collection-errors).
 */
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
}

export async function runPytest(sandbox: Sandbox, workdir: string, opts: PytestOptions = {}): Promise<PytestRun> {
  const results = mkdtempSync(join(tmpdir(), "composer-lab-pytest-"));
  try {
    const { tests, args, ...runOpts } = opts;
    const cmd = [
      "python3", "-m", "pytest", "-p", "composer_lab_results", "-p", "no:cacheprovider", "--continue-on-collection-errors",
      "-q", "--no-header", "-rN", ...(args ?? []), ...(tests ?? []),
    ];
    const plugin = join(projectRoot(), "lib", "sandbox", "pytest_plugin");
    // Sandboxes bind the plugin and the results folder in; unsandboxed runs use the host paths.
    const bound = sandbox.name !== "none";
    const run = await sandbox.run(cmd, {
      timeoutMs: 300_000,
      ...runOpts,
      workdir,
      env: { PYTHONPATH: bound ? "/opt/composer-lab" : plugin, COMPOSER_LAB_RESULTS: bound ? "/results/results.jsonl" : join(results, "results.jsonl"), ...runOpts.env },
      roBinds: bound ? { [plugin]: "/opt/composer-lab", ...runOpts.roBinds } : {},
      rwBinds: bound ? { [results]: "/results", ...runOpts.rwBinds } : {},
    });
    let lines: Line[] = [];
    try {
      lines = readFileSync(join(results, "results.jsonl"), "utf8").split("\n").filter(Boolean).flatMap((l) => {
        try {
          return [JSON.parse(l) as Line];
        } catch {
          return [];
        }
      });
    } catch {
      /* pytest never started */
    }
    const folded = foldReports(lines);
    const counts = Object.fromEntries(TestOutcome.options.map((o) => [o, 0])) as Record<TestOutcome, number>;
    for (const t of folded.tests) counts[t.outcome]++;
    return { ...folded, counts, run };
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
}
