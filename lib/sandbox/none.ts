/** No isolation: the command runs on the host in the workdir. Only ever used when a user passes
 *  `--sandbox none` explicitly (for debugging); it still gets a clean environment and a timeout. */
import { spawn } from "node:child_process";
import { capture } from "./capture.js";
import { RunOptions, argv, baseEnv, type RunResult, type Sandbox } from "./types.js";

export class NoSandbox implements Sandbox {
  readonly name = "none" as const;
  async run(command: string | string[], options: RunOptions): Promise<RunResult> {
    const o = RunOptions.parse(options);
    const [cmd, ...args] = argv(command);
    const t0 = performance.now();
    const child = spawn(cmd!, args, { cwd: o.workdir, env: baseEnv(o.env), detached: true, stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.end(o.stdin ?? "");
    const out = capture(child.stdout, o.maxOutputBytes);
    const err = capture(child.stderr, o.maxOutputBytes);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* gone */
      }
    }, o.timeoutMs);
    const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => {
      child.on("error", () => res({ code: 127, signal: null }));
      child.on("close", (code, signal) => res({ code, signal }));
    });
    clearTimeout(timer);
    await Promise.all([out.done, err.done]);
    return { exitCode: code, signal, stdout: out.text(), stderr: err.text(), timedOut, oomKilled: false, wallMs: performance.now() - t0, outputTruncated: out.truncated() || err.truncated(), sandbox: this.name };
  }
  async check() {
    return { ok: true, why: "no isolation at all: use only for debugging", detail: {} };
  }
}
