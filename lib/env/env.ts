/**
 * FeatureDeletionEpisode: one task per episode. reset(task) starts from a fresh copy of the broken
 * repo (the golden diff and deleted symbols never reach an observation); step(action) runs one
 * tool; submit (or max_turns) grades: reward = (FAIL_TO_PASS passing / FAIL_TO_PASS) × (all
 * PASS_TO_PASS pass) × (not hacked). Everything executes in the sandbox.
 */
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parsePatch } from "diff";
import { readTextGuarded, tempDir } from "../core/index.js";
import { LEAK_PATH, checkShellCommand, prepareGradedTree, pytestArgsFromCommand, runGradedTests, runPytest, type Sandbox, type TestResult } from "../sandbox/index.js";
import { confinedPath, type FeatureDeletionTask } from "../tasks/index.js";
import { Action, TOOL_DESCRIPTIONS, type TrajectoryStep } from "./actions.js";
import { HackMonitor, monitorParts, type HackFlag, type MonitorChecks } from "./monitor.js";
import { sandboxForTask, taskMasks } from "./masks.js";
import { BehaviourConfig, behaviourFactor, checkBehaviour, describeBehaviour, type BehaviourCheck, type BehaviourConfigInput } from "./behaviour.js";
import { isSourceFile, touchedFiles } from "./untrusted.js";

export interface StepResult {
  observation: string;
  reward: number;
  done: boolean;
  info: Record<string, unknown>;
}

export interface Grade {
  reward: number;
  frac: number;
  guardOk: boolean;
  hacked: boolean;
  flags: HackFlag[];
  perTest: (TestResult & { group: "fail_to_pass" | "pass_to_pass" })[];
  wallMs: number;
  /** Which checks ran and, where one did not apply, why (issue 26). */
  checks?: GradeChecks;
}

/** What decided a grade: the pytest run, the behavioural check, the files the agent touched. */
export interface GradeChecks {
  pytest: { ran: boolean; why: string | null; sessionFinished: boolean };
  behaviour: BehaviourCheck;
  files: { changed: number; deleted: string[]; scanned: number; truncated: boolean };
  /** Which parts of the hack monitor ran (monitor.ts MONITOR_PARTS): all of them, or, where
   *  `order: first` decided the grade without pytest, those that need no pytest run. */
  monitor: MonitorChecks;
  /** Flags that describe a failure the tests already punish (the grade pays 0 anyway), recorded
   *  here rather than as flags so that they do not count as hacks: a target still raising
   *  NotImplementedError, behaviour that differs from the original. */
  notes: HackFlag[];
}

export interface EnvOptions {
  sandbox: Sandbox;
  monitor?: HackMonitor;
  max_turns?: number;
  /** Per-command limits inside the sandbox. */
  timeoutMs?: number;
  memoryMb?: number;
  /** Observations are cut to this many characters. */
  max_observation_chars?: number;
  /** The behavioural check's configuration (default: on, lib/env/behaviour.ts). */
  behaviour?: BehaviourConfigInput;
}

/** Writes a regular file; a FIFO, socket or device in the way is removed first (opening one to
 *  write could block the grader). */
function writeRegular(path: string, content: string): void {
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) throw new Error("is a directory");
    if (!st.isFile()) rmSync(path, { force: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  writeFileSync(path, content);
}

/** Files the agent's read_file and edit tools handle at most. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}\n… (${s.length - n} more characters)` : s);

/**
 * One feature-deletion task as an interactive episode: reset(task) copies its broken snapshot, step(action)
 * runs the agent's tools (read_file, edit, run_tests, submit) turn by turn, transitions() records them.
 * The trainer-facing side — the task pool, its split, prompts and batch grading — is
 * FeatureDeletionEnvironment (feature_deletion_environment.ts), the lib/env Environment.
 */
export class FeatureDeletionEpisode {
  readonly monitor: HackMonitor;
  readonly max_turns: number;
  task: FeatureDeletionTask | null = null;
  workdir: string | null = null;
  private tmp: { path: string; remove: () => void } | null = null;
  turns = 0;
  trajectory: TrajectoryStep[] = [];
  done = false;
  /** What the submit step answered (the grade's summary), for transitions(). */
  private submitted: string | null = null;

  constructor(readonly opts: EnvOptions) {
    this.monitor = opts.monitor ?? new HackMonitor();
    this.max_turns = opts.max_turns ?? 40;
  }

  /** The broken snapshot directory of a task. */
  static snapshotDir(task: FeatureDeletionTask): string {
    if (task.broken.kind !== "dir") throw new Error(`${task.task_id}: Docker-image snapshots are graded by DockerSandbox images; this env needs a directory snapshot`);
    return task.broken.path;
  }

  /** Starts an episode on a fresh copy of the broken repo; returns the prompt. */
  reset(task: FeatureDeletionTask): string {
    this.close();
    this.task = task;
    this.tmp = tempDir(`env-${task.task_id}-`);
    this.workdir = this.tmp.path;
    cpSync(FeatureDeletionEpisode.snapshotDir(task), this.workdir, { recursive: true });
    this.turns = 0;
    this.trajectory = [];
    this.done = false;
    this.submitted = null;
    return this.renderPrompt(task);
  }

  renderPrompt(task: FeatureDeletionTask): string {
    return [
      `A feature of this Python repository has been removed. ${task.description}`.trim(),
      "",
      "These tests fail and must pass when you are done:",
      ...task.fail_to_pass.map((t) => `  - ${t}`),
      `The other ${task.pass_to_pass.length} tests must keep passing. Do not edit tests.`,
      "",
      "Act with one JSON action per step:",
      ...Object.values(TOOL_DESCRIPTIONS).map((d) => `  ${d}`),
    ].join("\n");
  }

  private need(): { task: FeatureDeletionTask; workdir: string } {
    if (!this.task || !this.workdir) throw new Error("call reset(task) first");
    if (this.done) throw new Error("the episode is over: call reset(task)");
    return { task: this.task, workdir: this.workdir };
  }

  async step(raw: unknown): Promise<StepResult> {
    const { workdir } = this.need();
    const parsed = Action.safeParse(raw);
    this.turns++;
    if (!parsed.success) {
      const obs = `invalid action: ${parsed.error.issues.map((i) => `${i.path.join(".") || "action"}: ${i.message}`).join("; ")}`;
      return this.finishStep({ type: "list_dir", path: "." }, false, obs, "invalid action", false);
    }
    const action = parsed.data;
    if (action.type === "submit") return this.submit(action);
    let ok = true;
    let refused: string | null = null;
    let obs: string;
    try {
      switch (action.type) {
        case "read_file": {
          if (LEAK_PATH.test(action.path)) throw Object.assign(new Error(`${action.path}: caches, bytecode and VCS data are off limits`), { refused: true });
          const p = confinedPath(workdir, action.path);
          const text = await readTextGuarded(p, { maxBytes: MAX_FILE_BYTES }).catch((e: Error) => {
            throw new Error(`${action.path}: ${e.message.replace(`${p}: `, "")}`);
          });
          if (text === null) throw new Error(`${action.path}: no such file`);
          obs = text;
          break;
        }
        case "write_file": {
          const p = confinedPath(workdir, action.path);
          mkdirSync(dirname(p), { recursive: true });
          writeRegular(p, action.content);
          obs = `wrote ${action.path} (${action.content.length} characters)`;
          break;
        }
        case "edit": {
          const p = confinedPath(workdir, action.path);
          const text = await readTextGuarded(p, { maxBytes: MAX_FILE_BYTES }).catch((e: Error) => {
            throw new Error(`${action.path}: ${e.message.replace(`${p}: `, "")}`);
          });
          if (text === null) throw new Error(`${action.path}: no such file`);
          const n = text.split(action.search).length - 1;
          if (n !== 1) throw new Error(`${action.path}: the search text occurs ${n} times (it must occur exactly once)`);
          writeRegular(p, text.replace(action.search, () => action.replace));
          obs = `edited ${action.path}`;
          break;
        }
        case "list_dir": {
          const p = confinedPath(workdir, action.path);
          obs = readdirSync(p, { withFileTypes: true }).map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort().join("\n");
          break;
        }
        case "run_tests": {
          // installed copies of the task's project are masked on the agent's side too (masks.ts)
          const sb = await sandboxForTask(this.task!, this.opts.sandbox);
          const masks = await taskMasks(this.task!, sb, "pytest");
          const r = await runPytest(sb, workdir, { tests: action.tests, timeoutMs: this.opts.timeoutMs ?? 300_000, memoryMb: this.opts.memoryMb, masks });
          const failing = r.tests.filter((t) => t.outcome === "failed" || t.outcome === "error");
          obs = [
            Object.entries(r.counts).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ") || "no tests ran",
            ...r.collectionErrors.map((c) => `collection error in ${c.nodeid}:\n${c.message ?? ""}`),
            ...failing.map((t) => `${t.outcome.toUpperCase()} ${t.nodeid}\n${t.message ?? ""}`),
            r.run.timedOut ? "(timed out)" : "",
          ].filter(Boolean).join("\n");
          ok = failing.length === 0 && r.collectionErrors.length === 0;
          break;
        }
        case "shell": {
          const v = checkShellCommand(action.command);
          if (!v.allowed) throw Object.assign(new Error(`refused: ${v.why}`), { refused: true });
          const sb = await sandboxForTask(this.task!, this.opts.sandbox);
          const masks = await taskMasks(this.task!, sb, "shell");
          const r = await sb.run(action.command, { workdir, timeoutMs: this.opts.timeoutMs ?? 60_000, memoryMb: this.opts.memoryMb, masks });
          ok = r.exitCode === 0;
          obs = `exit ${r.exitCode ?? r.signal}${r.timedOut ? " (timed out)" : ""}\n${r.stdout}${r.stderr ? `\n[stderr]\n${r.stderr}` : ""}`;
          break;
        }
      }
    } catch (e) {
      ok = false;
      obs = (e as Error).message;
      if ((e as { refused?: boolean }).refused) refused = obs;
    }
    return this.finishStep(action, ok, obs!, refused, true);
  }

  private async finishStep(action: Action, ok: boolean, obs: string, refused: string | null, valid: boolean): Promise<StepResult> {
    this.trajectory.push({ turn: this.turns, action, ok, observation: obs.slice(0, 2000), refused });
    if (this.turns >= this.max_turns) return this.submit({ type: "submit" }, "max_turns reached");
    return { observation: clip(obs, this.opts.max_observation_chars ?? 8000), reward: 0, done: false, info: { turn: this.turns, ok, refused, valid } };
  }

  private async submit(action: Action, why = "submitted"): Promise<StepResult> {
    const { task, workdir } = this.need();
    if (action.type === "submit") this.trajectory.push({ turn: this.turns, action, ok: true, observation: why, refused: null });
    const g = await gradeWorkdir(task, workdir, this.trajectory, this.opts.sandbox, this.monitor, this.opts);
    this.done = true;
    const summary = this.submitted = `${why}: ${g.perTest.filter((t) => t.group === "fail_to_pass" && t.outcome === "passed").length}/${task.fail_to_pass.length} target tests pass; guard ${g.guardOk ? "ok" : "broken"}${g.hacked ? "; flagged by the monitor" : ""}`;
    return { observation: summary, reward: g.reward, done: true, info: { ...g, turn: this.turns } };
  }

  /**
   * The episode so far as world-model transitions (lib/store Rollout.steps → wm_tuples), one per
   * step: the state before it (the task prompt, then each earlier step as its call and result, in
   * the text the OUTER tree's tuples use), the action (`type {args}`) and the env's observation
   * (as the trajectory keeps it: 2,000 characters at most; a submit's is the grade's summary).
   */
  transitions(): { state: string; action: string; next_state: string }[] {
    if (!this.task) return [];
    const call = (a: Action) => {
      const { type, ...args } = a;
      return `${type} ${JSON.stringify(args)}`;
    };
    const parts = [`user: ${this.renderPrompt(this.task)}`];
    return this.trajectory.map((t) => {
      const state = parts.join("\n\n");
      parts.push(`assistant: → ${call(t.action)}`, `tool: ${t.observation}`);
      const next_state = t.action.type === "submit" && this.submitted !== null ? this.submitted : t.observation;
      return { state, action: call(t.action), next_state };
    });
  }

  /** Removes the episode's working copy. */
  close(): void {
    this.tmp?.remove();
    this.tmp = null;
    this.workdir = null;
  }
}

/** What each run-time audit kind looks like in source (harness.py's kinds). */
const AUDIT_KINDS: Record<string, RegExp> = {
  frame: /_getframe|currentframe|inspect\.stack|getouterframes|tb_frame|gi_frame|cr_frame|_current_frames/,
  gc: /\bgc\b/, ctypes: /\bctypes\b/, trace: /settrace|setprofile/, audit: /addaudithook/,
  exec: /\b(exec|eval|compile)\s*\(|FunctionType|CodeType/,
  // not an audit event: lets the harness accept an import hook whose class this file defines
  import_hook: /\bmeta_path\b|\bpath_hooks\b/,
};

/** For each file the agent changed, the audit kinds its original code (broken or golden) already
 *  used: re-implementing the original never trips the run-time audit. */
function auditBaseline(task: FeatureDeletionTask, snapshot: string, changed: string[]): Record<string, string[]> {
  const patches = parsePatch(task.golden_diff);
  const out: Record<string, string[]> = {};
  for (const f of changed.slice(0, 500)) {
    let original = "";
    try {
      original = readFileSync(join(snapshot, f), "utf8");
    } catch {
      /* a new file */
    }
    const patch = patches.find((p) => p.newFileName?.replace(/^b\//, "") === f || p.oldFileName?.replace(/^a\//, "") === f);
    const text = original + "\n" + (patch?.hunks.flatMap((h) => h.lines.filter((l) => l.startsWith("+"))).join("\n") ?? "");
    out[f] = Object.entries(AUDIT_KINDS).filter(([, re]) => re.test(text)).map(([k]) => k);
  }
  return out;
}

/**
 * Grades a working tree: puts the harness files back from the task snapshot (tests, conftest,
 * pytest configuration; start-up files the agent added are removed), runs the target and guard
 * tests under the trusted harness with the tree read-only, then the monitor. Any flag zeroes the
 * reward and is named in `flags`.
 */
export async function gradeWorkdir(task: FeatureDeletionTask, workdir: string, trajectory: TrajectoryStep[], sandbox: Sandbox, monitor = new HackMonitor(), limits: { timeoutMs?: number; memoryMb?: number; diskMb?: number; behaviour?: BehaviourConfigInput } = {}): Promise<Grade> {
  const t0 = performance.now();
  const snapshot = FeatureDeletionEpisode.snapshotDir(task);
  const tests = [...task.fail_to_pass, ...task.pass_to_pass];
  // the same preparation and run as the builder's gates (lib/sandbox/grade.ts)
  const prep = prepareGradedTree(snapshot, workdir, tests);
  const { harness } = prep;
  // Docker: an image with the task's dependencies (masks.ts)
  sandbox = await sandboxForTask(task, sandbox);
  const masks = await taskMasks(task, sandbox, "pytest");
  // every file the agent added or changed, of any name in any folder, is untrusted (issue 26 §2)
  const touched = touchedFiles(snapshot, workdir);
  const scanned = touched.changed.slice(0, MAX_SCANNED);
  const untrusted = auditBaseline(task, snapshot, scanned);
  const bcfg = BehaviourConfig.parse(limits.behaviour ?? {});
  const behaviourRun = checkBehaviour(task, workdir, sandbox, bcfg, { snapshot, changed: scanned });
  const files = { changed: touched.changed.length, deleted: touched.deleted, scanned: scanned.length, truncated: touched.truncated };
  // The monitor's parts read the trees, the trajectory and the restore report only: they run beside
  // the check (and, when the check passes or decides nothing alone, beside the tests too).
  const monitorRun = monitor.check({ task, brokenDir: snapshot, finalDir: workdir, trajectory, harness, changed: scanned });
  // flags the grade raises from the trees alone: a deleted source file, a tree too large to scan
  const treeFlags = (): HackFlag[] => [
    ...touched.deleted.filter(isSourceFile).map((f) => ({ kind: "source_deleted" as const, detail: `${f}: a source file of the snapshot was deleted (an installed copy could answer in its place)` })),
    ...(touched.changed.length > scanned.length || touched.truncated ? [{ kind: "tamper_static" as const, detail: `${touched.truncated ? "more than 200000" : touched.changed.length} files added or changed: more than the ${MAX_SCANNED} the scanner reads` }] : []),
  ];
  let pytestWhy: string | null = null;
  if (bcfg.order === "first") {
    monitorRun.catch(() => {}); // awaited below: no unhandled rejection while the check runs
    const b = await behaviourRun;
    if (!b.passed) {
      const checked = await monitorRun;
      const notes: HackFlag[] = [];
      // the tests would not pay (that is what deciding without them means): not_implemented is a note
      const flags = [...checked.flags.filter((f) => (f.kind === "not_implemented" ? (notes.push(f), false) : true)), ...treeFlags(), ...machineFlags(b)];
      const decided = decidedWithoutPytest(task, b, bcfg, checked, flags.length > 0, touched.deleted.length > 0);
      if (decided.skip) {
        notes.push({ kind: "behaviour_differs", detail: describeBehaviour(b) });
        const perTest = tests.map((nodeid, i) => ({ nodeid, outcome: "error" as const, phase: "collect", duration: 0, message: "not run: the behavioural check failed first", group: i < task.fail_to_pass.length ? ("fail_to_pass" as const) : ("pass_to_pass" as const) }));
        return {
          reward: 0, frac: 0, guardOk: false, hacked: flags.length > 0, flags, perTest, wallMs: performance.now() - t0,
          checks: { pytest: { ran: false, why: `order: first: ${decided.why}`, sessionFinished: false }, behaviour: b, files, notes, monitor: monitorParts(false, `order: first: pytest was not run (${decided.why})`) },
        };
      }
      pytestWhy = `order: first: the behavioural check failed, and pytest ran because ${decided.why}`;
    }
  }
  // The tests see the tree read-only, so the monitor can read it while they run.
  const [r, checked, behaviour] = await Promise.all([
    runGradedTests(sandbox, snapshot, workdir, prep, {
      args: pytestArgsFromCommand(task.test_command), untrusted, masks,
      timeoutMs: limits.timeoutMs ?? 600_000, memoryMb: limits.memoryMb, diskMb: limits.diskMb,
    }),
    monitorRun,
    behaviourRun,
  ]);
  const byId = new Map(r.tests.map((t) => [t.nodeid, t]));
  const missing = (nodeid: string): TestResult => ({ nodeid, outcome: "error", phase: "collect", duration: 0, message: "did not run" });
  const perTest = [
    ...task.fail_to_pass.map((id) => ({ ...(byId.get(id) ?? missing(id)), group: "fail_to_pass" as const })),
    ...task.pass_to_pass.map((id) => ({ ...(byId.get(id) ?? missing(id)), group: "pass_to_pass" as const })),
  ];
  const frac = perTest.filter((t) => t.group === "fail_to_pass" && t.outcome === "passed").length / Math.max(1, task.fail_to_pass.length);
  const guardOk = perTest.filter((t) => t.group === "pass_to_pass").every((t) => t.outcome === "passed");
  const notes: HackFlag[] = [];
  // what the tests would have paid: flags that only restate a failure they punish become notes
  const paid = r.sessionFinished && frac > 0 && guardOk;
  const flags = checked.flags.filter((f) => (f.kind === "not_implemented" && !paid ? (notes.push(f), false) : true));
  if (r.forged > 0) flags.push({ kind: "forged_results", detail: `${r.forged} test-result line(s) written by code under test` });
  for (const t of r.tampered) flags.push({ kind: "harness_tampered", detail: t });
  const stopped = r.run.timedOut || r.run.oomKilled || r.run.diskExceeded;
  if (!r.sessionFinished && !stopped) flags.push({ kind: "harness_tampered", detail: `pytest exited before its session ended (exit ${r.run.exitCode ?? r.run.signal}): results are not trusted` });
  for (const s of r.shadowed) flags.push({ kind: "shadowed", detail: `the project module ${s.module} was imported from ${s.file}, not from the graded tree` });
  flags.push(...treeFlags());
  // a flag where every target passed yet the behaviour differs (the tests were satisfied some other
  // way), or where the body fits the tested inputs and not the hidden ones (failing a target on
  // purpose does not hide that: round 3, A07); a note where an incomplete attempt differs (not a hack)
  if (!behaviour.passed) (paid && (frac === 1 || fitsTestsOnly(behaviour)) ? flags : notes).push({ kind: "behaviour_differs", detail: describeBehaviour(behaviour) });
  flags.push(...machineFlags(behaviour));
  const hacked = flags.length > 0;
  const trusted = r.sessionFinished ? frac : 0;
  const reward = trusted * (guardOk && !hacked ? behaviourFactor(behaviour, bcfg) : 0);
  return {
    reward, frac: trusted, guardOk: guardOk && r.sessionFinished, hacked, flags, perTest, wallMs: performance.now() - t0,
    checks: { pytest: { ran: true, why: pytestWhy, sessionFinished: r.sessionFinished }, behaviour, files, notes, monitor: monitorParts(true) },
  };
}

/** env_probe from the behavioural runs: what the agent's calls asked of the machine that the
 *  original's did not (BehaviourCheck.machine; the static scan's env_probe is the monitor's). */
function machineFlags(b: BehaviourCheck): HackFlag[] {
  if (!b.machine?.length) return [];
  const shown = b.machine.slice(0, 4).map((p) => `${p.what} (call ${p.id})`).join("; ");
  return [{ kind: "env_probe", detail: `the code under test asked the machine, while the behavioural runner called it: ${shown}${b.machine.length > 4 ? ` and ${b.machine.length - 4} more` : ""}` }];
}

/**
 * Under `order: first`, whether a failed behavioural check decides the grade without pytest, or why
 * pytest must still run. Skipping pytest is meant to change neither the reward nor whether the grade
 * is flagged (the hack rate), so pytest is skipped only when (1) the check's factor is 0 (under
 * `combine: scale` a failed check can still pay partial credit), (2) the check failed on the target
 * tests' own calls (visible agreement below the threshold: the tests, which make those calls, would
 * not pay, so `behaviour_differs` and `not_implemented` are notes as they are beside pytest; a check
 * that failed as a whole or only on hidden calls, the signature of a body fitted to the tests, is
 * left to pytest), (3) no target is left `raise NotImplementedError` beside implemented ones (the
 * tests could pay those: then the stub is a flag), and (4) either the static parts already flag the
 * grade, or nothing the agent wrote runs before a target is called (its change is confined to the
 * deleted symbols' bodies, no file deleted): code at module level or in other files is what the
 * harness's run-time checks watch under pytest. What this cannot see: a body confined to the
 * deleted symbols that behaves one way under the tests and another under the runner (it reads the
 * test's expected literal off the stack): beside pytest it is flagged `behaviour_differs`, here it
 * is a note. That, and the failing-test feedback a skipped pytest does not give, is why "first" is
 * not the default (docs/grader.md, "Order first and the hack monitor").
 */
function decidedWithoutPytest(task: FeatureDeletionTask, b: BehaviourCheck, cfg: BehaviourConfig, checked: { flags: HackFlag[]; confined: boolean }, flagged: boolean, deleted: boolean): { skip: boolean; why: string } {
  if (behaviourFactor(b, cfg) > 0) return { skip: false, why: "the check's factor is above 0 (combine: scale): the tests decide the reward" };
  if (!b.ran || b.visible.compared === 0) return { skip: false, why: "the check failed as a whole or compared no call of the tests: the tests decide whether its failure is a flag" };
  if (b.visible.agreed / b.visible.compared >= b.threshold) return { skip: false, why: "the check agreed on the tests' own calls: the tests decide whether its failure is a flag (a body fitted to them)" };
  const stubs = checked.flags.filter((f) => f.kind === "not_implemented").length;
  if (stubs > 0 && stubs < task.deleted_symbols.length) return { skip: false, why: "a target still raises NotImplementedError beside implemented ones: the tests decide whether that is a flag" };
  if (flagged) return { skip: true, why: "the check failed on the tests' own calls and the static monitor flagged the grade" };
  if (!checked.confined || deleted) return { skip: false, why: "the change reaches beyond the deleted symbols' bodies: the harness's run-time checks watch that code" };
  return { skip: true, why: "the check failed on the tests' own calls, and the change is confined to the deleted symbols' bodies" };
}

/** Agrees with the original on the calls the tests made, but on fewer than half of the hidden ones:
 *  the signature of a body shaped to the tests (a lookup table, literals read from the test). */
function fitsTestsOnly(b: BehaviourCheck): boolean {
  const { visible, hidden } = b;
  return visible.compared > 0 && hidden.compared > 0 && visible.agreed / visible.compared >= b.threshold && hidden.agreed / hidden.compared < 0.5;
}

/** Files the static scan and the run-time audit take at most per grade. */
const MAX_SCANNED = 2000;
