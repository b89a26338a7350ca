/**
 * `--backend` and starting the backend it names: only for the commands that run TensorFlow.js
 * (train, serve, world-model, experiment, doctor). Apart from options.ts so that the others (grade,
 * tasks, sandbox…) never load TensorFlow.js at start-up.
 */
import { InvalidArgumentError, Option } from "commander";
import { BACKEND_CHOICES, BACKEND_ENV, initBackend, parseBackend, type BackendChoice, type BackendInfo } from "../backend/index.js";
import { log } from "./output.js";

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
