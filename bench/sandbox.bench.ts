/**
 * Sandbox overhead: the same pytest suite (datasets/repos/inventory, ~1 s) bare, in bubblewrap and
 * in Docker, interleaved in one run; medians and ratios. Targets: bwrap ≤ 1.10× bare, Docker
 * ≤ 1.2 s added. Docker is included when an engine and the base image are available.
 */
import type { BenchResult } from "../lib/cli/index.js";
import { datasetsDir } from "../lib/core/index.js";
import { BwrapSandbox, DockerSandbox, NoSandbox, runPytest, type Sandbox } from "../lib/sandbox/index.js";

const RUNS = Number(process.env.COMPOSER_LAB_BENCH_RUNS ?? 7);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<BenchResult> {
  const repo = datasetsDir("repos", "inventory");
  const sandboxes: [string, Sandbox][] = [["bare", new NoSandbox()], ["bwrap", new BwrapSandbox()]];
  const docker = new DockerSandbox();
  if ((await docker.check()).ok) sandboxes.push(["docker", docker]);
  const times: Record<string, number[]> = Object.fromEntries(sandboxes.map(([n]) => [n, []]));
  for (const [, sb] of sandboxes) await runPytest(sb, repo); // warm caches
  for (let i = 0; i < RUNS; i++) {
    for (const [name, sb] of sandboxes) {
      const r = await runPytest(sb, repo);
      if (r.counts.failed || r.counts.error || !r.counts.passed) throw new Error(`${name}: the suite should pass, got ${JSON.stringify(r.counts)}`);
      times[name]!.push(r.run.wallMs);
    }
    process.stderr.write(`bench sandbox: round ${i + 1}/${RUNS}\n`);
  }
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const ratios: Record<string, number> = { bwrap_over_bare: Number((med.bwrap! / med.bare!).toFixed(3)) };
  if (med.docker !== undefined) ratios.docker_added_s = Number(((med.docker - med.bare!) / 1000).toFixed(3));
  return {
    summary: `pytest suite, median of ${RUNS}: bare ${med.bare!.toFixed(0)} ms, bwrap ${med.bwrap!.toFixed(0)} ms (${ratios.bwrap_over_bare}× bare; target ≤ 1.10)` +
      (med.docker !== undefined ? `, docker ${med.docker.toFixed(0)} ms (+${ratios.docker_added_s} s; target ≤ 1.2 s)` : ", docker not available (start one: composer-lab sandbox dockerd; composer-lab sandbox image)"),
    rows: Object.entries(times).map(([sandbox, v]) => ({ sandbox, median_ms: Number(median(v).toFixed(1)), min_ms: Number(Math.min(...v).toFixed(1)), max_ms: Number(Math.max(...v).toFixed(1)) })),
    ratios,
  };
}
