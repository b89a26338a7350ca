import { readdirSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../core/index.js";

/** Benchmarks are files bench/<name>.bench.ts exporting `run(): Promise<BenchResult>`. */
export function listBenchmarks(): string[] {
  return readdirSync(join(projectRoot(), "bench"))
    .filter((f) => f.endsWith(".bench.ts"))
    .map((f) => f.slice(0, -".bench.ts".length))
    .sort();
}
