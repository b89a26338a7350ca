/**
 * A Python repo's own code and environment, as the sandbox runs its tests:
 *  - repoLayout: where the project's importable code lives (src/, flat, namespace folders, the
 *    package dirs of pyproject.toml / setup.cfg / setup.py), read by layout.py without running the
 *    repo; runPytest puts those roots first on sys.path and the harness checks, after collection,
 *    that every project module the tests imported came from the repo (an installed copy of the
 *    project elsewhere is a "shadow");
 *  - ensurePyEnv: a virtual environment per repo (keyed by its packaging files), made inside the
 *    sandbox at PYENV_MOUNT with the system's site-packages visible and the repo installed editable
 *    offline with the build backends Debian ships (or, when that fails, none: the path entries
 *    above then carry the code alone). `deps` downloads the project's requirements and test extras
 *    on the host into a pinned wheel cache (where an index is reachable) and installs them from it.
 *    The same environment, bound read-only at the same place, is used at build and grade time;
 *  - pytestCompat: a project's pytest config that the installed pytest cannot load as it is
 *    (a `minversion` above it) is reported, with the fix, and run through a lab copy without it.
 */
import { createHash, randomBytes } from "node:crypto";
import { execFile, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Dirent } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { projectRoot, tempDir } from "../core/index.js";
import { SANDBOX_WORKDIR, type Sandbox } from "./types.js";
import { harnessDir } from "./harness-dir.js";

/** Where a repo's environment appears inside a sandbox (the path it was made at). */
export const PYENV_MOUNT = "/opt/composer-lab-pyenv";
/** Debian's interpreter: the one whose pytest, pluggy and coverage the sandbox binds. */
export const SYSTEM_PYTHON = "/usr/bin/python3";

export const RepoLayout = z.object({
  kind: z.enum(["src", "flat", "configured", "namespace"]),
  /** Folders (relative to the repo, "." = its root) put first on sys.path, in this order. */
  roots: z.array(z.string()),
  /** Top-level importable names the project provides, and where. */
  packages: z.array(z.object({ name: z.string(), path: z.string(), namespace: z.boolean() })),
  /** Where the answer was read (packaging metadata or the tree). */
  source: z.string(),
  deps: z.object({ requirements: z.array(z.string()), files: z.array(z.string()) }),
});
export type RepoLayout = z.infer<typeof RepoLayout>;

const PACKAGING_FILES = ["pyproject.toml", "setup.cfg", "setup.py", "requirements.txt", "requirements-test.txt", "requirements-dev.txt", "test-requirements.txt", "tests/requirements.txt"];

const fileStamp = (repo: string, files: string[]) =>
  files.map((f) => {
    try {
      const s = statSync(join(repo, f));
      return `${f}:${s.size}:${s.mtimeMs}`;
    } catch {
      return `${f}:-`;
    }
  }).join("|");

const layoutCache = new Map<string, RepoLayout>();

/** What layout.py reads, as one key: the packaging files' text and every path of the tree with
 *  its kind (a link as what it points at), so a copy of a repo (a grade's workdir) hits the cache
 *  its original filled. null for trees too large or deep to list cheaply (keyed by path then). */
function layoutContentKey(repo: string): string | null {
  const h = createHash("sha256");
  for (const f of ["pyproject.toml", "setup.cfg", "setup.py"]) {
    try {
      h.update(`${f}\0${readFileSync(join(repo, f))}\0`);
    } catch {
      h.update(`${f}\0-\0`);
    }
  }
  let entries = 0;
  const stack: [string, string, number][] = [[repo, "", 0]];
  while (stack.length) {
    const [dir, rel, depth] = stack.pop()!;
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of list.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (++entries > 20_000 || depth > 24) return null;
      const p = join(dir, e.name);
      let kind = e.isDirectory() ? "d" : e.isFile() ? "f" : "o";
      if (e.isSymbolicLink()) {
        try {
          const st = statSync(p);
          kind = `l${st.isDirectory() ? "d" : st.isFile() ? "f" : "o"}`;
        } catch {
          kind = "l-";
        }
      }
      h.update(`${rel}/${e.name}\0${kind}\0`);
      if (kind === "d") stack.push([p, `${rel}/${e.name}`, depth + 1]);
    }
  }
  return h.digest("hex");
}

const layoutKey = (repo: string) => layoutContentKey(repo) ?? `${resolve(repo)}|${fileStamp(repo, [...PACKAGING_FILES, "src"])}`;
const layoutArgs = (repo: string) => ["-I", "-S", join(projectRoot(), "lib", "sandbox", "layout.py"), resolve(repo)];

/** Where the repo's own importable code lives (parse-only: nothing of the repo runs). */
export function repoLayout(repo: string): RepoLayout {
  const key = layoutKey(repo);
  const hit = layoutCache.get(key);
  if (hit) return hit;
  const r = spawnSync(SYSTEM_PYTHON, layoutArgs(repo), { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`layout of ${repo}: ${r.stderr || r.error?.message}`);
  const layout = RepoLayout.parse(JSON.parse(r.stdout));
  layoutCache.set(key, layout);
  return layout;
}

/** repoLayout without blocking the event loop (grading runs many at once). */
export async function repoLayoutAsync(repo: string): Promise<RepoLayout> {
  const key = layoutKey(repo);
  const hit = layoutCache.get(key);
  if (hit) return hit;
  const stdout = await new Promise<string>((res, rej) =>
    execFile(SYSTEM_PYTHON, layoutArgs(repo), { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (err, out, errText) => (err ? rej(new Error(`layout of ${repo}: ${errText || err.message}`)) : res(out))),
  );
  const layout = RepoLayout.parse(JSON.parse(stdout));
  layoutCache.set(key, layout);
  return layout;
}

const versions = new Map<string, string | null>();
const versionArgs = ["-I", "-c", "import pytest; print(pytest.__version__)"];

/** The pytest version an interpreter imports (null: none). */
export function pytestVersion(python = SYSTEM_PYTHON): string | null {
  if (!versions.has(python)) {
    const r = spawnSync(python, versionArgs, { encoding: "utf8" });
    versions.set(python, r.status === 0 ? r.stdout.trim() : null);
  }
  return versions.get(python)!;
}

/** pytestVersion without blocking the event loop; fills the same cache. */
export async function pytestVersionAsync(python = SYSTEM_PYTHON): Promise<string | null> {
  if (!versions.has(python)) {
    const v = await new Promise<string | null>((res) => execFile(python, versionArgs, { encoding: "utf8" }, (err, out) => res(err ? null : out.trim())));
    versions.set(python, v);
  }
  return versions.get(python)!;
}

/** Compares dotted versions numerically (pre-release tails ignored): <0, 0, >0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.+-]/).map((x) => Number.parseInt(x, 10)).map((n) => (Number.isNaN(n) ? 0 : n));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

const MINVERSION = /^([ \t]*minversion[ \t]*=[ \t]*["']?)([^"'\s#]+)(["']?.*)$/m;

export interface PytestCompat {
  /** The config text to run with instead of the repo's (null: the repo's own file as it is). */
  replacement: string | null;
  /** What was found, and the fix. */
  notes: string[];
}

/** Whether the installed pytest can load this config file; when not, a copy it can, and why. */
export function pytestCompat(configText: string, configName: string, installed: string | null): PytestCompat {
  const m = configText.match(MINVERSION);
  if (!m || !installed || compareVersions(m[2]!, installed) <= 0) return { replacement: null, notes: [] };
  return {
    replacement: configText.replace(MINVERSION, (_l, _a, v: string) => `# minversion = ${v}  (composer-lab: the installed pytest ${installed} is older; overridden)`),
    notes: [`${configName}: minversion ${m[2]} is above the installed pytest ${installed}; the suite ran with minversion overridden (fix: \`tasks build --deps\` on a machine with a package index installs pytest>=${m[2]} into the repo's environment, or install a newer pytest on the system)`],
  };
}

export const PyEnv = z.object({
  /** Host folder of the environment (bound at PYENV_MOUNT inside the sandbox). */
  dir: z.string(),
  key: z.string(),
  /** How the repo itself is installed: editable (offline), or only through path entries. */
  install: z.enum(["editable", "path"]),
  /** Why the editable install did not happen (the pip/build-backend error). */
  install_error: z.string().nullable(),
  /** --deps: what was asked, what is pinned in the wheel cache, and why it failed if it did. */
  deps: z.object({ asked: z.boolean(), requirements: z.array(z.string()), pinned: z.array(z.string()), error: z.string().nullable() }),
  created_s: z.number(),
});
export type PyEnv = z.infer<typeof PyEnv>;

/** Where per-repo environments are kept (readable by the sandbox user). */
export function pyenvRoot(): string {
  const dir = process.env.COMPOSER_LAB_PYENVS ?? "/var/tmp/composer-lab-pyenvs";
  mkdirSync(dir, { recursive: true });
  try {
    chmodSync(dir, 0o755);
  } catch {
    /* another user's folder: theirs to open up */
  }
  return dir;
}

/** The key of a repo's environment: its packaging files, the interpreter, and --deps. */
export function pyenvKey(repo: string, deps: boolean): string {
  return pyenvKeys(repo, [deps])[0]!;
}

/** The keys for several --deps choices, the packaging files read and hashed once. */
function pyenvKeys(repo: string, depsChoices: boolean[]): string[] {
  const h = createHash("sha256");
  for (const f of PACKAGING_FILES) h.update(`${f}\0${existsSync(join(repo, f)) ? readFileSync(join(repo, f)) : ""}\0`);
  return depsChoices.map((deps) => h.copy().update(`${deps}\0${pytestVersion() ?? ""}`).digest("hex").slice(0, 16));
}

/** An existing environment for this repo (grading finds the build's environment this way). */
export function findPyEnv(repo: string): PyEnv | null {
  const root = process.env.COMPOSER_LAB_PYENVS ?? "/var/tmp/composer-lab-pyenvs";
  if (!existsSync(root)) return null;
  let keys: string[];
  try {
    keys = pyenvKeys(repo, [true, false]);
  } catch {
    return null; // an unreadable packaging file: as if there were none
  }
  for (const key of keys) {
    try {
      const meta = join(root, key, "composer-lab-env.json");
      if (!existsSync(meta)) continue;
      const r = PyEnv.safeParse(JSON.parse(readFileSync(meta, "utf8")));
      if (r.success && existsSync(join(r.data.dir, "pyvenv.cfg"))) return r.data;
    } catch {
      /* an unreadable or torn record: as if there were none */
    }
  }
  return null;
}

const tail = (s: string, n = 600) => s.trim().split("\n").slice(-6).join("\n").slice(-n);
/** The build backend's own exception lines (pip wraps them in boilerplate), else the output's tail. */
const backendError = (s: string) => {
  const lines = s.split("\n").map((l) => l.trim()).filter((l) => /^[\w.]*(Error|Exception): /.test(l) || /^ERROR: /.test(l));
  return lines.length ? lines.slice(-2).join("; ").slice(0, 600) : tail(s);
};

/**
 * The repo's environment, made once and reused (keyed by its packaging files). The venv is made
 * and the repo installed inside the sandbox, at the path it is bound to later, so the editable
 * install's path entries point where the repo is mounted (/work) at build and at grade time.
 */
export function ensurePyEnv(repo: string, sandbox: Sandbox, opts: { deps?: boolean; log?: (m: string) => void } = {}): Promise<PyEnv> {
  // one making per key at a time in this process (parallel builds of one repo share it)
  const key = `${pyenvKey(repo, !!opts.deps)}:${sandbox.name}`;
  let p = making.get(key);
  if (!p) {
    p = makePyEnv(repo, sandbox, opts).finally(() => making.delete(key));
    making.set(key, p);
  }
  return p;
}

const making = new Map<string, Promise<PyEnv>>();

async function makePyEnv(repo: string, sandbox: Sandbox, opts: { deps?: boolean; log?: (m: string) => void }): Promise<PyEnv> {
  const deps = !!opts.deps;
  const key = pyenvKey(repo, deps);
  const dir = join(pyenvRoot(), key);
  const meta = join(dir, "composer-lab-env.json");
  if (existsSync(meta)) {
    const r = PyEnv.safeParse(JSON.parse(readFileSync(meta, "utf8")));
    if (r.success && existsSync(join(dir, "pyvenv.cfg"))) return r.data;
  }
  const t0 = performance.now();
  opts.log?.(`making the Python environment of ${repo} (${key})`);
  const layout = repoLayout(repo);
  const bound = sandbox.name !== "none";
  // In a sandbox the venv is made in a temp folder bound at PYENV_MOUNT, then renamed into place;
  // unsandboxed it is made where it stays (its paths are host paths).
  const building = bound ? `${dir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}` : dir;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  chmodSync(building, 0o755);
  const envPath = bound ? PYENV_MOUNT : dir;
  // --deps: resolve and download on the host (the sandbox has no network), pinned, into the env's wheel cache.
  const depInfo: PyEnv["deps"] = { asked: deps, requirements: layout.deps.requirements, pinned: [], error: null };
  if (deps) {
    const wheels = join(building, "wheels");
    mkdirSync(wheels, { recursive: true });
    const reqArgs = [...layout.deps.requirements, ...layout.deps.files.flatMap((f) => ["-r", join(repo, f)])];
    if (reqArgs.length) {
      const dl = spawnSync(SYSTEM_PYTHON, ["-m", "pip", "download", "--disable-pip-version-check", "--timeout", "15", "--retries", "0", "-d", wheels, ...reqArgs], { encoding: "utf8", timeout: 600_000 });
      if (dl.status !== 0) depInfo.error = `pip download failed (no package index reachable?): ${tail(dl.stderr || dl.stdout || String(dl.error))}`;
      else depInfo.pinned = (dl.stdout.match(/Saved \S+/g) ?? []).map((s) => s.replace(/^Saved .*\//, "")).sort();
    }
  }
  // The repo is installed from a throwaway copy (the backend may write egg-info or build folders).
  const copy = tempDir("pyenv-src-");
  let install: PyEnv["install"] = "path";
  let installError: string | null = null;
  try {
    cpSync(repo, copy.path, { recursive: true, filter: (src) => !/[\\/](\.git|\.tox|\.nox|node_modules|__pycache__)$/.test(src) });
    const work = bound ? SANDBOX_WORKDIR : copy.path;
    const py = `${envPath}/bin/python`;
    const q = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
    const pipOffline = `${q(py)} -m pip install --disable-pip-version-check --no-index --no-build-isolation -q`;
    const script = [
      `set -e`,
      `${SYSTEM_PYTHON} -m venv --system-site-packages --without-pip ${q(envPath)}`,
      ...(deps && depInfo.pinned.length ? [`${pipOffline} --find-links ${q(`${envPath}/wheels`)} ${depInfo.pinned.map((w) => q(`${envPath}/wheels/${w}`)).join(" ")} || echo "composer-lab: installing the pinned requirements failed" >&2`] : []),
      `${pipOffline} --no-deps -e ${q(work)} >&2 && echo composer-lab-editable-ok || echo composer-lab-editable-failed`,
    ].join("\n");
    const run = await sandbox.run(["/bin/sh", "-c", script], {
      workdir: copy.path, timeoutMs: 600_000, memoryMb: 2048, diskMb: 4096,
      // a snapshot has no VCS metadata: setuptools-scm / hatch-vcs get a version instead of failing
      env: { PIP_NO_INPUT: "1", PIP_CACHE_DIR: "/tmp/pip-cache", HOME: "/tmp", SETUPTOOLS_SCM_PRETEND_VERSION: "0.0.0+composer.lab" },
      ...(bound ? { rwBinds: { [building]: PYENV_MOUNT } } : {}),
    });
    if (run.stdout.includes("composer-lab-editable-ok")) install = "editable";
    else installError = backendError(run.stderr || run.stdout || `exit ${run.exitCode}`);
    if (!existsSync(join(building, "pyvenv.cfg"))) throw new Error(`could not make a virtual environment for ${repo}: ${tail(run.stderr)}`);
  } finally {
    copy.remove();
  }
  const env: PyEnv = { dir, key, install, install_error: installError, deps: depInfo, created_s: Number(((performance.now() - t0) / 1000).toFixed(2)) };
  if (bound) {
    writeFileSync(join(building, "composer-lab-env.json"), JSON.stringify(env));
    if (existsSync(meta)) rmSync(building, { recursive: true, force: true }); // another process made it meanwhile
    else {
      rmSync(dir, { recursive: true, force: true });
      renameSync(building, dir);
    }
  } else writeFileSync(meta, JSON.stringify(env));
  return env;
}

/** What the grading interpreter makes of an import (harness/import_check.py): "ok", "missing" (a
 *  standard-library module or name this build lacks) or "undeclared" (a module of a distribution
 *  the project does not require). */
export type ImportVerdict = "ok" | "missing" | "undeclared";
const asked_ = new Map<string, Promise<ImportVerdict>>();
/** `items` ("module" or "module:name") as `python` judges them for the project at `repo`, each
 *  asked once per interpreter and project (one interpreter run for those not yet asked). The hack
 *  monitor flags an added import that is not "ok" (OPTIONAL_IMPORT in lib/tasks/pyast.py). */
export async function importVerdicts(python: string, repo: string, items: string[]): Promise<Record<string, ImportVerdict>> {
  const key = (i: string) => `${python}\0${repo}\0${i}`;
  const fresh = [...new Set(items)].filter((i) => !asked_.has(key(i)));
  if (fresh.length) {
    const asked = new Promise<Record<string, ImportVerdict>>((done, fail) =>
      execFile(python, ["-I", join(harnessDir(), "import_check.py"), JSON.stringify({ repo, items: fresh })], { cwd: "/", timeout: 60_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) => {
        if (err) return fail(new Error(`${python} could not judge the imports: ${err.message.slice(0, 200)}`));
        done(z.record(z.string(), z.enum(["ok", "missing", "undeclared"])).parse(JSON.parse(stdout)));
      }),
    );
    for (const i of fresh) {
      const one = asked.then((r) => r[i] ?? "missing");
      asked_.set(key(i), one);
      // (a failure is not kept: the next grade asks again)
      one.catch(() => asked_.delete(key(i)));
    }
  }
  return Object.fromEntries(await Promise.all(items.map(async (i) => [i, await asked_.get(key(i))!] as const)));
}
