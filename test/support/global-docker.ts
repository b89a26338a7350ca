/**
 * vitest global setup: one Docker engine (and the sandbox base image) for every test file, started
 * before any file runs and stopped after all of them — test files that use Docker run in parallel,
 * so none of them may start or stop the engine on its own. The engine is shared with other vitest
 * runs on this machine (and a user's swarm) through a lease (test/support/docker-lease.ts): it is
 * stopped by the last run to end, only if a test run started it, and never while a swarm lives on
 * it. Where Docker cannot run, the files that need it say why (they call ensureDockerd themselves
 * and get the same error).
 */
import { LAB_DOCKER_ROOT, buildBaseImage, dockerClient } from "../../lib/sandbox/index.js";
import { leaseEngine, type EngineLease } from "./docker-lease.js";

const log = (m: string) => console.error(`[docker] ${m}`);
let engine: EngineLease | undefined;

export async function setup(): Promise<void> {
  try {
    engine = await leaseEngine({ root: LAB_DOCKER_ROOT, log });
    await buildBaseImage(dockerClient(engine.socketPath), { log });
  } catch (e) {
    console.error(`[docker] not available for the tests: ${(e as Error).message.split("\n")[0]}`);
  }
}

export async function teardown(): Promise<void> {
  if (!engine) return;
  const r = await engine.release();
  log(r.stopped ? `engine stopped: ${r.why}` : `engine left running: ${r.why}`);
}
