/**
 * The ONE way a task's tests are run for a verdict (issue 26 §4): grading (lib/env gradeWorkdir)
 * and the task builder's gates 2–4 (lib/tasks/build.ts) both come through here, so a golden diff
 * the builder accepted is graded the same way later.
 *
 *  - prepareGradedTree: the protected files (tests, conftest, pytest configuration, named plugins)
 *    put back from the task snapshot, start-up files the agent added removed (trusted.ts);
 *  - runGradedTests: pytest under the trusted harness on a THROWAWAY WRITABLE COPY of the tree
 *    (tests that write repo files — jinja2's loader test `os.utime`s a template — work; nothing
 *    is copied back and the verdict never reads the copy), with every protected Python file and
 *    configuration file bound read-only over it and the harness told which conftest files it
 *    restored (a conftest.py the code under test writes at run time is not trusted), and the
 *    task's installed copies masked (mask.ts).
 *
 * Data files under protected test folders stay writable in the copy: code under test can always
 * produce what a data file would make a test accept, so a write there gives it nothing it lacks.
 */
import { findPytestConfig, runPytest, type PytestOptions, type PytestRun } from "./pytest.js";
import { planHarness, restoreHarness, type HarnessPlan, type RestoreReport } from "./trusted.js";
import type { MaskSpec, Sandbox } from "./types.js";

export interface PreparedTree {
  plan: HarnessPlan;
  harness: RestoreReport;
  tests: string[];
}

const CONFIG_FILES = /(^|\/)(pytest\.ini|\.pytest\.ini|pyproject\.toml|tox\.ini|setup\.cfg)$/;

/** Restores the protected files of `tests` from `snapshot` into `workdir` (see trusted.ts). */
export function prepareGradedTree(snapshot: string, workdir: string, tests: string[]): PreparedTree {
  const plan = planHarness(snapshot, tests);
  return { plan, harness: restoreHarness(snapshot, workdir, plan), tests };
}

/** The protected paths bound read-only over the writable copy: Python files and configuration. */
export function readOnlyPaths(plan: HarnessPlan): string[] {
  return plan.protectedFiles.filter((f) => f.endsWith(".py") || CONFIG_FILES.test(f) || plan.trustedPlugins.includes(f));
}

export interface GradedRunOptions extends Pick<PytestOptions, "args" | "untrusted" | "timeoutMs" | "memoryMb" | "diskMb" | "pyenv" | "layout" | "warm" | "env"> {
  masks?: MaskSpec[];
}

/** Runs the prepared tree's tests for a verdict (see the module comment). */
export function runGradedTests(sandbox: Sandbox, snapshot: string, workdir: string, prep: PreparedTree, opts: GradedRunOptions = {}): Promise<PytestRun> {
  const { masks, env, ...rest } = opts;
  const conftests = prep.plan.protectedFiles.filter((f) => f === "conftest.py" || f.endsWith("/conftest.py"));
  return runPytest(sandbox, workdir, {
    ...rest,
    tests: prep.tests,
    config: findPytestConfig(snapshot, prep.tests),
    trustedPlugins: prep.plan.trustedPlugins,
    scratchWorkdir: true,
    protectPaths: readOnlyPaths(prep.plan),
    masks: masks ?? [],
    env: { ...env, COMPOSER_LAB_TRUSTED_CONFTESTS: JSON.stringify(conftests) },
  });
}

/** prepareGradedTree + runGradedTests (the builder's gates). */
export async function gradeSuite(sandbox: Sandbox, snapshot: string, workdir: string, tests: string[], opts: GradedRunOptions = {}): Promise<PytestRun & { prepared: PreparedTree }> {
  const prep = prepareGradedTree(snapshot, workdir, tests);
  return { ...(await runGradedTests(sandbox, snapshot, workdir, prep, opts)), prepared: prep };
}
