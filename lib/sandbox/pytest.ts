/**
 * The ONE place that knows how to run a pytest suite in a sandbox and read its results. pytest runs
 * under the trusted harness (harness/harness.py) from outside the repo, with third-party plugin
 * autoload off and the configuration pinned with `-c`; the harness sends one HMAC-signed, numbered
 * record per test report on a channel only it holds (its original stdout) and ends with a signed
 * session record carrying its run-time tamper verdict. Collection errors do not abort the run
 * (--continue-on-collection-errors).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, lstatSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { readGuarded, transientDir } from "../core/index.js";
import { CFG_MOUNT, HARNESS_MOUNT, harnessDir } from "./harness-dir.js";
import { BwrapSandbox } from "./bwrap.js";
import { WarmWorkerGone, warmWorker } from "./warm.js";
import { PYENV_MOUNT, findPyEnv, pytestCompat, pytestVersion, pytestVersionAsync, repoLayoutAsync, SYSTEM_PYTHON, type PyEnv, type RepoLayout } from "./pyenv.js";
import { SANDBOX_WORKDIR, type RunOptions, type RunResult, type Sandbox } from "./types.js";

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
  /** Result lines whose signature did not verify (written by code under test, not the harness). */
  forged: number;
  /** What the harness (or the channel check) found changed at run time: the report factory, the
   *  runner, hooks from untrusted code, rebound builtins, replayed records. Empty when clean. */
  tampered: string[];
  /** Whether the harness's signed end-of-session record arrived (a process that exits early, e.g.
   *  through os._exit, never sends it). */
  sessionFinished: boolean;
  /** Project modules the tests imported from outside the repo (an installed copy), and from where. */
  shadowed: { module: string; file: string }[];
  /** What the run changed about the project's own pytest config, and why (with the fix). */
  notes: string[];
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
    else if (l.phase === "shadow") continue;
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
  /** Extra pytest arguments (e.g. from the task's test_command: see pytestArgsFromCommand). */
  args?: string[];
  /** Measure per-test line coverage of these source paths (relative to the workdir). */
  coverage?: { source: string[] };
  /** The pytest config file pinned with `-c` (relative to the repo); null = none (an empty one of
   *  the harness); default: the file pytest itself would pick for these tests (findPytestConfig). */
  config?: string | null;
  /** Repo files (relative) allowed to implement pytest hooks besides conftest.py files: the plugins
   *  the pinned configuration names (trusted.ts finds them). */
  trustedPlugins?: string[];
  /** Files the agent changed (relative) → the run-time audit kinds their original code already used
   *  ("frame", "gc", "ctypes", "trace", "audit", "exec"): the harness reports any other kind
   *  reached from these files, and trusts no plugin, hook or test function defined in them. */
  untrusted?: Record<string, string[]>;
  /** The project's package roots put first on sys.path and the modules checked for shadows
   *  (default: repoLayout of the workdir; null: none, the repo root alone as before). */
  layout?: RepoLayout | null;
  /** The repo's Python environment (default: the one ensurePyEnv made for this repo, if any;
   *  null: the system interpreter). */
  pyenv?: PyEnv | null;
  /** false: never the warm grader (default: a read-only run on a BwrapSandbox whose `warm` is on
   *  uses it where it works; see warm.ts). */
  warm?: boolean;
}

/** The arguments a task's `test_command` gives pytest ("python3 -m pytest -q -x" → ["-q", "-x"]). */
export function pytestArgsFromCommand(command: string): string[] {
  const words = command.match(/"[^"]*"|'[^']*'|\S+/g)?.map((w) => w.replace(/^(["'])(.*)\1$/, "$2")) ?? [];
  const i = words.findIndex((w, k) => /(^|\/)(py\.test|pytest)$/.test(w) && (k === 0 || words[k - 1] === "-m" || /(^|\/)python[\d.]*$/.test(words[0]!)));
  if (i < 0) throw new Error(`test_command ${JSON.stringify(command)}: the grader runs pytest; expected "pytest ARGS" or "python3 -m pytest ARGS"`);
  const before = words.slice(0, i).filter((w) => w !== "-m" && !/(^|\/)python[\d.]*$/.test(w));
  if (before.length) throw new Error(`test_command ${JSON.stringify(command)}: unexpected ${before.join(" ")} before pytest`);
  return words.slice(i + 1);
}

const CONFIG_NAMES = ["pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"] as const;

/** Whether a file would serve pytest as its configuration (pytest's own rules). */
function isPytestConfig(name: string, text: string): boolean {
  if (name === "pytest.ini" || name === ".pytest.ini") return true;
  if (name === "pyproject.toml") return /^\[tool\.pytest\.ini_options\]/m.test(text);
  if (name === "tox.ini") return /^\[pytest\]/m.test(text);
  return /^\[tool:pytest\]/m.test(text);
}

/**
 * The config file pytest would choose for these tests in `repo` (relative path, or null): from the
 * common ancestor of the test paths up to the repo root, the first directory holding pytest.ini,
 * .pytest.ini, pyproject.toml with [tool.pytest.ini_options], tox.ini with [pytest] or setup.cfg
 * with [tool:pytest]. Read from the task snapshot, then pinned with `-c`.
 */
export function findPytestConfig(repo: string, tests: string[] = []): string | null {
  const dirs = tests.map((t) => t.split("::")[0]!.split("/").slice(0, -1));
  let common = dirs[0] ?? [];
  for (const d of dirs.slice(1)) {
    let k = 0;
    while (k < common.length && k < d.length && common[k] === d[k]) k++;
    common = common.slice(0, k);
  }
  for (let depth = common.length; depth >= 0; depth--) {
    const rel = common.slice(0, depth).join("/");
    for (const name of CONFIG_NAMES) {
      const p = join(repo, rel, name);
      let text: string;
      try {
        if (!lstatSync(p).isFile()) continue;
        text = readFileSync(p, "utf8");
      } catch {
        continue;
      }
      if (isPytestConfig(name, text)) return rel ? `${rel}/${name}` : name;
    }
  }
  return null;
}

/** file (relative) → line → node ids of the tests that ran it. */
export type CoverageMap = Record<string, Record<number, string[]>>;

export async function runPytest(sandbox: Sandbox, workdir: string, opts: PytestOptions = {}): Promise<PytestRun> {
  // the layout and environment are looked up once, for both runs below, without blocking the
  // event loop (many grades run at once; a blocked loop starves their guarded reads)
  await pytestVersionAsync();
  const pyenv = opts.pyenv === undefined ? findPyEnv(workdir) : opts.pyenv;
  if (pyenv) await pytestVersionAsync(`${pyenv.dir}/bin/python`);
  opts = { ...opts, layout: opts.layout === undefined ? await layoutOrNull(workdir) : opts.layout, pyenv };
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
    return {
      ...(second ?? first), tests, counts, collectionErrors: first.collectionErrors, forged: first.forged + (second?.forged ?? 0),
      shadowed: [...first.shadowed, ...(second?.shadowed ?? []).filter((x) => !first.shadowed.some((y) => y.module === x.module))],
      tampered: [...first.tampered, ...(second?.tampered ?? [])], sessionFinished: first.sessionFinished && (second?.sessionFinished ?? true),
    };
  }
  return first;
}

const RESULT_PREFIX = "@composer-lab ";

/** Verifies the signed records on the harness's channel (stdout). */
export function readResultChannel(stdout: string, key: string, tag: string): { lines: Line[]; forged: number; tampered: string[]; sessionFinished: boolean } {
  const lines: Line[] = [];
  const tampered: string[] = [];
  const seen = new Set<string>();
  let forged = 0;
  let nextSeq = 0;
  let sessionFinished = false;
  for (const raw of stdout.split("\n")) {
    if (!raw.startsWith(RESULT_PREFIX)) continue;
    const rest = raw.slice(RESULT_PREFIX.length);
    const sp = rest.indexOf(" ");
    try {
      if (rest.slice(0, sp) !== tag) throw new Error("tag");
      const signed = JSON.parse(rest.slice(sp + 1)) as { r?: unknown; s?: unknown };
      const expected = typeof signed.r === "string" ? createHmac("sha256", key).update(signed.r).digest("hex") : "";
      if (typeof signed.s !== "string" || signed.s.length !== expected.length || !timingSafeEqual(Buffer.from(signed.s), Buffer.from(expected))) throw new Error("signature");
      const rec = JSON.parse(signed.r as string) as Line & { seq: number; tampered?: string[] };
      if (rec.seq !== nextSeq) tampered.push(`result record ${rec.seq} arrived where ${nextSeq} was due (replayed or dropped)`);
      nextSeq = rec.seq + 1;
      if (sessionFinished) tampered.push("result records after the session ended");
      const k = `${rec.nodeid}\u0000${rec.phase}`;
      if (rec.phase !== "collect" && seen.has(k)) tampered.push(`${rec.nodeid}: two ${rec.phase} reports`);
      seen.add(k);
      if (rec.phase === "session") {
        sessionFinished = true;
        tampered.push(...(rec.tampered ?? []));
      }
      lines.push(rec);
    } catch {
      forged++;
    }
  }
  return { lines, forged, tampered, sessionFinished };
}

/** The detected layout, or none when it cannot be read (the run then sees the repo root, as before). */
async function layoutOrNull(workdir: string): Promise<RepoLayout | null> {
  try {
    return await repoLayoutAsync(workdir);
  } catch {
    return null;
  }
}

/** The lab's own coverage settings: the project's [tool.coverage] / .coveragerc are not read (options
 *  the installed coverage does not know, or `source`/`omit` choices, would break or skew the map). */
const LAB_COVERAGERC = "[run]\nbranch = False\ndisable_warnings = module-not-imported, no-data-collected, module-not-measured\n";

async function runPytestOnce(sandbox: Sandbox, workdir: string, opts: PytestOptions): Promise<PytestRun> {
  const results = coverageDirFor(opts);
  const cfg = transientDir("pytest-cfg-");
  chmodSync(cfg.path, 0o755);
  try {
    const { tests, args, coverage, config, trustedPlugins, untrusted, layout: layoutOpt, pyenv: pyenvOpt, warm: _warm, ...runOpts } = opts;
    const bound = sandbox.name !== "none";
    const harness = bound ? HARNESS_MOUNT : harnessDir();
    const repo = bound ? SANDBOX_WORKDIR : realpathSync(workdir);
    const resultsIn = bound ? "/results" : results?.path ?? "";
    const cfgIn = bound ? CFG_MOUNT : cfg.path;
    const layout = layoutOpt === undefined ? await layoutOrNull(workdir) : layoutOpt;
    const pyenv = pyenvOpt === undefined ? findPyEnv(workdir) : pyenvOpt;
    const python = pyenv ? `${bound ? PYENV_MOUNT : pyenv.dir}/bin/python` : "python3";
    const notes: string[] = [];
    let pinned = config === undefined ? findPytestConfig(workdir, tests) : config;
    let pinnedPath = pinned ? `${repo}/${pinned}` : `${harness}/pytest.ini`;
    if (pinned) {
      // A config the installed pytest refuses (minversion) runs through a lab copy, and says so.
      const name = pinned.split("/").pop()!;
      const compat = pytestCompat(readFileSync(join(workdir, pinned), "utf8"), pinned, pytestVersion(pyenv ? `${pyenv.dir}/bin/python` : SYSTEM_PYTHON));
      if (compat.replacement !== null) {
        writeFileSync(join(cfg.path, name), compat.replacement);
        pinnedPath = `${cfgIn}/${name}`;
        notes.push(...compat.notes);
      }
    }
    writeFileSync(join(cfg.path, "coveragerc"), LAB_COVERAGERC);
    const covArgs = coverage ? ["-p", "pytest_cov", ...coverage.source.map((s) => `--cov=${s}`), "--cov-context=test", "--cov-report=", `--cov-config=${cfgIn}/coveragerc`] : [];
    const pytest = [
      // -I: nothing from the repo or the environment on sys.path; -B and a private pycache prefix:
      // no bytecode written, none planted in the repo's __pycache__ read.
      python, "-I", "-B", "-X", `pycache_prefix=${bound ? "/tmp/pycache" : join(harness, "pycache")}`, `${harness}/harness.py`, repo, "--",
      "-c", pinnedPath, `--rootdir=${repo}`, `--confcutdir=${repo}`,
      "-p", "no:cacheprovider", "--continue-on-collection-errors", "-q", "--no-header", "-rN", ...covArgs, ...(args ?? []), ...(tests ?? []),
    ];
    // With coverage, the same sandbox run also writes the per-test line map as JSON.
    const q = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
    const cmd = coverage
      ? ["/bin/sh", "-c", `${pytest.map(q).join(" ")}; rc=$?; ${q(python)} -I -m coverage json -q --show-contexts --rcfile=${q(`${cfgIn}/coveragerc`)} -o ${q(`${resultsIn}/coverage.json`)} >/dev/null 2>&1; exit $rc`]
      : pytest;
    // A one-time key and tag, handed to the harness on stdin, sign every result record.
    const key = randomBytes(24).toString("hex");
    const tag = randomBytes(6).toString("hex");
    const env = {
      ...(trustedPlugins?.length ? { COMPOSER_LAB_TRUSTED_PLUGINS: trustedPlugins.join(":") } : {}),
      // (given even when empty: the harness then knows every other repo file is the snapshot's own)
      ...(untrusted ? { COMPOSER_LAB_UNTRUSTED: JSON.stringify(untrusted) } : {}),
      ...(coverage ? { COVERAGE_FILE: `${resultsIn}/.coverage` } : {}),
      ...(layout ? { COMPOSER_LAB_PATHS: JSON.stringify(layout.roots), COMPOSER_LAB_PROJECT: JSON.stringify(layout.packages.map((p) => p.name)) } : {}),
      ...runOpts.env,
    };
    const limits = { timeoutMs: 300_000, maxOutputBytes: 32_000_000, ...runOpts };
    // Grading (a read-only tree, no coverage, no extra binds) goes through the warm worker where
    // it works; anything else, or a grade whose zygote died under it, runs cold.
    const warm = sandbox instanceof BwrapSandbox && sandbox.warm && opts.warm !== false && (runOpts.workdirReadOnly || runOpts.scratchWorkdir) && !coverage && !runOpts.stdin && !Object.keys({ ...runOpts.roBinds, ...runOpts.rwBinds }).length
      ? warmWorker(sandbox, pyenv ?? null)
      : null;
    let run: RunResult | undefined;
    if (warm && (await warm.check()).ok) {
      const cfgFiles = Object.fromEntries(readdirSync(cfg.path).map((n) => [n, readFileSync(join(cfg.path, n), "utf8")]));
      try {
        run = await warm.run({ argv: pytest.slice(pytest.indexOf(`${harness}/harness.py`) + 1), env, workdir, cfgFiles, secret: `${key} ${tag}`, options: { ...limits, workdir } });
      } catch (e) {
        if (!(e instanceof WarmWorkerGone)) throw e;
      }
    }
    run ??= await sandbox.run(cmd, {
      ...limits,
      stdin: `${key} ${tag}\n`,
      workdir,
      env,
      roBinds: bound ? { [harnessDir()]: HARNESS_MOUNT, [cfg.path]: cfgIn, ...(pyenv ? { [pyenv.dir]: PYENV_MOUNT } : {}), ...runOpts.roBinds } : {},
      rwBinds: bound && results ? { [results.path]: "/results", ...runOpts.rwBinds } : {},
    });
    const channel = readResultChannel(run.stdout, key, tag);
    const folded = foldReports(channel.lines);
    const counts = Object.fromEntries(TestOutcome.options.map((o) => [o, 0])) as Record<TestOutcome, number>;
    for (const t of folded.tests) counts[t.outcome]++;
    const shadowed = channel.lines.filter((l) => l.phase === "shadow").map((l) => ({ module: l.nodeid, file: l.longrepr ?? "" }));
    return {
      ...folded, counts, run, forged: channel.forged, tampered: channel.tampered, sessionFinished: channel.sessionFinished, shadowed, notes,
      ...(coverage && results ? { coverage: await readCoverage(join(results.path, "coverage.json")) } : {}),
    };
  } finally {
    results?.remove();
    cfg.remove();
  }
}

function coverageDirFor(opts: PytestOptions): { path: string; remove: () => void } | undefined {
  if (!opts.coverage) return undefined;
  const d = transientDir("pytest-");
  chmodSync(d.path, 0o755);
  return d;
}

/** coverage.py's JSON (with --show-contexts) → file → line → test node ids. */
async function readCoverage(file: string): Promise<CoverageMap> {
  let raw: { files?: Record<string, { contexts?: Record<string, string[]> }> };
  try {
    raw = JSON.parse((await readGuarded(file, { maxBytes: 512 * 1024 * 1024, timeoutMs: 60_000 })).toString("utf8"));
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
