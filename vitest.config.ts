import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // one Docker engine for all files (they run in parallel): test/support/global-docker.ts
    globalSetup: ["test/support/global-docker.ts"],
    // Real kernels, browsers and sandboxes start in these tests: allow them time on 2 cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});
