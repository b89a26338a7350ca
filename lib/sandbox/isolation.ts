/**
 * Who sandboxed code runs as on the host, and what it leaves behind.
 *
 * - When the lab runs as root, sandboxed code never runs as host root: bwrap is started as the
 *   dedicated unprivileged user `composer-lab-sandbox` (made by scripts/setup.sh; `nobody` where it
 *   is missing), so the user namespace maps the sandbox user to that uid, and Docker containers run
 *   as it (not as a uid a real host user may have).
 * - As root, a run's workdir is staged on a tmpfs of `diskMb` (nosuid, nodev) owned by that user:
 *   a hard cap on what the run can write, and setuid bits or device nodes made inside are inert.
 *   Writable runs copy the result back; read-only runs (grading) just unmount.
 * - Whatever comes back is sanitized: FIFOs, sockets and device nodes removed, setuid / setgid /
 *   sticky bits cleared, everything owned by the invoking user.
 * - Without root (no mounts), a watcher stops a run whose writable places grow past `diskMb`.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, lchownSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, type Dirent, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { transientDir, transientRootDir } from "../core/index.js";

export const SANDBOX_USER = "composer-lab-sandbox";
const NOBODY = 65534;

let hostIds: { uid: number; gid: number; user: string } | undefined;

/** The unprivileged host uid/gid sandboxed code runs as when the lab runs as root. */
export function sandboxHostIds(): { uid: number; gid: number; user: string } {
  if (hostIds) return hostIds;
  const r = spawnSync("getent", ["passwd", SANDBOX_USER], { encoding: "utf8" });
  const f = r.status === 0 ? r.stdout.trim().split(":") : [];
  const uid = Number(f[2]);
  const gid = Number(f[3]);
  hostIds = Number.isInteger(uid) && uid > 0 && Number.isInteger(gid) && gid > 0 ? { uid, gid, user: SANDBOX_USER } : { uid: NOBODY, gid: 65534, user: "nobody" };
  return hostIds;
}

export const runningAsRoot = (): boolean => process.getuid?.() === 0;

/** The command prefix that drops to the sandbox's host user (sandboxHostIds) where the lab runs as
 *  root, before bwrap or anything else that makes a user namespace: it then maps to that uid. */
export function asSandboxUser(): string[] {
  if (!runningAsRoot()) return [];
  const ids = sandboxHostIds();
  return ["setpriv", `--reuid=${ids.uid}`, `--regid=${ids.gid}`, "--clear-groups", "--no-new-privs", "--"];
}

export interface SanitizeReport {
  /** FIFOs, sockets and device nodes removed, and folders nested past MAX_TREE_DEPTH. */
  removedSpecial: string[];
  /** Files whose setuid / setgid / sticky bits were cleared. */
  clearedModes: string[];
  bytes: number;
}

/** Folders nested deeper than this are removed whole: no repo needs them, and tools that recurse
 *  (copies, walkers) or build paths (PATH_MAX) break on them. */
export const MAX_TREE_DEPTH = 64;

/** Walks a tree without following links (iteratively): removes special files and over-deep folders,
 *  clears special mode bits and (as root) hands everything to `owner`. */
export function sanitizeTree(dir: string, owner?: { uid: number; gid: number }): SanitizeReport {
  const rep: SanitizeReport = { removedSpecial: [], clearedModes: [], bytes: 0 };
  const fix = (p: string, r: string, st: Stats) => {
    if (owner && (st.uid !== owner.uid || st.gid !== owner.gid)) lchownSync(p, owner.uid, owner.gid);
    if (st.isSymbolicLink()) return;
    // chown clears setuid bits on regular files; clear them (and setgid, sticky) explicitly anyway
    if (st.mode & 0o7000) {
      chmodSync(p, st.mode & 0o777);
      rep.clearedModes.push(r);
    }
    // a directory the sandbox user made unreadable must not stop the walk or the copy back
    if (st.isDirectory() && (st.mode & 0o700) !== 0o700) chmodSync(p, (st.mode & 0o777) | 0o700);
  };
  fix(dir, ".", lstatSync(dir));
  const stack: { path: string; rel: string; depth: number }[] = [{ path: dir, rel: "", depth: 0 }];
  while (stack.length) {
    const { path: d, rel, depth } = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isFIFO() || st.isSocket() || st.isCharacterDevice() || st.isBlockDevice()) {
        rmSync(p, { force: true });
        rep.removedSpecial.push(r);
        continue;
      }
      if (st.isDirectory() && depth + 1 >= MAX_TREE_DEPTH) {
        // coreutils rm walks iteratively: safe on chains deeper than PATH_MAX
        spawnSync("rm", ["-rf", "--", e.name], { cwd: d });
        rep.removedSpecial.push(`${r}/… (nested past ${MAX_TREE_DEPTH} levels)`);
        continue;
      }
      fix(p, r, st);
      if (st.isDirectory()) stack.push({ path: p, rel: r, depth: depth + 1 });
      else rep.bytes += st.size;
    }
  }
  return rep;
}

/**
 * Visits every entry of a tree without following links, iteratively (chains deeper than the JS
 * stack or PATH_MAX are fine). `visit` gets the entry's path, its path relative to `root` and the
 * dirent; returning false skips a directory's contents (or, for a file, nothing), and "stop" ends
 * the walk. Unreadable directories are skipped.
 */
export function walkTree(root: string, visit: (path: string, rel: string, entry: Dirent) => boolean | "stop" | void): void {
  const stack: [string, string][] = [[root, ""]];
  while (stack.length) {
    const [dir, rel] = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      const go = visit(p, r, e);
      if (go === "stop") return;
      if (go !== false && e.isDirectory()) stack.push([p, r]);
    }
  }
}

/** Bytes under a tree (not following links), stopping early once past `limit`. */
export function treeBytes(dir: string, limit = Infinity): number {
  let total = 0;
  walkTree(dir, (p, _r, e) => {
    if (total > limit) return false;
    if (e.isDirectory()) return;
    try {
      const st = lstatSync(p);
      total += st.blocks * 512 || st.size;
    } catch {
      /* vanished */
    }
  });
  return total;
}

export interface StagedWorkdir {
  /** The directory to bind into the sandbox. */
  path: string;
  /** Whether `path` is a size-capped tmpfs (a hard disk cap); false = watch it instead. */
  hardCap: boolean;
  /** Sanitizes the staged tree, copies it back (writable runs) and removes the stage. */
  finish(): SanitizeReport;
}

function mountTmpfs(dir: string, bytes: number, uid: number, gid: number): boolean {
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0700,uid=${uid},gid=${gid},nosuid,nodev`, "composer-lab-run", dir], { encoding: "utf8" });
  return r.status === 0;
}

/** Replaces `dst`'s contents with `src`'s (both sanitized trees; links copied as links). */
function replaceContents(src: string, dst: string): void {
  for (const e of readdirSync(dst)) rmSync(join(dst, e), { recursive: true, force: true });
  for (const e of readdirSync(src)) cpSync(join(src, e), join(dst, e), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
}

let reaped = false;

/** Unmounts and removes stages left by lab processes that were killed (SIGKILL runs no cleanup). */
function reapStaleStages(): void {
  if (reaped) return;
  reaped = true;
  for (const root of new Set([tmpdir(), transientRootDir()])) {
    for (const name of readdirSync(root)) {
      const m = name.match(/^composer-lab-stage-(\d+)-/);
      if (!m) continue;
      try {
        process.kill(Number(m[1]), 0);
        continue; // its process is alive
      } catch {
        /* dead: reap */
      }
      const dir = join(root, name);
      spawnSync("umount", ["-l", join(dir, "work")]);
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Prepares a workdir for one sandboxed run. As root: a tmpfs of `diskMb` owned by the sandbox
 * user, holding a copy of the workdir. Otherwise the workdir itself (hardCap false).
 */
export function stageWorkdir(workdir: string, opts: { diskMb: number; writable: boolean; copy?: boolean }): StagedWorkdir {
  const owner = statSync(workdir);
  // an empty folder bound read-only (the run elsewhere's and at home's: their tree is bound
  // elsewhere) has nothing to copy, own or sanitize: no tmpfs (its mount and unmount were ≈ 30 ms of
  // the grader's CPU a run, spent blocking its event loop)
  if (!opts.writable && !opts.copy && readdirSync(workdir).length === 0) return { path: workdir, hardCap: false, finish: () => ({ removedSpecial: [], clearedModes: [], bytes: 0 }) };
  const giveBack = { uid: owner.uid, gid: owner.gid };
  if (!runningAsRoot()) {
    if (opts.copy) {
      // a scratch run writes into a copy that nothing reads afterwards
      const scratch = transientDir(`scratch-${process.pid}-`);
      replaceContents(workdir, scratch.path);
      return { path: scratch.path, hardCap: false, finish: () => {
        const rep = sanitizeTree(scratch.path);
        scratch.remove();
        return rep;
      } };
    }
    return { path: workdir, hardCap: false, finish: () => sanitizeTree(workdir) };
  }
  const ids = sandboxHostIds();
  reapStaleStages();
  let mounted = false;
  let mnt = "";
  const stage = transientDir(`stage-${process.pid}-`, () => {
    if (mounted) spawnSync("umount", ["-l", mnt]);
    mounted = false;
  });
  chmodSync(stage.path, 0o711); // the sandbox user must reach the mount point inside
  mnt = join(stage.path, "work");
  mkdirSync(mnt);
  mounted = mountTmpfs(mnt, opts.diskMb * 1024 * 1024, ids.uid, ids.gid);
  if (!mounted) {
    // No tmpfs here (e.g. a container without CAP_SYS_ADMIN): own the copy, watch its size.
    stage.remove();
    sanitizeTree(workdir, ids);
    return { path: workdir, hardCap: false, finish: () => sanitizeTree(workdir, giveBack) };
  }
  const unmount = () => stage.remove();
  try {
    replaceContents(workdir, mnt);
    sanitizeTree(mnt, ids);
    chmodSync(mnt, 0o755);
  } catch (e) {
    unmount();
    throw e;
  }
  return {
    path: mnt,
    hardCap: true,
    finish: () => {
      try {
        const rep = sanitizeTree(mnt, giveBack);
        if (opts.writable) replaceContents(mnt, workdir);
        return rep;
      } finally {
        unmount();
      }
    },
  };
}

/** The protected paths (workdir-relative) that exist in `root` as files or folders, not links and
 *  not reached through a link: what a sandbox binds read-only over a writable tree. */
export function protectedInside(root: string, rels: string[]): string[] {
  const out: string[] = [];
  for (const rel of rels) {
    if (!rel || rel.startsWith("/") || rel.split("/").some((p) => p === ".." || p === "." || p === "")) continue;
    let ok = true;
    let cur = root;
    for (const part of rel.split("/")) {
      cur = join(cur, part);
      try {
        const st = lstatSync(cur);
        if (st.isSymbolicLink() || !(st.isFile() || st.isDirectory())) ok = false;
      } catch {
        ok = false;
      }
      if (!ok) break;
    }
    if (ok) out.push(rel);
  }
  return out;
}

/** As root, hands extra writable binds to the sandbox user for a run; the returned function hands
 *  them back (sanitized) to their owners. Without root only the sanitizing happens. */
export function lendDirs(dirs: string[]): () => void {
  const owners = dirs.map((d) => statSync(d));
  if (runningAsRoot()) for (const d of dirs) sanitizeTree(d, sandboxHostIds());
  return () => dirs.forEach((d, i) => sanitizeTree(d, runningAsRoot() ? { uid: owners[i]!.uid, gid: owners[i]!.gid } : undefined));
}

/** Runs `onOver` once when the trees under `dirs` hold more than `maxBytes` (polled). */
export function watchDisk(dirs: string[], maxBytes: number, onOver: () => void, everyMs = 200): () => void {
  const timer = setInterval(() => {
    let total = 0;
    for (const d of dirs) total += treeBytes(d, maxBytes);
    if (total > maxBytes) {
      clearInterval(timer);
      onOver();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
