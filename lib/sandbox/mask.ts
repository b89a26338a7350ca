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
 *    Debian packages owning a match (their docs too) and in wheel caches;
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
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { harnessDir } from "./harness-dir.js";
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
export const maskStubInside = (kind: MaskSpec["kind"]): string => maskStub(kind, "/opt/composer-lab");

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
  const r = await sandbox.run([python, "-I", "/opt/composer-lab/mask_scan.py", JSON.stringify({ names, dists })], {
    workdir: snapshot, workdirReadOnly: true, timeoutMs: 120_000, memoryMb: 1024,
    roBinds: { [harnessDir()]: "/opt/composer-lab", ...(pyenv ? { [pyenv.dir]: PYENV_MOUNT } : {}), ...dpkg },
  });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new Error(`mask scan in ${sandbox.name} failed (exit ${r.exitCode ?? r.signal}): ${(r.stderr || r.stdout).slice(-600)}`);
  }
  return MaskPlan.parse({ ...(parsed as object), sandbox: label, why: null });
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
