/** The lab's own stage: what this machine offers (tools, TensorFlow.js backends) and how fast
 *  each backend multiplies matrices, the kernel that dominates training time. */
import { BACKENDS, initBackend, tf, withBackend, type BackendName } from "../backend/index.js";
import { probeTools } from "../core/index.js";
import { checkSandboxes } from "../sandbox/index.js";
import { barChart, fromRows } from "../viz/index.js";
import type { DemoStage } from "./stage.js";

export interface MatmulMeasurement {
  backend: BackendName;
  size: number;
  /** Median over the timed repetitions, with the fastest and slowest. */
  ms: number;
  ms_min: number;
  ms_max: number;
  reps: number;
  gflops: number;
}

function timeMatmul(backend: BackendName, n: number, reps: number): MatmulMeasurement {
  const a = tf.randomNormal([n, n], 0, 1, "float32", 1);
  const b = tf.randomNormal([n, n], 0, 1, "float32", 2);
  const times: number[] = [];
  for (let i = 0; i <= reps; i++) {
    const t0 = performance.now();
    const c = tf.matMul(a, b);
    c.dataSync();
    c.dispose();
    if (i > 0) times.push(performance.now() - t0); // i = 0 is the warm-up
  }
  a.dispose();
  b.dispose();
  times.sort((x, y) => x - y);
  const ms = times[Math.floor(times.length / 2)]!;
  return { backend, size: n, ms, ms_min: times[0]!, ms_max: times[times.length - 1]!, reps: times.length, gflops: (2 * n ** 3) / (ms * 1e6) };
}

/** Times an n×n matmul on each available backend (median of `reps` after a warm-up). */
export async function measureMatmul(sizes = [64, 128, 256], reps = 5): Promise<{ rows: MatmulMeasurement[]; unavailable: { name: BackendName; why: string }[] }> {
  const rows: MatmulMeasurement[] = [];
  const unavailable: { name: BackendName; why: string }[] = [];
  for (const backend of BACKENDS) {
    try {
      await withBackend(backend, async () => {
        for (const n of sizes) rows.push(timeMatmul(backend, n, reps));
      });
    } catch (e) {
      unavailable.push({ name: backend, why: (e as Error).message });
    }
  }
  return { rows, unavailable };
}

export const environmentStage: DemoStage = {
  name: "environment",
  title: "Environment",
  description: "Probes the tools the stages rely on and measures matmul throughput on each TensorFlow.js backend.",
  async run(ctx) {
    ctx.log("probing tools");
    // Docker as grading sees it: the sandbox checks (the lab's own engine), not `docker info` on the default socket.
    const tools = probeTools().filter((t) => !t.tool.startsWith("docker"));
    const sandboxes = await checkSandboxes();
    ctx.log("timing matmul per backend");
    const { rows, unavailable } = await measureMatmul();
    const chosen = await initBackend();
    const sizes = [...new Set(rows.map((r) => r.size))];
    const backends = [...new Set(rows.map((r) => r.backend))];
    const series = Object.fromEntries(backends.map((b) => [b, sizes.map((n) => rows.find((r) => r.backend === b && r.size === n)?.gflops ?? null)]));
    const best = (b: string) => Math.max(...rows.filter((r) => r.backend === b).map((r) => r.gflops));
    const metrics: Record<string, number | string | boolean | null> = {
      tools_available: tools.filter((t) => t.available).length,
      tools_total: tools.length,
      backend: chosen.name,
    };
    for (const b of backends) metrics[`matmul_gflops_${b}`] = Number(best(b).toFixed(3));
    for (const t of tools) metrics[`has_${t.tool.split(" ")[0]}`] = t.available;
    for (const [name, c] of Object.entries(sandboxes)) if (name !== "none") metrics[`sandbox_${name}`] = c.ok;
    return {
      summary: `${metrics.tools_available}/${tools.length} tools available; TensorFlow.js runs on "${chosen.name}" (${chosen.provider})` +
        (unavailable.length ? `; not available: ${unavailable.map((u) => u.name).join(", ")}` : "") +
        `; sandboxes: ${Object.entries(sandboxes).filter(([n]) => n !== "none").map(([n, c]) => `${n} ${c.ok ? "works" : `unavailable (${c.why})`}`).join(", ")}; matmul timings are medians of ${rows[0]?.reps ?? 0} runs after a warm-up.`,
      metrics,
      tables: [
        { title: "Tools", table: fromRows(tools) },
        { title: "Sandboxes (the checks grading uses)", table: fromRows(Object.entries(sandboxes).map(([sandbox, c]) => ({ sandbox, works: c.ok, why_not: c.why ?? "" }))) },
        { title: "Matmul timings (median, fastest and slowest of the timed runs)", table: fromRows(rows) },
      ],
      figures: [{ title: "Matmul throughput by backend", figure: barChart(sizes.map((n) => `${n}×${n}`), series, { title: "n×n matmul throughput (log scale: backends differ by orders)", xTitle: "matrix size", yTitle: "GFLOP/s", logY: true }) }],
    };
  },
};
