/**
 * The original is not in the sandbox (issue 26 §3). A task's project may also be installed on the
 * machine (Debian's python3-markupsafe is byte-identical to the bundled markupsafe repo): code in a
 * sandbox that can read /usr could import it, read it, disassemble its bytecode, or delete the repo's
 * package so the installed one answers. Every run that touches a task (the agent's shell and test
 * runs, grading, the builder's gates) hides those copies:
 *
 *  - scanMasks runs harness/mask_scan.py INSIDE the sandbox kind that will run the task (its
 *    interpreter, sys.path and root filesystem; the task's snapshot at /work), looking for the
 *    project's import names and distribution names (from the task, its layout and its packaging
 *    metadata; never a fixed list) on every sys.path folder, in metadata RECORD files, in the
 *    Debian packages owning a match (their docs too) and in wheel caches; and, by name, anywhere on
 *    the sandbox's visible filesystem (rootIndex: an SDK's vendored third_party copy, a local package
 *    index's wheels, another tool's lib/ — importable by path and readable even off sys.path);
 *  - each hit is masked by a read-only stub of its kind: a package folder by a folder whose
 *    `__init__` raises ImportError (so deleting the repo's package finds the stub, not the copy), a
 *    module by a module that raises, metadata and docs by an empty folder or file. bwrap binds the
 *    stubs over the paths, Docker and gVisor mount them, the warm grader mounts them per grade;
 *  - the task records what was masked (FeatureDeletionTask.mask) at build time.
 *
 * What pytest itself imports before any test runs (pluggy, iniconfig for a pluggy / iniconfig task)
 * cannot be hidden from the pytest process: those names are masked in the agent's shell but not in
 * test runs, and the plan names them (`harness_needs`). `--sandbox none` masks nothing.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { HARNESS_MOUNT, harnessDir } from "./harness-dir.js";
import { PYENV_MOUNT, SYSTEM_PYTHON, findPyEnv, repoLayout, type PyEnv } from "./pyenv.js";
import type { MaskSpec, Sandbox } from "./types.js";

export const MaskEntry = z.object({
  path: z.string(),
  kind: z.enum(["package", "module", "dir", "file"]),
  /** The project name it belongs to (normalized). */
  name: z.string(),
  why: z.string(),
});
export type MaskEntry = z.infer<typeof MaskEntry>;

export const MaskPlan = z.object({
  /** The sandbox kind (and image) the scan ran in. */
  sandbox: z.string(),
  /** Import names and distribution names looked for (normalized; metadata adds more). */
  names: z.array(z.string()),
  dists: z.array(z.string()),
  entries: z.array(MaskEntry),
  /** Project names pytest itself imports: not masked in test runs (see the module comment). */
  harness_needs: z.array(z.string()),
  /** Why nothing could be scanned (the `none` sandbox, a failed scan). */
  why: z.string().nullable().default(null),
});
export type MaskPlan = z.infer<typeof MaskPlan>;

/** The host stub a mask of this kind binds (inside the harness folder every sandbox can read). */
export function maskStub(kind: MaskSpec["kind"], harness = harnessDir()): string {
  return join(harness, "mask", kind === "package" ? "pkg" : kind === "module" ? "mod.py" : kind === "dir" ? "empty" : "empty-file");
}

/** Where the stubs appear inside a sandbox that binds the harness at /opt/composer-lab. */
export const maskStubInside = (kind: MaskSpec["kind"]): string => maskStub(kind, HARNESS_MOUNT);

const plans = new Map<string, Promise<MaskPlan>>();

/** What kind of root filesystem a sandbox shows: the host's /usr (bwrap, gVisor) or an image's. */
const rootKey = (sandbox: Sandbox): string => (sandbox.name === "docker" ? `docker:${(sandbox as unknown as { image?: string }).image ?? ""}` : sandbox.name === "none" ? "none" : "host");

/** Scans `sandbox` for installed copies of the project at `snapshot` (names and distributions). */
export function scanMasks(sandbox: Sandbox, snapshot: string, want: { names: string[]; dists?: string[] }, opts: { pyenv?: PyEnv | null } = {}): Promise<MaskPlan> {
  const pyenv = opts.pyenv === undefined ? findPyEnv(snapshot) : opts.pyenv;
  const names = [...new Set(want.names)].sort();
  const dists = [...new Set(want.dists ?? [])].sort();
  const key = JSON.stringify([rootKey(sandbox), pyenv?.dir ?? "", names, dists, snapshot]);
  let p = plans.get(key);
  if (!p) {
    p = runScan(sandbox, snapshot, names, dists, pyenv);
    plans.set(key, p);
    p.catch(() => plans.delete(key));
  }
  return p;
}

async function runScan(sandbox: Sandbox, snapshot: string, names: string[], dists: string[], pyenv: PyEnv | null): Promise<MaskPlan> {
  const label = rootKey(sandbox);
  if (sandbox.name === "none") return { sandbox: label, names, dists, entries: [], harness_needs: [], why: "the none sandbox isolates nothing: installed copies stay visible" };
  const python = pyenv ? `${PYENV_MOUNT}/bin/python` : SYSTEM_PYTHON;
  // bwrap and gVisor show the host's /usr: its dpkg file lists say which Debian package owns a copy
  const dpkg: Record<string, string> = label === "host" && existsSync("/var/lib/dpkg/info") ? { "/var/lib/dpkg/info": "/var/lib/dpkg/info" } : {};
  // the host's root without a pyenv: the scan's answer is kept on disk while the host is unchanged
  const cache = label === "host" && !pyenv ? scanCacheFile(snapshot, names, dists) : null;
  let parsed: unknown = cache ? readScanCache(cache) : undefined;
  if (parsed === undefined) {
    const r = await sandbox.run([python, "-I", `${HARNESS_MOUNT}/mask_scan.py`, JSON.stringify({ names, dists })], {
      workdir: snapshot, workdirReadOnly: true, timeoutMs: 120_000, memoryMb: 1024,
      roBinds: { [harnessDir()]: HARNESS_MOUNT, ...(pyenv ? { [pyenv.dir]: PYENV_MOUNT } : {}), ...dpkg },
    });
    const line = r.stdout.trim().split("\n").pop() ?? "";
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(`mask scan in ${sandbox.name} failed (exit ${r.exitCode ?? r.signal}): ${(r.stderr || r.stdout).slice(-600)}`);
    }
    if (cache) writeScanCache(cache, parsed);
  }
  const { path_folders: pathFolders = [], archive_dirs: _archives, ...plan } = parsed as { path_folders?: string[]; archive_dirs?: string[] } & Record<string, unknown>;
  const out = MaskPlan.parse({ ...plan, sandbox: label, why: null });
  const root = await rootIndex(sandbox, snapshot);
  return withCopiesElsewhere(out, root.index, pathFolders, projectModules(snapshot), root.listing);
}

/**
 * The plan plus every copy of its names the root index finds anywhere but at the top of a sys.path
 * folder (the scan's own business). Off the top of sys.path a name alone says little (`utils`,
 * `core`, `config` name hundreds of unrelated modules inside other packages, some of them pytest's
 * own), so what is masked there is what is the project's: metadata and archives of its name; a
 * folder holding at least half of the modules of the project's package of that name; a module file
 * only where the project is that single module.
 */
export function withCopiesElsewhere(plan: MaskPlan, index: RootIndex, pathFolders: string[], project: ProjectModules = new Map(), listing: Record<string, string[]> = {}): MaskPlan {
  const entries = [...plan.entries];
  const covered = (p: string) => entries.some((e) => e.path === p || ((e.kind === "package" || e.kind === "dir") && p.startsWith(`${e.path}/`)));
  // A sys.path folder's own entries are the scan's (it knows editable installs there, whose code is
  // the repo); a copy nested deeper (a package's vendored third_party) is a copy like any other.
  const underPath = (p: string) => pathFolders.some((f) => p === f || p.slice(0, p.lastIndexOf("/")) === f);
  for (const name of plan.names) {
    for (const raw of index[name] ?? []) {
      const isDir = raw.endsWith("/");
      const path = isDir ? raw.slice(0, -1) : raw;
      if (underPath(path) || covered(path) || path.startsWith("/work/") || path.startsWith(`${HARNESS_MOUNT}/`)) continue;
      const meta = /\.(dist|egg)-info$/.test(path);
      const archive = /\.(whl|egg|zip|tar\.gz|tgz|tar\.bz2|tar\.xz)$/.test(path);
      const mine = project.get(name);
      if (!meta && !archive && mine !== undefined) {
        if (isDir) {
          if (mine === "module") continue;
          const have = new Set(listing[path] ?? []);
          const shared = mine.filter((m) => have.has(m)).length;
          if (shared < Math.max(1, Math.ceil(mine.length / 2))) continue;
        } else if (mine !== "module") continue;
      }
      const kind = isDir ? (meta ? "dir" : "package") : path.endsWith(".py") ? "module" : "file";
      // a folder masked now hides what was listed inside it
      if (isDir) for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.path.startsWith(`${path}/`)) entries.splice(i, 1);
      entries.push({ path, kind, name, why: isDir && !meta ? "a copy of the project off sys.path (importable by path, readable)" : "a file of the project off sys.path (source, bytecode, extension, archive, metadata or link)" });
    }
  }
  return { ...plan, entries: entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/** Normalized name → paths (a folder's ends in '/') of Python code and archives on a sandbox root. */
export type RootIndex = Record<string, string[]>;
/** The project's own modules by normalized top-level name: a package's module names, or "module". */
export type ProjectModules = Map<string, string[] | "module">;
interface IndexedRoot { index: RootIndex; listing: Record<string, string[]> }
const RootIndexFile = z.object({ stamp: z.string(), index: z.record(z.array(z.string())), listing: z.record(z.array(z.string())) });
const indexes = new Map<string, Promise<IndexedRoot>>();

/** What the snapshot's own packages hold (module names of each top-level package), by normalized name. */
export function projectModules(snapshot: string): ProjectModules {
  const out: ProjectModules = new Map();
  try {
    for (const p of repoLayout(snapshot).packages) {
      const top = p.name.split(".")[0]!;
      const key = top.toLowerCase().replace(/[-_.]+/g, "_");
      const full = join(snapshot, p.path);
      if (existsSync(full) && statSync(full).isDirectory()) {
        out.set(key, [...new Set(readdirSync(full).filter((f) => /\.(py|pyi|so)$/.test(f)).map((f) => f.split(".")[0]!))].sort());
      } else out.set(key, "module");
    }
  } catch {
    // no layout: every copy of the name is masked (the conservative side)
  }
  return out;
}

const maskCacheDir = (): string => process.env.COMPOSER_LAB_MASK_INDEX ?? "/var/tmp/composer-lab-mask-index";

/** Where a scan of the host's root for `names`/`dists` of `snapshot` is kept: named by the host's
 *  stamp, the request and the snapshot's packaging files (mask_scan.py reads the distribution names
 *  they declare). */
function scanCacheFile(snapshot: string, names: string[], dists: string[]): string {
  const h = createHash("sha256").update(JSON.stringify([hostStamp(), names, dists]));
  for (const f of ["pyproject.toml", "setup.cfg", "setup.py"]) {
    try {
      h.update(`${f}\0`).update(readFileSync(join(snapshot, f)));
    } catch {
      h.update(`${f}: none\0`);
    }
  }
  return join(maskCacheDir(), `scan-${h.digest("hex").slice(0, 32)}.json`);
}

/** The folders whose listing a scan's answer depends on beyond the host's stamp (the sys.path folders
 *  it walked, the wheel caches it walked: mask_scan.py's path_folders and archive_dirs): their
 *  modification times, which an install or removal in them moves. */
function scanFolderTimes({ path_folders: folders, archive_dirs: archives }: ScanFolders): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const stamp = (f: string): boolean => {
    try {
      out[f] = statSync(f).mtimeMs;
      return true;
    } catch {
      out[f] = null;
      return false;
    }
  };
  for (const f of folders) stamp(f);
  // the wheel caches are walked as the scan walks them: a wheel lands several folders down
  const walk = (dir: string, depth: number): void => {
    if (!stamp(dir) || depth > 6) return;
    try {
      for (const d of readdirSync(dir, { withFileTypes: true })) if (d.isDirectory()) walk(join(dir, d.name), depth + 1);
    } catch {
      // unreadable: its time alone
    }
  };
  for (const d of archives) walk(d, 0);
  return out;
}
const ScanFolders = z.object({ path_folders: z.array(z.string()), archive_dirs: z.array(z.string()) });
type ScanFolders = z.infer<typeof ScanFolders>;
const ScanCacheFile = z.object({ folders: z.record(z.number().nullable()), scan: ScanFolders.passthrough() });

function readScanCache(file: string): unknown {
  try {
    const c = ScanCacheFile.parse(JSON.parse(readFileSync(file, "utf8")));
    const now = scanFolderTimes(c.scan);
    return Object.entries(now).every(([f, t]) => c.folders[f] === t) ? c.scan : undefined;
  } catch {
    return undefined; // none yet, or unreadable: scanned again
  }
}

function writeScanCache(file: string, scan: unknown): void {
  const folders = ScanFolders.safeParse(scan);
  if (!folders.success) return;
  try {
    mkdirSync(maskCacheDir(), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ folders: scanFolderTimes(folders.data), scan }));
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written costs the next process one scan, nothing else
  }
}

let hostStampMemo: { at: number; stamp: string } | null = null;
/** hostStamp, computed at most once a minute per process (it walks /usr to depth 3). */
function hostStamp(): string {
  if (!hostStampMemo || Date.now() - hostStampMemo.at > 60_000) hostStampMemo = { at: Date.now(), stamp: computeHostStamp() };
  return hostStampMemo.stamp;
}

/** What changes when software is installed on the host: the dpkg database, the pyenv shims' tree and
 *  the folders of /usr, /opt and /usr/local down to depth 3 (an unpacked SDK adds or touches one). */
function computeHostStamp(): string {
  const h = createHash("sha256").update(readFileSync(join(harnessDir(), "mask_scan.py")));
  const visit = (dir: string, depth: number) => {
    let st;
    try {
      st = statSync(dir);
    } catch {
      return;
    }
    h.update(`${dir}:${st.mtimeMs}\n`);
    if (depth === 0) return;
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    } catch {
      return;
    }
    for (const n of names) visit(join(dir, n), depth - 1);
  };
  for (const f of ["/var/lib/dpkg/status"]) if (existsSync(f)) h.update(`${f}:${statSync(f).mtimeMs}\n`);
  visit("/usr", 3);
  return h.digest("hex");
}

/** The sandbox root's index (mask_scan.py index_walk, run inside the sandbox), once per root per
 *  process; a host root's is also kept on disk while its stamp holds. */
export function rootIndex(sandbox: Sandbox, workdir: string): Promise<IndexedRoot> {
  const key = rootKey(sandbox);
  let p = indexes.get(key);
  if (!p) {
    p = buildRootIndex(sandbox, workdir, key);
    indexes.set(key, p);
    p.catch(() => indexes.delete(key));
  }
  return p;
}

async function buildRootIndex(sandbox: Sandbox, workdir: string, key: string): Promise<IndexedRoot> {
  const cacheDir = maskCacheDir();
  const file = key === "host" ? join(cacheDir, "host.json") : null;
  const stamp = key === "host" ? hostStamp() : key;
  if (file && existsSync(file)) {
    try {
      const r = RootIndexFile.parse(JSON.parse(readFileSync(file, "utf8")));
      if (r.stamp === stamp) return { index: r.index, listing: r.listing };
    } catch {
      // unreadable cache: rebuilt below
    }
  }
  const r = await sandbox.run([SYSTEM_PYTHON, "-I", `${HARNESS_MOUNT}/mask_scan.py`, JSON.stringify({ index: true })], {
    workdir, workdirReadOnly: true, timeoutMs: 180_000, memoryMb: 1024, maxOutputBytes: 256 * 1024 * 1024,
    roBinds: { [harnessDir()]: HARNESS_MOUNT },
  });
  let index: RootIndex;
  let listing: Record<string, string[]>;
  try {
    const got = JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as { index: unknown; listing: unknown };
    index = RootIndexFile.shape.index.parse(got.index);
    listing = RootIndexFile.shape.listing.parse(got.listing);
  } catch {
    throw new Error(`mask index walk in ${sandbox.name} failed (exit ${r.exitCode ?? r.signal}): ${(r.stderr || r.stdout).slice(-600)}`);
  }
  if (file) {
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ stamp, index, listing }));
    renameSync(tmp, file);
  }
  return { index, listing };
}

/** The masks of a plan for one kind of run: the agent's shell hides everything; test runs leave
 *  what pytest itself imports (harness_needs) where pytest finds it. */
export function masksFor(plan: MaskPlan | null | undefined, use: "pytest" | "shell"): MaskSpec[] {
  if (!plan) return [];
  const keep = use === "pytest" ? new Set(plan.harness_needs) : new Set<string>();
  return plan.entries.filter((e) => !keep.has(e.name)).map((e) => ({ path: e.path, kind: e.kind }));
}

/** The names a task's masks look for: what the task recorded, else its snapshot's layout. */
export function projectNames(snapshot: string, recorded?: { names: string[]; dists: string[] } | null): { names: string[]; dists: string[] } {
  if (recorded?.names.length) return { names: recorded.names, dists: recorded.dists };
  try {
    const layout = repoLayout(snapshot);
    return { names: layout.packages.map((p) => p.name.split(".")[0]!).filter(Boolean), dists: [] };
  } catch {
    return { names: [], dists: [] };
  }
}

/** Masks that apply where this sandbox's root is the host's: only paths that exist (a stub cannot be
 *  bound onto nothing inside the read-only /usr). Each path once, innermost dropped under a folder. */
export function existingMasks(masks: MaskSpec[]): MaskSpec[] {
  const out = masks.filter((m) => existsSync(m.path));
  return out.filter((m) => !out.some((o) => o !== m && (o.kind === "package" || o.kind === "dir") && m.path.startsWith(`${o.path}/`)));
}
