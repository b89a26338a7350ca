import { Option } from "commander";
import { SANDBOX_NAMES } from "../sandbox/index.js";
import { EXECUTOR_NAMES } from "../executor/index.js";

// In output.ts (no heavy imports) so that light commands need not load the backends and sandboxes.
export { jsonOpt } from "./output.js";

/** --executor: where sandboxed jobs run (lib/executor): this host's pool, a Docker Swarm, a Slurm cluster. */
export const executorChoice = () =>
  new Option("--executor <name>", "local (this host's sandbox pool) | swarm | slurm (a cluster: `composer-lab cluster up`)").choices([...EXECUTOR_NAMES]).default("local");

export const sandboxChoice = () =>
  new Option("--sandbox <name>", "bwrap | docker | gvisor | none (none = unsandboxed, only when asked)").choices(["auto", ...SANDBOX_NAMES]).default("auto");
