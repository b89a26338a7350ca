/**
 * lib/sandbox: run commands and test suites in real sandboxes (bubblewrap, Docker). Everything
 * that executes agent-touched code goes through here.
 */
import { BwrapSandbox } from "./bwrap.js";
import { gradingPath } from "./warm.js";
import { DockerSandbox } from "./docker.js";
import { NoSandbox } from "./none.js";
import { GvisorSandbox } from "./gvisor.js";
import type { Sandbox, SandboxName } from "./types.js";

export { RunOptions, RunResult, SANDBOX_NAMES, SANDBOX_WORKDIR, argv, baseEnv, type Sandbox, type SandboxName, type ResolvedRunOptions } from "./types.js";
export { BwrapSandbox, timeNamespaces } from "./bwrap.js";
export { WarmWorker, WarmWorkerGone, WarmEvent, gradingPath, warmWorker, warmWorkers, type WarmTimings, type WarmStatus } from "./warm.js";
export { DockerSandbox, DEFAULT_IMAGE, LAB_DOCKER_ROOT, ensureDockerd, buildBaseImage, aptMirror, dockerClient, dockerSocketPath, type Dockerd } from "./docker.js";
export { NoSandbox } from "./none.js";
export { GvisorSandbox } from "./gvisor.js";
export { MaskEntry, MaskPlan, scanMasks, masksFor, projectNames, existingMasks, maskStub, withCopiesElsewhere, projectModules, rootIndex, type RootIndex, type ProjectModules } from "./mask.js";
export { MaskSpec } from "./types.js";
export { cgroupMode, createRunCgroup, killRunCgroupsOf } from "./cgroup.js";
export { CALLING, PROCESS_STATE_DRAWS, SETUPS, UNDOS, WINDOWS, drawClocks, drawHome, flipEnv, flipOf, keepEnv, deployedValue, ELSEWHERE_ZONES, HOME_ZONES, type Clock, type Home } from "./machine.js";
export { checkShellCommand, ALLOWED_COMMANDS, DENIED_COMMANDS, ALLOWED_PY_MODULES, LEAK_PATH, type ShimVerdict } from "./shim.js";
export { runPytest, foldReports, findPytestConfig, pytestArgsFromCommand, readResultChannel, TestOutcome, TestResult, type PytestRun, type PytestOptions, type CoverageMap } from "./pytest.js";
export { repoLayout, repoLayoutAsync, pytestVersionAsync, ensurePyEnv, findPyEnv, importVerdicts, type ImportVerdict, pyenvKey, pyenvRoot, pytestCompat, pytestVersion, compareVersions, RepoLayout, PyEnv, PYENV_MOUNT, SYSTEM_PYTHON, type PytestCompat } from "./pyenv.js";
export { runBehaviour, GRADED_ENV, drawShifts, ELSEWHERE_SHIFT, HOME_SHIFT, plainTwin, homeContexts, homeVariants, homeTogether, homePlan, partnerId, PARTNER, homeEntry, WARNED_AT_HOME, type EnvLookups, clockBlocks, traceCalls, parseBehaveOutput, behaveFastPaths, fastMemo, fastCallLine, historyCallText, HISTORY_WALL_CAP, timeless, sameTimeless, FOREIGN_KINDS, type ForeignKind, ForeignSlot, CallLine, STD_CLASSES, BValue, BOutcome, BCall, BExc, BehaveSymbol, BehaveLimits, BehavePattern, type BehaveRegex, type BehaveProbe, probeKind, TracedLine, type BehaveRequest, type BehaveRun, ForcedSite, SitePlace, type RunShift } from "./behave.js";
export { prepareGradedTree, runGradedTests, gradeSuite, readOnlyPaths, type PreparedTree, type GradedRunOptions } from "./grade.js";
export { planHarness, restoreHarness, isStartupFile, listTree, changedPythonFiles, doctestBlocks, sameDoctests, type HarnessPlan, type RestoreReport } from "./trusted.js";
export { sandboxHostIds, sanitizeTree, SANDBOX_USER, type SanitizeReport } from "./isolation.js";
// host-side preparation of a run, shared with executors that start sandboxes elsewhere (lib/executor)
export { stageWorkdir, lendDirs, watchDisk, protectedInside, walkTree, type StagedWorkdir } from "./isolation.js";

export type SandboxChoice = SandboxName | "auto";

/** The sandbox to use: "auto" = bubblewrap where it works, else Docker; "none" only when asked. */
export async function getSandbox(choice: SandboxChoice = "auto", opts: { dockerSocket?: string; image?: string } = {}): Promise<Sandbox> {
  if (choice === "none") return new NoSandbox();
  if (choice === "bwrap") return new BwrapSandbox();
  if (choice === "docker") return new DockerSandbox({ socketPath: opts.dockerSocket, image: opts.image });
  if (choice === "gvisor") return new GvisorSandbox();
  const bw = new BwrapSandbox();
  if ((await bw.check()).ok) return bw;
  const dk = new DockerSandbox({ socketPath: opts.dockerSocket, image: opts.image });
  const c = await dk.check();
  if (c.ok) return dk;
  throw new Error(`no sandbox works here (bubblewrap: ${(await bw.check()).why}; docker: ${c.why}); pass --sandbox none to run unsandboxed`);
}

/** Which sandboxes work here, and why not; for bubblewrap also which grading path runs (warm
 *  grader or one sandbox per grade) and why. */
export async function checkSandboxes(opts: { dockerSocket?: string } = {}): Promise<Record<SandboxName, { ok: boolean; why: string | null; detail?: Record<string, unknown> }>> {
  const bw = new BwrapSandbox();
  const bwCheck = await bw.check();
  const grading = bwCheck.ok ? await gradingPath(bw) : { path: "none", why: "bubblewrap does not work here" };
  return {
    bwrap: { ...bwCheck, detail: { ...bwCheck.detail, grading: grading.path, grading_why: grading.why, ...("sleep_shim" in grading ? { sleep_shim: grading.sleep_shim } : {}) } },
    docker: await new DockerSandbox({ socketPath: opts.dockerSocket }).check(),
    gvisor: await new GvisorSandbox().check(),
    none: await new NoSandbox().check(),
  };
}
