import { InvalidArgumentError, Option } from "commander";
import { BACKEND_CHOICES, BACKEND_ENV, initBackend, parseBackend, type BackendChoice, type BackendInfo } from "../backend/index.js";
import { SANDBOX_NAMES } from "../sandbox/index.js";
import { EXECUTOR_NAMES } from "../executor/index.js";
import { log } from "./output.js";

// In output.ts (no heavy imports) so that light commands need not load the backends and sandboxes.
export { jsonOpt } from "./output.js";

/** --executor: where sandboxed jobs run (lib/executor): this host's pool, a Docker Swarm, a Slurm cluster. */
export const executorChoice = () =>
  new Option("--executor <name>", "local (this host's sandbox pool) | swarm | slurm (a cluster: `composer-lab cluster up`)").choices([...EXECUTOR_NAMES]).default("local");

export const sandboxChoice = () =>
  new Option("--sandbox <name>", "bwrap | docker | gvisor | none (none = unsandboxed, only when asked)").choices(["auto", ...SANDBOX_NAMES]).default("auto");

/**
 * `--backend <name>` for every command that runs TensorFlow.js: auto | tensorflow | webgpu | wasm |
 * cpu, defaulting to $COMPOSER_LAB_BACKEND (unset = auto). Unknown names are rejected at parse
 * time naming the known ones. Pair it with resolveBackend(opts) in the action.
 */
export const backendOption = () =>
  new Option("--backend <name>", `TensorFlow.js backend: ${BACKEND_CHOICES.join(" | ")} (auto, the default: the first of tensorflow, torch, webgpu, wasm, cpu that starts)`)
    .env(BACKEND_ENV)
    .argParser((v: string): BackendChoice => {
      try {
        return parseBackend(v);
      } catch (e) {
        throw new InvalidArgumentError((e as Error).message);
      }
    });

/**
 * Starts the backend a command asked for (`opts.backend` from backendOption(); absent = auto) and
 * logs "backend: wasm (@tensorflow/tfjs-backend-wasm)" to stderr. A named backend that cannot
 * start throws with the reason (no silent fallback).
 */
export async function resolveBackend(opts: { backend?: BackendChoice }): Promise<BackendInfo> {
  const info = await initBackend(opts.backend); // undefined → $COMPOSER_LAB_BACKEND → auto
  log(`backend: ${info.name} (${info.provider})`);
  for (const s of info.skipped) log(`  skipped ${s.name}: ${s.why}`);
  return info;
}
