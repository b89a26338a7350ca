/**
 * A composer-lab command as a job (a DiLoCo rank on a swarm): this host's node binary and the lab's
 * checkout are bound read-only into the job, so it runs in the sandbox image every swarm node
 * already holds, under the executor's runner and containment like any other job; no second image.
 * On a multi-host cluster both host paths must exist on every node (the same checkout at the same
 * path, or a shared filesystem), as for any job's mounts.
 */
import { projectRoot } from "../core/index.js";
import type { JobLimits, JobNetwork, JobSpecInput } from "./types.js";

/** Where the lab's checkout and the node binary appear inside the job. */
export const LAB_INSIDE = "/opt/composer-lab";
export const NODE_INSIDE = "/opt/composer-lab-node/node";

export function labCommandJob(o: {
  id: string;
  /** argv after `composer-lab`. */
  args: string[];
  /** Host folder at /work (read-only): files the command reads, e.g. its config. */
  workdir: string;
  env?: Record<string, string>;
  network?: JobNetwork;
  limits?: Partial<JobLimits>;
  retries?: number;
}): JobSpecInput {
  return {
    id: o.id,
    command: [NODE_INSIDE, `${LAB_INSIDE}/bin/composer-lab.js`, ...o.args],
    workdir: o.workdir,
    workdirReadOnly: true,
    mounts: [
      { host: process.execPath, inside: NODE_INSIDE, mode: "ro" },
      { host: projectRoot(), inside: LAB_INSIDE, mode: "ro" },
    ],
    env: o.env ?? {},
    network: o.network ?? "none",
    limits: o.limits ?? {},
    retries: o.retries ?? 2,
  };
}
