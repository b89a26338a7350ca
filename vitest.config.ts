import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // one Docker engine for all files (they run in parallel): test/support/global-docker.ts
    // and a folder every file of the run shares (test/support/global-shared.ts)
    globalSetup: ["test/support/global-docker.ts", "test/support/global-shared.ts"],
    // tmp() folders go after each file (test/support/remove-tmp.ts)
    setupFiles: ["test/support/remove-tmp.ts"],
    // Real kernels, browsers, sandboxes and short training runs start in these tests: allow them
    // time on a loaded 2-core machine (a hang still fails, after 10 minutes).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // the grader's key (lib/env/behaviour.ts graderKey) is the suite's own: the run elsewhere's
    // clocks it draws, and so every grade, are the same on every machine
    env: { COMPOSER_LAB_GRADER_KEY: "composer-lab-test-suite" },
    pool: "forks",
    // a young generation of 64 MB (V8's default is 16): grading allocates ≈ 10^5 short-lived values a
    // golden grade, and its scavenges were ≈ 45 ms of the grader's ≈ 240 ms (docs/performance.md)
    execArgv: ["--max-semi-space-size=64"],
    fileParallelism: true,
    // two files at a time: the suite is CPU-bound on two cores (a whole run with three was 1% idle
    // and 6% faster, but its load made hooks with their own timeouts run out: 2026-12-03)
    maxWorkers: 2,
  },
});
