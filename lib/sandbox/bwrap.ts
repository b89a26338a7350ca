/**
 * bubblewrap: unprivileged namespaces (user, pid, net, ipc, uts, mount). Inside: /usr and a few
 * /etc files read-only, the workdir at /work (writable, or read-only for grading), a private /tmp
 * of at most `diskMb`, no network, no host environment; a per-run cgroup bounds pids, memory and
 * CPU where one can be made, prlimit bounds CPU time, file size and open files; a wall-clock
 * timeout kills the whole namespace. As root, bwrap itself runs as the unprivileged sandbox user
 * (isolation.ts), so the namespace's uid maps to that user, never to host root.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { supervise, type Supervised } from "./capture.js";
import { cgroupMode, createRunCgroup } from "./cgroup.js";
import { asSandboxUser, lendDirs, protectedInside, stageWorkdir, watchDisk, type SanitizeReport } from "./isolation.js";
import { existingMasks, maskStub } from "./mask.js";
import { RunOptions, SANDBOX_WORKDIR, argv, baseEnv, type RunResult, type Sandbox } from "./types.js";

/** /etc files a Python toolchain needs (only those that exist are bound). */
const ETC_FILES = ["/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime", "/etc/python3", "/etc/python3.11", "/etc/python3.12", "/etc/ssl/certs/ca-certificates.crt", "/etc/mime.types"];

/** The /etc/passwd and /etc/group a sandbox sees (fds 11 and 12 of bwrap). */
export const PASSWD = "root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:1000:1000:sandbox:/tmp:/bin/sh\nsandbox-b:x:1001:1001:sandbox-b:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
/** RunOptions.user → its uid (and gid); any other name is 1000. */
const USER_IDS: Record<string, number> = { sandbox: 1000, "sandbox-b": 1001 };
/** bwrap's fd of the first RunOptions.procFiles entry (11 and 12 carry /etc/passwd and /etc/group). */
export const PROC_FD = 13;
export const GROUP = "root:x:0:\nsandbox:x:1000:\nsandbox-b:x:1001:\nnogroup:x:65534:\n";

/** A Debian machine's system accounts, as its /etc/passwd and /etc/group list them. */
const DEBIAN_SYSTEM = ["root:0:/root:/bin/bash", "daemon:1:/usr/sbin", "bin:2:/bin", "sys:3:/dev", "sync:4:/bin:/bin/sync", "games:5:/usr/games", "man:6:/var/cache/man", "lp:7:/var/spool/lpd", "mail:8:/var/mail", "news:9:/var/spool/news", "uucp:10:/var/spool/uucp", "proxy:13:/bin", "www-data:33:/var/www", "backup:34:/var/backups", "list:38:/var/list", "irc:39:/run/ircd", "_apt:42:/nonexistent", "nobody:65534:/nonexistent", "systemd-network:998:/", "messagebus:104:/nonexistent", "sshd:105:/run/sshd"];

/** The /etc/passwd and /etc/group of a run as `user`: the sandbox's own two users, or (any other
 *  login name: a run at home) a Debian machine's accounts with `user` as its first login, uid 1000
 *  (root: uid 0, in the sandbox's user namespace: the host's sandbox user, with no capability). */
export function passwdFor(user: string, accounts: string[] = [], home?: string): { passwd: string; group: string; uid: number } {
  if (user in USER_IDS) return { passwd: PASSWD, group: GROUP, uid: USER_IDS[user]! };
  const uid = accountId(user, home);
  // (the machine's other system accounts, as packages add them: ids from 106 on; a service's own
  // account (www-data) with its drawn home)
  const base = DEBIAN_SYSTEM.map((e) => e.split(":")).map(([n, id, h, shell]) => (n === user && user !== "root" ? [n!, id!, home ?? h!, shell] : [n!, id!, h!, shell]));
  const system = [...base, ...accounts.filter((a) => a !== user).map((a, i) => [a, String(106 + i), "/nonexistent", undefined])];
  const accountsOf = system.map(([n, id, h, shell]) => `${n}:x:${id}:${n === "nobody" ? 65534 : id}:${n}:${h}:${shell ?? "/usr/sbin/nologin"}\n`).join("");
  const groupsOf = system.filter(([n]) => n !== "nobody").map(([n, id]) => `${n}:x:${id}:\n`).join("");
  // (root: a container's or a server's, the base accounts' own first line; a base account: its line)
  if (user === "root" || base.some(([n]) => n === user)) return { passwd: accountsOf, group: `${groupsOf}sudo:x:27:\nusers:x:100:\nnogroup:x:65534:\n`, uid };
  // (a login's: uid 1000, a shell, in sudo; a service's (a home outside /home): a system id, no login)
  const login = uid === 1000;
  const passwd = accountsOf + `${user}:x:${uid}:${uid}:${login ? `${user},,,` : user}:${home ?? `/home/${user}`}:${login ? "/bin/bash" : "/usr/sbin/nologin"}\n`;
  const group = groupsOf + `${login ? `sudo:x:27:${user}\n` : "sudo:x:27:\n"}users:x:100:${login ? user : ""}\nnogroup:x:65534:\n${user}:x:${uid}:\n`;
  return { passwd, group, uid };
}

/** The uid of a run at home's user on a Debian machine: root's 0, a base account's own (www-data
 *  33), a login's 1000 (a home under /home, or none given), else a service's, as `useradd --system`
 *  gives the first one (999). */
export function accountId(user: string, home?: string): number {
  const base = DEBIAN_SYSTEM.find((e) => e.split(":")[0] === user);
  if (base) return Number(base.split(":")[1]);
  return home === undefined || home.startsWith("/home/") ? 1000 : 999;
}

let timeNamespacesCache: boolean | undefined;
/** Whether this kernel lets an unprivileged user make a time namespace (Linux 5.6 and later, user
 *  namespaces allowed): RunOptions.uptimeS. Found once per process. */
export function timeNamespaces(): boolean {
  if (timeNamespacesCache === undefined) {
    const argv = [...asSandboxUser(), "unshare", "--user", "--map-current-user", "--time", "--monotonic", "86400", "--fork", "--", "true"];
    timeNamespacesCache = spawnSync(argv[0]!, argv.slice(1), { stdio: "ignore", timeout: 10_000 }).status === 0;
  }
  return timeNamespacesCache;
}

export class BwrapSandbox implements Sandbox {
  readonly name = "bwrap" as const;
  /** Whether runPytest grades (read-only runs) through the warm worker (warm.ts) where it works;
   *  default on, off with `{ warm: false }` or COMPOSER_LAB_WARM_GRADER=0. */
  readonly warm: boolean;
  constructor(readonly bwrapPath = "bwrap", opts: { warm?: boolean } = {}) {
    this.warm = opts.warm ?? process.env.COMPOSER_LAB_WARM_GRADER !== "0";
  }

  args(o: ReturnType<typeof RunOptions.parse>, workdir = o.workdir): string[] {
    const id = String(passwdFor(o.user, o.accounts, o.userHome).uid);
    const a = [
      "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
      "--uid", id, "--gid", id, "--hostname", o.hostname,
      "--ro-bind", "/usr", "/usr",
      "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--symlink", "usr/lib", "/lib",
    ];
    if (existsSync("/usr/lib64")) a.push("--symlink", "usr/lib64", "/lib64");
    for (const f of ETC_FILES) if (existsSync(f)) a.push("--ro-bind", f, f);
    // A passwd/group naming the sandbox user: some tools (getpass, pip) want one.
    a.push("--file", "11", "/etc/passwd", "--file", "12", "/etc/group");
    const wd = realpathSync(workdir);
    a.push(o.workdirReadOnly ? "--ro-bind" : "--bind", wd, SANDBOX_WORKDIR);
    // protected files over a writable (scratch) tree; paths that are not there are skipped
    for (const rel of protectedInside(wd, o.protectPaths)) a.push("--ro-bind", join(wd, rel), `${SANDBOX_WORKDIR}/${rel}`);
    for (const dir of o.tmpfs) a.push("--size", String(o.diskMb * 1024 * 1024), "--tmpfs", dir);
    for (const [host, inside] of Object.entries(o.roBinds)) a.push("--ro-bind", realpathSync(host), inside);
    for (const [host, inside] of Object.entries(o.rwBinds)) a.push("--bind", realpathSync(host), inside);
    // installed copies of the task's project: a read-only stub over each (mask.ts)
    for (const m of existingMasks(o.masks)) a.push("--ro-bind", maskStub(m.kind), m.path);
    // each from its own fd, PROC_FD onwards: /etc's before the root goes read-only (bwrap makes the
    // file), /proc's after --proc
    const data = Object.keys(o.procFiles).map((path, i) => ["--ro-bind-data", String(PROC_FD + i), path]);
    for (const d of data) if (d[2]!.startsWith("/etc/")) a.push(...d);
    a.push("--size", String(o.diskMb * 1024 * 1024), "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/", "--chdir", o.cwd ?? SANDBOX_WORKDIR, "--clearenv");
    for (const d of data) if (d[2]!.startsWith("/proc/")) a.push(...d);
    for (const [k, v] of Object.entries(o.bareEnv ? o.env : baseEnv(o.env))) a.push("--setenv", k, v);
    return a;
  }

  async run(command: string | string[], options: RunOptions): Promise<RunResult> {
    const o = RunOptions.parse(options);
    const cpuSeconds = Math.ceil(o.timeoutMs / 1000) + 1;
    const fsize = Math.min(512, o.diskMb) * 1024 * 1024;
    const limits = ["prlimit", ...(o.cpuRlimit ? [`--cpu=${cpuSeconds}`] : []), `--fsize=${o.fsizeUnlimited ? "unlimited" : fsize}`, `--nofile=${o.nofile}`, "--core=0"];
    const stage = stageWorkdir(o.workdir, { diskMb: o.diskMb, writable: !o.workdirReadOnly && !o.scratchWorkdir, copy: o.scratchWorkdir });
    const giveBack = lendDirs(Object.keys(o.rwBinds));
    const cg = createRunCgroup(`run-${process.pid}-${randomBytes(4).toString("hex")}`, o);
    // Without a memory cgroup, bound the address space instead (coarser, but bounded).
    if (!cg) limits.push(`--as=${o.memoryMb * 1024 * 1024}`);
    const inner = [...limits, "--", ...argv(command)];
    // As root, drop to the sandbox user before bwrap: its user namespace then maps to that uid.
    const drop = asSandboxUser();
    // (a machine up longer: bwrap inside a time namespace of its own, the user's uid kept)
    const clock = o.uptimeS > 0 && timeNamespaces() ? ["unshare", "--user", "--map-current-user", "--time", "--monotonic", String(o.uptimeS), "--boottime", String(o.uptimeS), "--fork", "--"] : [];
    const bw = [...drop, ...clock, this.bwrapPath, ...this.args(o, stage.path), ...inner];
    // Join the cgroups before exec'ing bwrap, so every process of the run is inside them.
    const join = cg ? cg.procsFiles.map((f) => `echo $$ > '${f}'`).join(" && ") + " && " : "";
    const t0 = performance.now();
    let diskExceeded = false;
    let unwatch = () => {};
    let r: Supervised;
    let oomKilled = false;
    let cleaned: SanitizeReport;
    try {
      const child = spawn("/bin/sh", ["-c", `${join}exec "$@"`, "sh", ...bw], {
        stdio: [...Array.from({ length: PROC_FD }, () => "pipe" as const), ...Object.keys(o.procFiles).map(() => "pipe" as const)],
        env: {},
        detached: true, // own process group: the timeout kills everything we started
      });
      const fds = child.stdio as unknown as NodeJS.WritableStream[];
      // fds 3 onwards only carry files in; a run killed before or after reading them resets them
      fds.slice(3).forEach((f) => f?.on("error", () => {}));
      const accounts = passwdFor(o.user, o.accounts, o.userHome);
      fds[11]!.end(accounts.passwd);
      fds[12]!.end(accounts.group);
      Object.values(o.procFiles).forEach((data, i) => fds[PROC_FD + i]!.end(data));
      // Where no tmpfs caps the workdir, watch it (a soft cap: checked every 200 ms).
      if (!stage.hardCap && !o.workdirReadOnly) {
        unwatch = watchDisk([stage.path, ...Object.keys(o.rwBinds)], o.diskMb * 1024 * 1024, () => {
          diskExceeded = true;
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            /* gone */
          }
        });
      }
      r = await supervise(child, o);
      oomKilled = cg?.oomKilled() ?? false;
    } finally {
      unwatch();
      await cg?.cleanup();
      cleaned = stage.finish();
      giveBack();
    }
    return {
      exitCode: r.code, signal: r.signal, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, stalled: r.stalled, oomKilled,
      wallMs: performance.now() - t0, outputTruncated: r.outputTruncated, sandbox: this.name, diskExceeded,
      sanitized: { removedSpecial: cleaned.removedSpecial, clearedModes: cleaned.clearedModes },
    };
  }

  async check(): Promise<{ ok: boolean; why: string | null; detail?: Record<string, unknown> }> {
    const v = spawnSync(this.bwrapPath, ["--version"], { encoding: "utf8" });
    if (v.error) return { ok: false, why: `${this.bwrapPath} not found (apt-get install bubblewrap)` };
    const probe = spawnSync(this.bwrapPath, ["--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", ...(existsSync("/usr/lib64") ? ["--symlink", "usr/lib64", "/lib64"] : []), "--proc", "/proc", "--dev", "/dev", "/usr/bin/true"], { encoding: "utf8" });
    if (probe.status !== 0) return { ok: false, why: `bwrap cannot create namespaces here: ${probe.stderr.trim() || `exit ${probe.status}`}` };
    const cg = cgroupMode();
    return { ok: true, why: null, detail: { version: v.stdout.trim(), cgroups: cg.kind, ...(cg.kind === "none" ? { cgroups_why: cg.why } : {}) } };
  }
}
