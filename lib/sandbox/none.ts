/** No isolation: the command runs on the host in the workdir. Only ever used when a user passes
 *  `--sandbox none` explicitly (for debugging); it still gets a clean environment and a timeout. */
import { spawn } from "node:child_process";
import { supervise } from "./capture.js";
import { RunOptions, argv, baseEnv, type RunResult, type Sandbox } from "./types.js";

export class NoSandbox implements Sandbox {
  readonly name = "none" as const;
  async run(command: string | string[], options: RunOptions): Promise<RunResult> {
    const o = RunOptions.parse(options);
    const [cmd, ...args] = argv(command);
    const t0 = performance.now();
    const child = spawn(cmd!, args, { cwd: o.workdir, env: o.bareEnv ? o.env : baseEnv(o.env), detached: true, stdio: ["pipe", "pipe", "pipe"] });
    const r = await supervise(child, o);
    return { exitCode: r.code, signal: r.signal, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, stalled: r.stalled, oomKilled: false, wallMs: performance.now() - t0, outputTruncated: r.outputTruncated, sandbox: this.name, diskExceeded: false, sanitized: { removedSpecial: [], clearedModes: [] } };
  }
  async check() {
    return { ok: true, why: "no isolation at all: use only for debugging", detail: {} };
  }
}
