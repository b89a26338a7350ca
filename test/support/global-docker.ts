/**
 * vitest global setup: one Docker engine (and the sandbox base image) for every test file, started
 * before any file runs and stopped after all of them — test files that use Docker run in parallel,
 * so none of them may start or stop the engine on its own. Where Docker cannot run, the files that
 * need it say why (they call ensureDockerd themselves and get the same error).
 */
import { buildBaseImage, dockerClient, ensureDockerd, type Dockerd } from "../../lib/sandbox/index.js";

let engine: Dockerd | undefined;

export async function setup(): Promise<void> {
  try {
    engine = await ensureDockerd({ log: (m) => console.error(`[docker] ${m}`) });
    await buildBaseImage(dockerClient(engine.socketPath), { log: (m) => console.error(`[docker] ${m}`) });
  } catch (e) {
    console.error(`[docker] not available for the tests: ${(e as Error).message.split("\n")[0]}`);
  }
}

export async function teardown(): Promise<void> {
  await engine?.stop();
}
