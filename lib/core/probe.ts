import { spawnSync } from "node:child_process";
import { z } from "zod";

export const ToolProbe = z.object({
  tool: z.string(),
  available: z.boolean(),
  version: z.string().nullable(),
  why: z.string().nullable(),
});
export type ToolProbe = z.infer<typeof ToolProbe>;

/** Runs `cmd args` briefly and reports whether it works and what version it prints. */
export function probeCommand(tool: string, cmd: string, args: string[], timeoutMs = 15_000): ToolProbe {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: timeoutMs });
  if (r.error) return { tool, available: false, version: null, why: (r.error as NodeJS.ErrnoException).code === "ENOENT" ? `${cmd} not found on PATH` : r.error.message };
  if (r.status !== 0) return { tool, available: false, version: null, why: (r.stderr || r.stdout).trim().split("\n").slice(-1)[0] || `exit ${r.status}` };
  const first = (r.stdout || r.stderr).trim().split("\n")[0] ?? "";
  return { tool, available: true, version: first.slice(0, 120), why: null };
}

/** The Python that has Jupyter (Debian's /usr/bin/python3 by default: a pyenv python3 on PATH
 *  usually lacks it). COMPOSER_LAB_PYTHON overrides. */
export function jupyterPython(): string {
  return process.env.COMPOSER_LAB_PYTHON ?? "/usr/bin/python3";
}

/** The Chromium binary used for PNG export and report checks (COMPOSER_LAB_CHROMIUM overrides). */
export function chromiumPath(): string {
  return process.env.COMPOSER_LAB_CHROMIUM ?? "/usr/bin/chromium";
}

/** What this machine offers the lab: each tool the stages rely on, probed for real. */
export function probeTools(): ToolProbe[] {
  const py = jupyterPython();
  return [
    probeCommand("node", process.execPath, ["--version"]),
    probeCommand("python3", py, ["--version"]),
    probeCommand("jupyter (nbclient)", py, ["-c", "import nbclient, ipykernel; print('nbclient', nbclient.__version__)"]),
    probeCommand("pytest", py, ["-m", "pytest", "--version"]),
    probeCommand("coverage", py, ["-m", "coverage", "--version"]),
    probeCommand("bubblewrap", "bwrap", ["--version"]),
    probeCommand("docker engine", "docker", ["info", "--format", "{{.ServerVersion}}"]),
    probeCommand("chromium", chromiumPath(), ["--version"]),
    probeCommand("git", "git", ["--version"]),
  ];
}
