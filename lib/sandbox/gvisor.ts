/**
 * gVisor (issue 26 §6): the command runs on runsc's user-space kernel (the ptrace platform: this
 * machine's CPUs have no virtualization flags for KVM), so native code and system calls the
 * in-process checks never see meet gVisor's Sentry instead of the host kernel. Each run is an OCI
 * bundle run with `runsc run` (not `runsc do`, which shows the whole host root with a writable
 * overlay and takes no binds): a skeleton root read-only, /usr and the toolchain's /etc files bound
 * read-only, the workdir at /work (staged as bwrap stages it: a capped tmpfs copy as root; writable,
 * read-only, or a throwaway copy), a private /tmp of `diskMb`, no network (--network=none), no
 * capabilities, no_new_privs, the unprivileged sandbox user (isolation.ts), rlimits for CPU time,
 * file size, open files and core dumps. runsc is started inside the run's cgroup (cgroup.ts; pids,
 * memory, CPU) with --ignore-cgroups, so its Sentry and gofer are bounded as a bwrap run is. The
 * same masks, protected paths and binds as bwrap and Docker apply. runsc needs root here.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, transientDir } from "../core/index.js";
import { passwdFor } from "./bwrap.js";
import { supervise, type Supervised } from "./capture.js";
import { cgroupMode, createRunCgroup } from "./cgroup.js";
import { lendDirs, protectedInside, runningAsRoot, sandboxHostIds, stageWorkdir, watchDisk, type SanitizeReport } from "./isolation.js";
import { existingMasks, maskStub } from "./mask.js";
import { RunOptions, SANDBOX_WORKDIR, argv, baseEnv, type RunResult, type Sandbox } from "./types.js";

const ETC_FILES = ["/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime", "/etc/python3", "/etc/python3.11", "/etc/python3.12", "/etc/ssl/certs/ca-certificates.crt", "/etc/mime.types"];

interface OciMount {
  destination: string;
  type: string;
  source: string;
  options: string[];
}

const bind = (source: string, destination: string, ro: boolean): OciMount => ({ destination, type: "bind", source, options: ["rbind", ro ? "ro" : "rw", "nosuid", "nodev"] });

export class GvisorSandbox implements Sandbox {
  readonly name = "gvisor" as const;
  /** (measured 2026-12-06, idle: a jinja2 golden's run at home 4.2 s against 0.9 s in bwrap, its
   *  run elsewhere 2.6 against 0.9; a 32-thread burst yielding at every call 7 s against 2.7) */
  readonly slowdown: number;
  constructor(readonly runscPath = "runsc", readonly platform = process.env.COMPOSER_LAB_RUNSC_PLATFORM ?? "ptrace") {
    this.slowdown = platform === "ptrace" ? 4 : 1;
  }

  /** The OCI config of one run (exposed for tests and the bench). */
  config(o: ReturnType<typeof RunOptions.parse>, workdir: string, command: string[], files: { passwd: string; group: string; procFiles: Record<string, string> }, withAs: boolean): Record<string, unknown> {
    // the sandbox's own user owns the staged workdir (isolation.ts); any other (the run elsewhere's,
    // a run at home's) is its passwd entry's uid, as bwrap maps it
    const other = passwdFor(o.user, o.accounts, o.userHome).uid;
    const ids = o.user !== "sandbox" ? { uid: other, gid: other } : runningAsRoot() ? sandboxHostIds() : { uid: 1000, gid: 1000 };
    const boundOver = new Set([...Object.values(o.roBinds), ...Object.values(o.rwBinds), ...Object.keys(o.procFiles)]);
    const cpu = Math.ceil(o.timeoutMs / 1000) + 1;
    const fsize = Math.min(512, o.diskMb) * 1024 * 1024;
    const wd = realpathSync(workdir);
    const mounts: OciMount[] = [
      { destination: "/proc", type: "proc", source: "proc", options: ["nosuid", "noexec", "nodev"] },
      { destination: "/dev", type: "tmpfs", source: "tmpfs", options: ["nosuid", "mode=755", "size=65536k"] },
      { destination: "/tmp", type: "tmpfs", source: "tmpfs", options: ["nosuid", "nodev", "mode=1777", `size=${o.diskMb}m`] },
      bind("/usr", "/usr", true),
      ...ETC_FILES.filter((f) => existsSync(f) && !boundOver.has(f)).map((f) => bind(f, f, true)),
      bind(files.passwd, "/etc/passwd", true),
      bind(files.group, "/etc/group", true),
      bind(wd, SANDBOX_WORKDIR, o.workdirReadOnly),
      ...protectedInside(wd, o.protectPaths).map((rel) => bind(join(wd, rel), `${SANDBOX_WORKDIR}/${rel}`, true)),
      ...o.tmpfs.map((d): OciMount => ({ destination: d, type: "tmpfs", source: "tmpfs", options: ["nosuid", "nodev", "mode=1777", `size=${o.diskMb}m`] })),
      ...Object.entries(o.roBinds).map(([h, i]) => bind(realpathSync(h), i, true)),
      ...Object.entries(o.rwBinds).map(([h, i]) => bind(realpathSync(h), i, false)),
      ...existingMasks(o.masks).map((m) => bind(maskStub(m.kind), m.path, true)),
      ...Object.entries(files.procFiles).map(([inside, host]) => bind(host, inside, true)),
    ];
    const rl = (type: string, n: number) => ({ type, hard: n, soft: n });
    return {
      ociVersion: "1.0.2",
      process: {
        terminal: false,
        user: { uid: ids.uid, gid: ids.gid, additionalGids: [] },
        args: command,
        env: Object.entries(o.bareEnv ? o.env : baseEnv(o.env)).map(([k, v]) => `${k}=${v}`),
        cwd: o.cwd ?? SANDBOX_WORKDIR,
        capabilities: { bounding: [], effective: [], inheritable: [], permitted: [], ambient: [] },
        rlimits: [...(o.cpuRlimit ? [rl("RLIMIT_CPU", cpu)] : []), ...(o.fsizeUnlimited ? [] : [rl("RLIMIT_FSIZE", fsize)]), rl("RLIMIT_NOFILE", o.nofile), rl("RLIMIT_CORE", 0), ...(withAs ? [rl("RLIMIT_AS", o.memoryMb * 1024 * 1024)] : [])],
        noNewPrivileges: true,
      },
      root: { path: "rootfs", readonly: true },
      hostname: o.hostname,
      mounts,
      linux: { namespaces: [{ type: "pid" }, { type: "network" }, { type: "ipc" }, { type: "uts" }, { type: "mount" }] },
    };
  }

  async run(command: string | string[], options: RunOptions): Promise<RunResult> {
    const o = RunOptions.parse(options);
    const t0 = performance.now();
    const stage = stageWorkdir(o.workdir, { diskMb: o.diskMb, writable: !o.workdirReadOnly && !o.scratchWorkdir, copy: o.scratchWorkdir });
    const giveBack = lendDirs(Object.keys(o.rwBinds));
    const id = `composer-lab-${process.pid}-${randomBytes(6).toString("hex")}`;
    const bundle = transientDir(`gvisor-${process.pid}-`);
    const cg = createRunCgroup(`gvisor-${process.pid}-${randomBytes(4).toString("hex")}`, o);
    let r: Supervised | undefined;
    let oomKilled = false;
    let diskExceeded = false;
    let unwatch = () => {};
    let cleaned: SanitizeReport;
    const state = join(bundle.path, "state");
    try {
      chmodSync(bundle.path, 0o711);
      const rootfs = join(bundle.path, "rootfs");
      for (const d of ["usr", "etc", "tmp", "work", "proc", "dev", "opt", "var", "run"]) mkdirSync(join(rootfs, d), { recursive: true });
      for (const [l, t] of [["bin", "usr/bin"], ["sbin", "usr/sbin"], ["lib", "usr/lib"], ...(existsSync("/usr/lib64") ? [["lib64", "usr/lib64"]] : [])] as [string, string][]) symlinkSync(t, join(rootfs, l));
      const accounts = passwdFor(o.user, o.accounts, o.userHome);
      const files = { passwd: join(bundle.path, "passwd"), group: join(bundle.path, "group"), procFiles: {} as Record<string, string> };
      writeFileSync(files.passwd, accounts.passwd);
      writeFileSync(files.group, accounts.group);
      mkdirSync(join(bundle.path, "proc-files"));
      Object.entries(o.procFiles).forEach(([inside, data], i) => {
        const host = join(bundle.path, "proc-files", String(i));
        writeFileSync(host, data, { mode: 0o644 });
        files.procFiles[inside] = host;
      });
      // mount points the binds need inside the read-only skeleton (the OCI runtime makes none
      // there): a file for a file, a folder for a folder; those under a tmpfs (a run at home's
      // tree in its home folder) or /proc, /usr, /work are made by runsc on the mount below them
      const under = (p: string, dirs: string[]) => dirs.some((d) => p === d || p.startsWith(`${d}/`));
      const points: [string, string][] = [
        ...[...ETC_FILES.filter((f) => existsSync(f)), "/etc/passwd", "/etc/group"].map((f): [string, string] => [f, f]),
        ...Object.entries({ ...o.roBinds, ...o.rwBinds }).map(([host, inside]): [string, string] => [host, inside]),
        ...Object.entries(files.procFiles).map(([inside, host]): [string, string] => [host, inside]),
      ];
      for (const [host, inside] of points) {
        const p = join(rootfs, inside);
        if (existsSync(p) || under(inside, ["/usr", "/proc", SANDBOX_WORKDIR, ...o.tmpfs])) continue;
        mkdirSync(join(p, ".."), { recursive: true });
        if (statSync(host).isDirectory()) mkdirSync(p);
        else writeFileSync(p, "");
      }
      for (const d of o.tmpfs) if (!under(d, ["/tmp", SANDBOX_WORKDIR])) mkdirSync(join(rootfs, d), { recursive: true });
      chmodSync(rootfs, 0o755);
      writeFileSync(join(bundle.path, "config.json"), JSON.stringify(this.config(o, stage.path, argv(command), files, !cg)));
      mkdirSync(state, { mode: 0o700 });
      const runsc = [this.runscPath, "--root", state, "--network=none", `--platform=${this.platform}`, "--ignore-cgroups", "run", "--bundle", bundle.path, id];
      const join_ = cg ? cg.procsFiles.map((f) => `echo $$ > '${f}'`).join(" && ") + " && " : "";
      const child = spawn("/bin/sh", ["-c", `${join_}exec "$@"`, "sh", ...runsc], { stdio: ["pipe", "pipe", "pipe"], env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" }, detached: true });
      if (!stage.hardCap && !o.workdirReadOnly) {
        unwatch = watchDisk([stage.path, ...Object.keys(o.rwBinds)], o.diskMb * 1024 * 1024, () => {
          diskExceeded = true;
          this.kill(state, id);
        });
      }
      r = await supervise(child, o, () => this.kill(state, id));
      oomKilled = cg?.oomKilled() ?? false;
    } finally {
      unwatch();
      // whatever the run left (a killed runsc leaves its sandbox and gofer): gone with the state
      spawnSync(this.runscPath, ["--root", state, "delete", "--force", id], { stdio: "ignore", timeout: 20_000 });
      await cg?.cleanup();
      cleaned = stage.finish();
      giveBack();
      bundle.remove();
    }
    // runsc reports a signal death as 128 + n, as bwrap does
    return {
      exitCode: r!.code, signal: r!.signal, stdout: r!.stdout, stderr: r!.stderr, timedOut: r!.timedOut, stalled: r!.stalled, oomKilled,
      wallMs: performance.now() - t0, outputTruncated: r!.outputTruncated, sandbox: this.name, diskExceeded,
      sanitized: { removedSpecial: cleaned.removedSpecial, clearedModes: cleaned.clearedModes },
    };
  }

  private kill(state: string, id: string): void {
    spawn(this.runscPath, ["--root", state, "kill", "--all", id, "KILL"], { stdio: "ignore" }).on("error", () => {});
  }

  async check(): Promise<{ ok: boolean; why: string | null; detail?: Record<string, unknown> }> {
    const v = spawnSync(this.runscPath, ["--version"], { encoding: "utf8" });
    if (v.error) return { ok: false, why: `${this.runscPath} not found (apt-get install runsc)` };
    if (!runningAsRoot()) return { ok: false, why: "runsc run needs root here (rootless gVisor is not set up)" };
    const dir = tempDir("gvisor-probe-");
    const probe = await this.run(["/bin/true"], { workdir: dir.path, timeoutMs: 60_000 }).catch((e: Error) => ({ exitCode: -1, stderr: e.message })).finally(() => dir.remove());
    if (probe.exitCode !== 0) return { ok: false, why: `runsc could not run a container here: ${probe.stderr.trim().slice(-400) || `exit ${probe.exitCode}`}` };
    const cg = cgroupMode();
    return { ok: true, why: null, detail: { version: v.stdout.split("\n")[0]!.trim(), platform: this.platform, cgroups: cg.kind } };
  }
}
