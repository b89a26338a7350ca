/**
 * The env server's load test (bench/envserve.bench.ts, and a small version in test/env-serve.test.ts):
 * N episodes at once over HTTP on loopback, each reset → list_dir → read_file → shell → run_tests
 * (one target test) → submit (graded in the sandbox); every step's latency by kind; afterwards,
 * what leaked: this process's temp folders that were not there before, and sandbox processes whose
 * command line names one of them or whose parent is this process.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LoadReport {
  episodes: number;
  steps: number;
  /** Step latency over every step, and per action kind (ms). */
  latency: { p50: number; p95: number; max: number };
  byKind: Record<string, { n: number; p50: number; p95: number }>;
  rewards: number[];
  wallS: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};

async function post(url: string, body: unknown): Promise<Record<string, any>> {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const j = (await r.json()) as Record<string, any>;
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status} ${JSON.stringify(j)}`);
  return j;
}

/** Runs `n` episodes at once against the server at `url` over the given tasks (episode i gets task i mod tasks). */
export async function loadEpisodes(url: string, n: number, tasks: { task_id: string; file: string; test: string }[]): Promise<LoadReport> {
  const lat: { kind: string; ms: number }[] = [];
  const rewards: number[] = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    const t = tasks[i % tasks.length]!;
    const { episode_id } = await post(`${url}/reset`, { task_id: t.task_id });
    const actions = [
      { type: "list_dir", path: "." },
      { type: "read_file", path: t.file },
      { type: "shell", command: "python3 -c 'print(6 * 7)'" },
      { type: "run_tests", tests: [t.test] },
      { type: "submit" },
    ];
    for (const action of actions) {
      const s0 = performance.now();
      const r = await post(`${url}/step`, { episode_id, action });
      lat.push({ kind: action.type, ms: performance.now() - s0 });
      if (r.done) rewards.push(r.reward as number);
    }
    await post(`${url}/close`, { episode_id });
  }));
  const all = lat.map((l) => l.ms);
  const kinds = [...new Set(lat.map((l) => l.kind))];
  const r1 = (x: number) => Math.round(x * 10) / 10;
  return {
    episodes: n, steps: lat.length, rewards, wallS: r1((performance.now() - t0) / 1000),
    latency: { p50: r1(quantile(all, 0.5)), p95: r1(quantile(all, 0.95)), max: r1(Math.max(...all)) },
    byKind: Object.fromEntries(kinds.map((k) => {
      const xs = lat.filter((l) => l.kind === k).map((l) => l.ms);
      return [k, { n: xs.length, p50: r1(quantile(xs, 0.5)), p95: r1(quantile(xs, 0.95)) }];
    })),
  };
}

/** This process's lab temp folders (composer-lab-*p<pid>-*) now. */
export const ownTempDirs = (pid = process.pid): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith("composer-lab-") && n.includes(`p${pid}-`)).map((n) => join(tmpdir(), n));

/**
 * Processes that work on an episode's or a grade's folder of process `pid` (their command line names
 * a composer-lab-{env,grade,stage,test-run}-…p<pid>- folder, as every sandboxed command does), or one of
 * `dirs`. The process-wide warm grading worker and the AST server are not per episode: not counted.
 */
export function sandboxProcesses(dirs: string[], pid = process.pid): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  const perEpisode = new RegExp(`composer-lab-(env|grade|behave|pytest-cfg)-[^ ]*p${pid}-`);
  return out.split("\n").map((l) => l.trim()).filter(Boolean).filter((l) => {
    const cmd = l.replace(/^\d+\s+/, "");
    if (cmd.startsWith("ps ")) return false;
    return perEpisode.test(cmd) || dirs.some((d) => cmd.includes(d));
  });
}
