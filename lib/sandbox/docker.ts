/**
 * Docker on dockerode: network none, read-only root, all capabilities dropped, no-new-privileges,
 * the unprivileged sandbox user (isolation.ts; never a uid a real host user has), memory / pids /
 * CPU limits, the workdir at /work (staged on a capped tmpfs as root; read-only for grading), the
 * container removed after the run. No registry is reachable here, so the base image is built locally
 * (debootstrap + import: `composer-lab sandbox image`).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type Docker from "dockerode";
import { createRequire } from "node:module";
import { capture, runClock } from "./capture.js";
import { lendDirs, protectedInside, sandboxHostIds, stageWorkdir, watchDisk, type SanitizeReport } from "./isolation.js";
import { maskStub } from "./mask.js";
import { harnessDir as harnessDirForDeps } from "./harness-dir.js";
import { SYSTEM_PYTHON } from "./pyenv.js";
import { tempDir, transientDir } from "../core/index.js";

/** Images with a task's dependencies, by base image and requirement names (built once a process). */
const depImages = new Map<string, Promise<{ image: string; missing: string[]; added: string[] }>>();
import { RunOptions, SANDBOX_WORKDIR, argv, baseEnv, type RunResult, type Sandbox } from "./types.js";
import { passwdFor } from "./bwrap.js";

/** The /proc files runc lets a bind mount cover (its list of allowed /proc destinations). */
const RUNC_PROC_FILES = ["/proc/cpuinfo", "/proc/diskstats", "/proc/meminfo", "/proc/stat", "/proc/swaps", "/proc/uptime", "/proc/loadavg", "/proc/slabinfo"];

export const DEFAULT_IMAGE = "composer-lab/python:bookworm";

/** Where `ensureDockerd` keeps an engine it starts. */
export const LAB_DOCKER_ROOT = "/var/lib/composer-lab-docker";

/** The Docker endpoint: DOCKER_HOST (unix://…), else the standard socket, else the lab's own. */
export function dockerSocketPath(): string {
  const h = process.env.DOCKER_HOST;
  if (h?.startsWith("unix://")) return h.slice("unix://".length);
  if (!existsSync("/var/run/docker.sock") && existsSync(join(LAB_DOCKER_ROOT, "docker.sock"))) return join(LAB_DOCKER_ROOT, "docker.sock");
  return "/var/run/docker.sock";
}

const require = createRequire(import.meta.url);

export function dockerClient(socketPath = dockerSocketPath()): Docker {
  // dockerode (CommonJS, ≈ 0.3 s of CPU to load with its ssh2 and gRPC) loads with the first client,
  // not with every process that imports lib/sandbox
  const DockerClient = require("dockerode") as typeof Docker;
  return new DockerClient({ socketPath });
}

export class DockerSandbox implements Sandbox {
  readonly name = "docker" as const;
  readonly docker: Docker;
  constructor(readonly opts: { image?: string; socketPath?: string } = {}) {
    this.docker = dockerClient(opts.socketPath);
  }
  get image(): string {
    return this.opts.image ?? DEFAULT_IMAGE;
  }

  async run(command: string | string[], options: RunOptions): Promise<RunResult> {
    const o = RunOptions.parse(options);
    const t0 = performance.now();
    const ids = sandboxHostIds();
    // The container user must own what it writes; everything is handed back sanitized afterwards.
    const stage = stageWorkdir(o.workdir, { diskMb: o.diskMb, writable: !o.workdirReadOnly && !o.scratchWorkdir, copy: o.scratchWorkdir });
    const giveBack = lendDirs(Object.keys(o.rwBinds));
    let cleaned: SanitizeReport = { removedSpecial: [], clearedModes: [], bytes: 0 };
    let result: RunResult;
    let diskExceeded = false;
    let unwatch = () => {};
    // another machine's (the run elsewhere's, a run at home's): its user with a passwd naming it,
    // its host name, its /etc files and the /proc files runc lets a bind cover (a folder for them
    // only where there are any: most runs are the sandbox's own machine)
    const other = o.user !== "sandbox" ? passwdFor(o.user, o.accounts, o.userHome) : null;
    const files = Object.entries({ ...(other ? { "/etc/passwd": other.passwd, "/etc/group": other.group } : {}), ...Object.fromEntries(Object.entries(o.procFiles).filter(([p]) => p.startsWith("/etc/") || RUNC_PROC_FILES.includes(p))) });
    const machine = files.length ? transientDir("docker-machine-") : null;
    try {
      const fileBinds = files.map(([inside, data], i) => {
        const host = join(machine!.path, String(i));
        writeFileSync(host, data, { mode: 0o644 });
        return `${host}:${inside}:ro`;
      });
      const container = await this.docker.createContainer({
        Image: this.image,
        // Docker puts HOSTNAME into every container's environment; a bare one (a drawn machine's)
        // must be exactly what was asked for
        Cmd: o.bareEnv && !("HOSTNAME" in o.env) ? ["/usr/bin/env", "-u", "HOSTNAME", "--", ...argv(command)] : argv(command),
        User: other ? `${other.uid}:${other.uid}` : `${ids.uid}:${ids.gid}`,
        WorkingDir: o.cwd ?? SANDBOX_WORKDIR,
        Env: Object.entries(o.bareEnv ? o.env : baseEnv(o.env)).map(([k, v]) => `${k}=${v}`),
        Hostname: o.hostname,
        NetworkDisabled: true,
        OpenStdin: o.stdin !== undefined,
        StdinOnce: o.stdin !== undefined,
        AttachStdout: true,
        AttachStderr: true,
        HostConfig: {
          Binds: [
            `${stage.path}:${SANDBOX_WORKDIR}:${o.workdirReadOnly ? "ro" : "rw"}`,
            ...Object.entries(o.roBinds).map(([h, i]) => `${h}:${i}:ro`),
            ...Object.entries(o.rwBinds).map(([h, i]) => `${h}:${i}:rw`),
            // protected files over a writable (scratch) tree; installed copies of the task's project
            // masked by read-only stubs (mask.ts: the scan ran in this image, so the paths are its own)
            ...protectedInside(stage.path, o.protectPaths).map((rel) => `${join(stage.path, rel)}:${SANDBOX_WORKDIR}/${rel}:ro`),
            ...o.masks.map((m) => `${maskStub(m.kind)}:${m.path}:ro`),
            ...fileBinds,
          ],
          NetworkMode: "none",
          ReadonlyRootfs: true,
          // (a home folder its user's, as bwrap makes it)
          Tmpfs: { "/tmp": `rw,nosuid,nodev,size=${o.diskMb}m`, ...Object.fromEntries(o.tmpfs.map((d) => [d, `rw,nosuid,nodev,size=${o.diskMb}m,${other ? `mode=755,uid=${other.uid},gid=${other.uid}` : "mode=1777"}`])) },
          CapDrop: ["ALL"],
          SecurityOpt: ["no-new-privileges"],
          Memory: o.memoryMb * 1024 * 1024,
          MemorySwap: o.memoryMb * 1024 * 1024,
          PidsLimit: o.pids,
          NanoCpus: Math.round(o.cpus * 1e9),
          Ulimits: [...(o.fsizeUnlimited ? [] : [{ Name: "fsize", Soft: Math.min(512, o.diskMb) * 1024 * 1024, Hard: Math.min(512, o.diskMb) * 1024 * 1024 }]), { Name: "nofile", Soft: o.nofile, Hard: o.nofile }],
          LogConfig: { Type: "none", Config: {} },
        },
      });
      try {
        const stream = await container.attach({ stream: true, stdout: true, stderr: true, stdin: o.stdin !== undefined, hijack: true });
        const outS = new PassThrough();
        const errS = new PassThrough();
        this.docker.modem.demuxStream(stream, outS, errS);
        stream.on("end", () => {
          outS.end();
          errS.end();
        });
        const out = capture(outS, o.maxOutputBytes);
        const err = capture(errS, o.maxOutputBytes);
        // (before the start: a first line written at once starts the stall clock too)
        const clock = runClock(o, outS, () => container.kill().catch(() => {}));
        await container.start();
        if (o.stdin !== undefined) stream.end(o.stdin);
        if (!stage.hardCap && !o.workdirReadOnly) {
          unwatch = watchDisk([stage.path, ...Object.keys(o.rwBinds)], o.diskMb * 1024 * 1024, () => {
            diskExceeded = true;
            container.kill().catch(() => {});
          });
        }
        const status = (await container.wait()) as { StatusCode: number };
        clock.stop();
        await Promise.race([Promise.all([out.done, err.done]), new Promise((r) => setTimeout(r, 2000))]);
        const info = await container.inspect();
        result = {
          exitCode: status.StatusCode, signal: clock.timedOut() ? "SIGKILL" : null, stdout: out.text(), stderr: err.text(), timedOut: clock.timedOut(), stalled: clock.stalled(),
          oomKilled: info.State.OOMKilled, wallMs: performance.now() - t0, outputTruncated: out.truncated() || err.truncated(), sandbox: this.name,
          diskExceeded, sanitized: { removedSpecial: [], clearedModes: [] },
        };
      } finally {
        await container.remove({ force: true }).catch(() => {});
      }
    } finally {
      unwatch();
      cleaned = stage.finish();
      giveBack();
      machine?.remove();
    }
    return { ...result, sanitized: { removedSpecial: cleaned.removedSpecial, clearedModes: cleaned.clearedModes } };
  }

  /**
   * This sandbox with an image that carries a task's runtime dependencies (issue 26 §4): the
   * distributions `requirements` name that the image lacks are copied from this machine's
   * site-packages (found by harness/mask_scan.py: package folders, modules, metadata) into a layer
   * over the image (`docker build`, offline: FROM the local image). What neither the image nor this
   * machine has is returned in `missing` (the task cannot run here: the grade says so).
   */
  withTaskDeps(requirements: string[]): Promise<{ sandbox: DockerSandbox; missing: string[] }> {
    return this.withDeps(requirements);
  }

  async withDeps(requirements: string[]): Promise<{ sandbox: DockerSandbox; missing: string[]; added: string[] }> {
    const names = [...new Set(requirements.map((r) => r.split(/[<>=!~;\[\s(]/)[0]!.trim()).filter(Boolean))].sort();
    if (!names.length) return { sandbox: this, missing: [], added: [] };
    const key = `${this.image}\0${names.join(",")}`;
    let p = depImages.get(key);
    if (!p) {
      p = this.buildDepImage(names);
      depImages.set(key, p);
      p.catch(() => depImages.delete(key));
    }
    const r = await p;
    return { sandbox: r.image === this.image ? this : new DockerSandbox({ ...this.opts, image: r.image }), missing: r.missing, added: r.added };
  }

  private async buildDepImage(names: string[]): Promise<{ image: string; missing: string[]; added: string[] }> {
    const norm = (n: string) => n.toLowerCase().replace(/[-_.]+/g, "_");
    // what the image imports already (by import name or metadata)
    const probeDir = tempDir("docker-probe-");
    const probe = await this.run(["python3", "-I", "-c", `import importlib.metadata as m, importlib.util as u, json, sys
names = json.loads(sys.argv[1])
def have(n):
    try:
        m.distribution(n); return True
    except Exception:
        return u.find_spec(n.replace("-", "_").lower()) is not None
print(json.dumps([n for n in names if not have(n)]))`, JSON.stringify(names)], { workdir: probeDir.path, timeoutMs: 60_000 }).finally(() => probeDir.remove());
    let lacking: string[];
    try {
      lacking = JSON.parse(probe.stdout.trim().split("\n").pop() ?? "[]") as string[];
    } catch {
      throw new Error(`could not ask image ${this.image} which dependencies it has: ${probe.stderr.slice(-300)}`);
    }
    if (!lacking.length) return { image: this.image, missing: [], added: [] };
    // this machine's installed copies of what the image lacks
    const scan = spawnSync(SYSTEM_PYTHON, ["-I", join(harnessDirForDeps(), "mask_scan.py"), JSON.stringify({ names: lacking, dists: lacking, no_repo: true })], { encoding: "utf8", cwd: "/", timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    const entries = ((): { path: string; kind: string; name: string }[] => {
      try {
        return (JSON.parse(scan.stdout) as { entries: { path: string; kind: string; name: string }[] }).entries;
      } catch {
        return [];
      }
    })().filter((e) => /\/(site|dist)-packages\/[^/]+$/.test(e.path) && e.kind !== "file");
    const found = new Set(entries.map((e) => e.name));
    const missing = lacking.filter((n) => !found.has(norm(n)));
    const added = lacking.filter((n) => found.has(norm(n)));
    if (!entries.length) return { image: this.image, missing, added: [] };
    const tag = `${this.image.split(":")[0]}:deps-${createHash("sha256").update(`${this.image}\0${entries.map((e) => e.path).sort().join("\0")}`).digest("hex").slice(0, 12)}`;
    try {
      await this.docker.getImage(tag).inspect();
      return { image: tag, missing, added };
    } catch {
      /* build it */
    }
    const ctx = tempDir("docker-deps-");
    try {
      mkdirSync(join(ctx.path, "site"));
      for (const e of entries) cpSync(e.path, join(ctx.path, "site", e.path.split("/").pop()!), { recursive: true, dereference: true, filter: (src) => !src.includes("__pycache__") });
      writeFileSync(join(ctx.path, "Dockerfile"), `FROM ${this.image}\nCOPY site/ /usr/lib/python3/dist-packages/\n`);
      const tar = spawn("tar", ["-C", ctx.path, "-c", "."], { stdio: ["ignore", "pipe", "ignore"] });
      const stream = (await this.docker.buildImage(tar.stdout as unknown as NodeJS.ReadableStream, { t: tag })) as NodeJS.ReadableStream;
      const out = await new Promise<string>((res, rej) => {
        let body = "";
        stream.on("data", (d: Buffer) => (body += d.toString("utf8")));
        stream.on("end", () => res(body));
        stream.on("error", rej);
      });
      if (/"error"/.test(out)) throw new Error(`building ${tag} failed: ${out.slice(-400)}`);
      await this.docker.getImage(tag).inspect();
      return { image: tag, missing, added };
    } finally {
      ctx.remove();
    }
  }

  async check(): Promise<{ ok: boolean; why: string | null; detail?: Record<string, unknown> }> {
    try {
      await this.docker.ping();
    } catch (e) {
      return { ok: false, why: `no Docker engine at ${this.opts.socketPath ?? dockerSocketPath()} (${(e as Error).message}); start one with \`composer-lab sandbox dockerd\`` };
    }
    try {
      await this.docker.getImage(this.image).inspect();
    } catch {
      return { ok: false, why: `the engine runs but image ${this.image} is missing: build it with \`composer-lab sandbox image\`` };
    }
    const v = await this.docker.version();
    return { ok: true, why: null, detail: { server: v.Version, image: this.image } };
  }
}

/** A dockerd this process started (for tests and machines without a running engine). */
export interface Dockerd {
  socketPath: string;
  process: ChildProcess | null;
  stop(): Promise<void>;
}

/**
 * Returns a reachable Docker engine: the one at DOCKER_HOST / the standard socket if it answers,
 * else a dockerd started here (no iptables changes, no bridge: containers run with network none).
 */
export async function ensureDockerd(opts: { root?: string; log?: (m: string) => void } = {}): Promise<Dockerd> {
  const existing = dockerSocketPath();
  if (existsSync(existing)) {
    try {
      await dockerClient(existing).ping();
      return { socketPath: existing, process: null, stop: async () => {} };
    } catch {
      /* stale socket */
    }
  }
  if (spawnSync("dockerd", ["--version"]).error) throw new Error("dockerd not found (apt-get install docker.io)");
  const root = opts.root ?? LAB_DOCKER_ROOT;
  mkdirSync(root, { recursive: true });
  const socketPath = join(root, "docker.sock");
  const client = dockerClient(socketPath);
  try {
    await client.ping();
    return { socketPath, process: null, stop: async () => {} }; // started earlier by us: reuse
  } catch {
    rmSync(socketPath, { force: true });
  }
  opts.log?.(`starting dockerd (data in ${root}, log in ${join(root, "dockerd.log")})`);
  // Its output goes to a file, not a pipe: the engine must outlive the process that started it.
  const logFd = openSync(join(root, "dockerd.log"), "a");
  const child = spawn("dockerd", [
    "--host", `unix://${socketPath}`, "--data-root", join(root, "data"), "--exec-root", join(root, "exec"),
    "--pidfile", join(root, "docker.pid"), "--iptables=false", "--ip-masq=false", "--bridge=none",
  ], { stdio: ["ignore", logFd, logFd], detached: true });
  closeSync(logFd);
  const logTail = () => {
    try {
      return readFileSync(join(root, "dockerd.log"), "utf8").slice(-3000);
    } catch {
      return "";
    }
  };
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 250));
    if (child.exitCode !== null) throw new Error(`dockerd exited (${child.exitCode}):\n${logTail()}`);
    try {
      await client.ping();
      return {
        socketPath, process: child,
        stop: async () => {
          child.kill("SIGTERM");
          await new Promise((r) => child.once("exit", r));
        },
      };
    } catch {
      /* not yet */
    }
  }
  child.kill("SIGKILL");
  throw new Error(`dockerd did not answer within 30 s:\n${logTail()}`);
}

/** The Debian mirror this machine's apt uses (deb822 or one-line sources). */
export function aptMirror(): string {
  const files = ["/etc/apt/sources.list", ...(existsSync("/etc/apt/sources.list.d") ? readdirSync("/etc/apt/sources.list.d").map((f) => join("/etc/apt/sources.list.d", f)) : [])];
  for (const f of files) {
    let text = "";
    try {
      text = readFileSync(f, "utf8");
    } catch {
      continue;
    }
    const deb822 = text.match(/^URIs:\s*(\S+)/m);
    if (deb822 && !/security/.test(deb822[1]!)) return deb822[1]!;
    const line = text.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+\S+/m);
    if (line && !/security/.test(line[1]!)) return line[1]!;
  }
  return "http://deb.debian.org/debian";
}

/**
 * Builds the sandbox base image without a registry: debootstrap a minimal Debian with python3,
 * pytest and coverage, then `docker import` it. Skipped when the image exists (unless `force`).
 */
export async function buildBaseImage(docker: Docker, opts: { image?: string; suite?: string; mirror?: string; force?: boolean; log?: (m: string) => void; workdir?: string } = {}): Promise<{ image: string; built: boolean; seconds: number }> {
  const image = opts.image ?? DEFAULT_IMAGE;
  const t0 = performance.now();
  if (!opts.force) {
    try {
      await docker.getImage(image).inspect();
      return { image, built: false, seconds: 0 };
    } catch {
      /* build it */
    }
  }
  if (spawnSync("debootstrap", ["--version"]).error) throw new Error("debootstrap not found (apt-get install debootstrap)");
  const rootfs = opts.workdir ?? join("/var/tmp", `composer-lab-rootfs-${process.pid}`);
  rmSync(rootfs, { recursive: true, force: true });
  const mirror = opts.mirror ?? aptMirror();
  opts.log?.(`debootstrap ${opts.suite ?? "bookworm"} from ${mirror} (about 2 minutes)`);
  await new Promise<void>((res, rej) => {
    const p = spawn("debootstrap", ["--variant=minbase", "--include=python3,python3-pytest,python3-pytest-cov,python3-coverage", opts.suite ?? "bookworm", rootfs, mirror], { stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    p.stdout!.on("data", (d) => (tail = (tail + d).slice(-3000)));
    p.stderr!.on("data", (d) => (tail = (tail + d).slice(-3000)));
    p.on("close", (code) => (code === 0 ? res() : rej(new Error(`debootstrap failed (${code}):\n${tail}`))));
  });
  opts.log?.(`importing ${rootfs} as ${image}`);
  const tar = spawn("tar", ["-C", rootfs, "-c", "."], { stdio: ["ignore", "pipe", "inherit"] });
  const [repo, tag] = image.split(":");
  const response = (await docker.importImage(tar.stdout as unknown as string, { repo, tag: tag ?? "latest" })) as NodeJS.ReadableStream & { readableEnded?: boolean };
  // The response may have ended already by the time the promise resolves.
  let body = "";
  await new Promise<void>((res, rej) => {
    if (response.readableEnded) return res();
    response.on("data", (d: Buffer) => (body += d));
    response.on("end", () => res());
    response.on("error", rej);
  });
  if (/"error"/.test(body)) throw new Error(`docker import failed: ${body.slice(-500)}`);
  await docker.getImage(image).inspect();
  rmSync(rootfs, { recursive: true, force: true });
  return { image, built: true, seconds: (performance.now() - t0) / 1000 };
}
