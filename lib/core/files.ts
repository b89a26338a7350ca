/**
 * File access for trees that untrusted code has written (agent workdirs, sandbox outputs): never
 * follow a link, never open a FIFO or device in a way that can block, never read more than a cap,
 * and give up after a timeout. Plus temp folders that are removed on every exit path.
 */
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class GuardedReadError extends Error {
  constructor(readonly path: string, readonly reason: "missing" | "link" | "not_regular" | "too_large" | "timeout" | "io", message: string) {
    super(message);
  }
}

export interface GuardedReadOptions {
  /** Refuse files larger than this (default 16 MiB). */
  maxBytes?: number;
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
}

/**
 * Reads a regular file without following a final symlink (O_NOFOLLOW), without blocking on a FIFO
 * (O_NONBLOCK, then fstat must say "regular file"), up to `maxBytes`, within `timeoutMs`.
 * Throws GuardedReadError naming the path and why.
 */
export async function readGuarded(path: string, opts: GuardedReadOptions = {}): Promise<Buffer> {
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, rej) => {
    timer = setTimeout(() => rej(new GuardedReadError(path, "timeout", `${path}: read did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  const read = (async () => {
    let fh;
    try {
      fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") throw new GuardedReadError(path, "missing", `${path}: no such file`);
      if (code === "ELOOP") throw new GuardedReadError(path, "link", `${path}: is a symbolic link (not followed)`);
      throw new GuardedReadError(path, "io", `${path}: ${(e as Error).message}`);
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new GuardedReadError(path, "not_regular", `${path}: not a regular file (a FIFO, socket, device or directory)`);
      if (st.size > maxBytes) throw new GuardedReadError(path, "too_large", `${path}: ${st.size} bytes, more than the ${maxBytes}-byte cap`);
      const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
      let n = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
        if (bytesRead === 0) break;
        n += bytesRead;
        if (n >= buf.length) throw new GuardedReadError(path, "too_large", `${path}: grew past the ${maxBytes}-byte cap while being read`);
      }
      return buf.subarray(0, n);
    } finally {
      await fh.close();
    }
  })();
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** readGuarded as UTF-8 text; `null` when the file is missing. Other refusals throw. */
export async function readTextGuarded(path: string, opts: GuardedReadOptions = {}): Promise<string | null> {
  try {
    return (await readGuarded(path, opts)).toString("utf8");
  } catch (e) {
    if (e instanceof GuardedReadError && e.reason === "missing") return null;
    throw e;
  }
}

/** Live temp folders → what must happen before they can be removed (e.g. unmounting). */
const liveTempDirs = new Map<string, (() => void) | undefined>();
let hooked = false;

function removeOne(path: string, before?: () => void): void {
  try {
    before?.();
    rmSync(path, { recursive: true, force: true });
  } catch {
    /* best effort on the way out: never let cleanup turn an exit into a crash */
  }
}

function removeLive(): void {
  for (const [d, before] of liveTempDirs) removeOne(d, before);
  liveTempDirs.clear();
}

/** The owner's pid is part of every temp folder's name (`composer-lab-<prefix>p<pid>-XXXXXX`). */
const OWNED = /^composer-lab-.*p(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Removes the temp folders of lab processes that are gone: a process killed with SIGKILL (a
 * timeout, the OOM killer) runs no exit hook. Only folders whose owner pid no longer exists and
 * that hold no mount point (what a dead owner mounted is left alone, never deleted through).
 */
export function sweepStaleTempDirs(dir = tmpdir()): string[] {
  const removed: string[] = [];
  let mounts: string[] = [];
  try {
    mounts = readFileSync("/proc/self/mountinfo", "utf8").split("\n").map((l) => l.split(" ")[4] ?? "").filter(Boolean);
  } catch {
    return removed; // no way to tell what is mounted: leave everything
  }
  for (const name of readdirSync(dir)) {
    const m = OWNED.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue; // alive (or not ours to signal: still alive)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ESRCH") continue;
    }
    const path = join(dir, name);
    if (mounts.some((mp) => mp === path || mp.startsWith(`${path}/`))) continue;
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      /* best effort */
    }
  }
  return removed;
}

const swept = new Set<string>();
function sweepOnce(root: string): void {
  if (swept.has(root)) return;
  swept.add(root);
  sweepStaleTempDirs(root);
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", removeLive);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(sig, () => {
      // Someone else handles this signal (a server draining its in-flight requests): its folders
      // are still in use, and go at its exit (the "exit" hook above).
      if (process.listenerCount(sig) > 0) return;
      removeLive();
      // Re-raise with the default action (the exit status then names the signal).
      process.kill(process.pid, sig);
    });
  }
}

/**
 * A fresh temp folder (`composer-lab-<prefix>p<pid>-…` under the OS temp dir) that is removed by
 * `remove()`, and otherwise when the process exits or is interrupted (SIGINT/SIGTERM/SIGHUP); one a
 * killed process left behind goes at the next lab process's first temp folder (sweepStaleTempDirs).
 * `beforeRemove` runs first either way (e.g. unmounting what was mounted inside).
 */
export function tempDir(prefix: string, beforeRemove?: () => void): { path: string; remove: () => void } {
  return tempDirIn(tmpdir(), prefix, beforeRemove);
}

const TMPFS_MAGIC = 0x01021994;
let transientRoot: string | undefined;

/** Where transientDir makes its folders: `COMPOSER_LAB_TRANSIENT_DIR`, else `TMPDIR` where the user
 *  set one (a test's private folder, a swarm's shared filesystem), else /dev/shm where it is a
 *  writable tmpfs with ≥ 1 GiB free, else the OS temp dir. */
export function transientRootDir(): string {
  if (transientRoot !== undefined) return transientRoot;
  const chosen = process.env.COMPOSER_LAB_TRANSIENT_DIR || (process.env.TMPDIR ? tmpdir() : null);
  if (chosen) return (transientRoot = chosen);
  try {
    const st = statfsSync("/dev/shm");
    accessSync("/dev/shm", constants.W_OK);
    if (st.type === TMPFS_MAGIC && st.bavail * st.bsize >= 2 ** 30) return (transientRoot = "/dev/shm");
  } catch {
    /* no /dev/shm here */
  }
  return (transientRoot = tmpdir());
}

/**
 * tempDir for a small folder that lives for one run (a grade's tree, a runner's request, a staged
 * copy): in memory where the machine has a tmpfs (transientRootDir). On a disk mounted with `discard`,
 * removing a freshly written folder blocked the grader's event loop for 45–110 ms (its `rmdir`
 * waits on the journal), several times a grade; on /dev/shm the copy and removal take ≈ 1.5 ms.
 */
export function transientDir(prefix: string, beforeRemove?: () => void): { path: string; remove: () => void } {
  return tempDirIn(transientRootDir(), prefix, beforeRemove);
}

function tempDirIn(root: string, prefix: string, beforeRemove?: () => void): { path: string; remove: () => void } {
  hookExit();
  sweepOnce(root);
  const path = mkdtempSync(join(root, `composer-lab-${prefix}p${process.pid}-`));
  liveTempDirs.set(path, beforeRemove);
  return {
    path,
    remove: () => {
      liveTempDirs.delete(path);
      beforeRemove?.();
      rmSync(path, { recursive: true, force: true });
    },
  };
}
