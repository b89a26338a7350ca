import { z } from "zod";

export const SANDBOX_NAMES = ["bwrap", "docker", "gvisor", "none"] as const;
export type SandboxName = (typeof SANDBOX_NAMES)[number];

/** Where the workdir appears inside a sandbox (its cwd). */
export const SANDBOX_WORKDIR = "/work";

/** One masked path: a package (a folder whose __init__ raises ImportError), a module (a .py that
 *  raises ImportError), a folder (empty) or a file (empty). */
export const MaskSpec = z.object({ path: z.string().startsWith("/"), kind: z.enum(["package", "module", "dir", "file"]) });
export type MaskSpec = z.infer<typeof MaskSpec>;

export const RunOptions = z.object({
  /** Host directory bound writable at /work (the only writable path besides a private /tmp). */
  workdir: z.string(),
  timeoutMs: z.number().int().positive().default(60_000),
  memoryMb: z.number().int().positive().default(1024),
  cpus: z.number().positive().default(1),
  pids: z.number().int().positive().default(256),
  /** The ONLY environment variables the command sees (plus PATH, HOME, LANG). */
  env: z.record(z.string()).default({}),
  /** stdout and stderr are each captured up to this many bytes; the rest is dropped. */
  maxOutputBytes: z.number().int().positive().default(1_000_000),
  /** Extra read-only binds: host path → path inside. */
  roBinds: z.record(z.string()).default({}),
  /** Extra writable binds: host path → path inside. */
  rwBinds: z.record(z.string()).default({}),
  stdin: z.string().optional(),
  /** Stop the run (timedOut, stalled) once its stdout has been silent this long after its first
   *  output: for a command that reports progress as it goes (the behavioural runner's lines and
   *  ticks), a hang costs this, not the whole `timeoutMs`. The sandboxes' own runs honour it (bwrap,
   *  gVisor, Docker, none); a warm fork and the swarm's job runner keep `timeoutMs` alone. */
  stallMs: z.number().int().positive().optional(),
  /** Total disk the run may fill in its writable places (workdir, writable binds, /tmp). */
  diskMb: z.number().int().positive().default(1024),
  /** Bind the workdir read-only (grading: the code under test cannot change any file of it). */
  workdirReadOnly: z.boolean().default(false),
  /** Bind a throwaway copy of the workdir writable: the run may write anywhere in it, nothing comes
   *  back (grading: tests that touch repo files work; the verdict never reads the copy). */
  scratchWorkdir: z.boolean().default(false),
  /** Workdir-relative paths bound read-only over the (writable) workdir: the harness's protected
   *  files and the conftest placeholders (lib/sandbox/grade.ts). */
  protectPaths: z.array(z.string()).default([]),
  /** Paths inside the sandbox hidden from the run (installed copies of the task's project:
   *  lib/sandbox/mask.ts); each masked by a read-only stub of its kind. */
  masks: z.array(MaskSpec).default([]),
  /** The run's host name (bwrap: its own UTS namespace). */
  hostname: z.string().regex(/^[a-z0-9-]{1,63}$/).default("sandbox"),
  /** Files under /proc or /etc the run reads with this content instead (bwrap: bound read-only
   *  there; e.g. another boot's /proc/sys/kernel/random/boot_id, a machine id, for the key probe's
   *  second run). */
  procFiles: z.record(z.string().regex(/^\/(proc|etc)\/[^\0]+$/, "a path under /proc/ or /etc/"), z.string()).default({}),
  /** Bound the run's CPU seconds by RLIMIT_CPU too (bwrap; default). Off: only the wall-clock
   *  timeout and the cgroup bound it (the behavioural check's run elsewhere: a finite RLIMIT_CPU is
   *  a sign of a sandbox a body could test for, round 11's a38). */
  cpuRlimit: z.boolean().default(true),
  /** The run's working directory inside the sandbox (default: the workdir's mount): a folder that
   *  exists there, e.g. under a read-only bind (a run at home starts where its user would). */
  cwd: z.string().regex(/^\/[^\0]*$/, "an absolute path").optional(),
  /** System accounts a machine has beside its base ones (a run as another user than the sandbox's:
   *  bwrap.ts passwdFor), e.g. a run at home's drawn ones. */
  accounts: z.array(z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/)).max(64).default([]),
  /** Folders inside the sandbox that are writable tmpfs mounts of `diskMb` (made before the binds,
   *  so a bind may lie inside one): a run at home's home folder, which its tree lies in. */
  tmpfs: z.array(z.string().regex(/^\/[^\0]+$/, "an absolute path")).max(8).default([]),
  /** Only `env`, without the sandbox's base variables (baseEnv): a run at home's environment is
   *  drawn whole. */
  bareEnv: z.boolean().default(false),
  /** No limit on a file's size (RLIMIT_FSIZE; else min(512, diskMb) MiB): for a run whose every
   *  writable place is a tmpfs of `diskMb` (the behavioural check's plain twin, as a deployment's
   *  process has none: round 39's w23 wrote at 200 MiB into a sparse file where the history ran). */
  fsizeUnlimited: z.boolean().default(false),
  /** The run's soft and hard limit on open files (RLIMIT_NOFILE). */
  nofile: z.number().int().min(16).max(1_048_576).default(512),
  /** The run's user (bwrap: its uid and gid, bwrap.ts passwdFor): the sandbox's own, the run
   *  elsewhere's (`sandbox-b`), or any other login name (a run at home's: uid 1000 on a Debian
   *  machine's /etc/passwd). */
  user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "a login name").default("sandbox"),
  /** The user's home folder in its /etc/passwd entry (a run at home's drawn one; default /home/USER):
   *  a service's, outside /home, makes it a system account (bwrap.ts accountId). */
  userHome: z.string().regex(/^\/[^\0:\n]*$/, "an absolute path").optional(),
  /** How long the run's machine has been up beyond this one's: CLOCK_MONOTONIC and CLOCK_BOOTTIME
   *  (time.monotonic, perf_counter, /proc/uptime) moved on by this many seconds (bwrap: a time
   *  namespace of its own, unshare(1) before bwrap, where this kernel allows one; other kinds: 0).
   *  A run at home's drawn uptime (round 23's a22, wrong only on a machine up for months). */
  uptimeS: z.number().int().min(0).max(20 * 365 * 86_400).default(0),
});
export type RunOptions = z.input<typeof RunOptions>;
export type ResolvedRunOptions = z.output<typeof RunOptions>;

export const RunResult = z.object({
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  timedOut: z.boolean(),
  /** Stopped because stdout was silent for `stallMs` (timedOut is true too). */
  stalled: z.boolean().default(false),
  oomKilled: z.boolean(),
  wallMs: z.number(),
  /** True when stdout or stderr went past maxOutputBytes. */
  outputTruncated: z.boolean(),
  sandbox: z.enum(SANDBOX_NAMES),
  /** The run was stopped for filling more than `diskMb` (where the cap is watched, not enforced). */
  diskExceeded: z.boolean().default(false),
  /** FIFOs, sockets and device nodes the run left in its workdir (removed), and files whose
   *  setuid/setgid/sticky bits were cleared. */
  sanitized: z.object({ removedSpecial: z.array(z.string()), clearedModes: z.array(z.string()) }).default({ removedSpecial: [], clearedModes: [] }),
});
export type RunResult = z.output<typeof RunResult>;

export interface Sandbox {
  readonly name: SandboxName;
  /** argv, or a string run by /bin/sh -c. */
  run(command: string | string[], opts: RunOptions): Promise<RunResult>;
  /** How many times slower than bubblewrap a run that makes many system calls is here (gVisor's
   *  ptrace platform: each one a round trip through its user-space kernel); a run's time budgets
   *  that are caps, not per-call timers, grow by it (the behavioural runner's 120 s). Default 1. */
  readonly slowdown?: number;
  /** Whether this sandbox works here, and why not. */
  check(): Promise<{ ok: boolean; why: string | null; detail?: Record<string, unknown> }>;
  /** A sandbox like this one that also carries a task's runtime dependencies (Docker: an image with
   *  them layered in); absent where the root is the host's and already has what is installed. */
  withTaskDeps?(requirements: string[]): Promise<{ sandbox: Sandbox; missing: string[] }>;
}

export const argv = (command: string | string[]): string[] => (typeof command === "string" ? ["/bin/sh", "-c", command] : command);

/** Variables every sandboxed command gets: nothing from the host. */
export function baseEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp", LANG: "C.UTF-8", PYTHONDONTWRITEBYTECODE: "1", ...extra };
}
