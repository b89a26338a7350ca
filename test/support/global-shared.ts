/**
 * vitest global setup: a folder shared by every test file of one `vitest run` (removed after all of
 * them), for results that several files would otherwise each compute alike — e.g. the local
 * reference runs the swarm and slurm files both compare their cluster runs with
 * (test/support/shared-once.ts). Files read it with `inject("sharedDir")`.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    sharedDir: string;
  }
}

let dir: string | undefined;

export function setup(project: TestProject): void {
  dir = mkdtempSync(join(tmpdir(), "composer-lab-tests-shared-"));
  chmodSync(dir, 0o755); // sandbox users read the runs kept here
  project.provide("sharedDir", dir);
}

export function teardown(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
