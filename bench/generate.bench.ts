/**
 * Generation throughput (rollouts dominate RL): batched sampling with the KV cache — lib/train's
 * `sample()` on every available tfjs backend, side by side with PyTorch doing the same
 * (bench/generate_torch.py: prefill once, then one token per row per step), in one run.
 *
 * Model: the train bench's config (ctx 128, d 128, 2 layers, 4 heads, MLP 512, byte vocab 257, an
 * untrained Policy at seed 0); 16 prompts of 32 bytes from README.md; 64 new tokens each, temperature
 * 1. tokens/s = generated tokens / seconds (best of `--steps` timed repeats, default 3, after one
 * warm-up); CPU time per token (each process, all threads, over the timed repeats) beside it, a
 * ratio a shared machine distorts less. An untrained policy draws the end-of-sequence byte now and then, which ends that row
 * early in `sample()`; only tokens actually generated are counted. Where a backend has the fused
 * kernels (lib/train/ops.ts fusedOps(): the torch backend, whose decode step and draw are one native
 * call per token for the batch) it also runs with them off first ("torch-unfused": the tfjs
 * compositions, the logits read back and drawn in JavaScript), for the before/after.
 *
 *   npm run bench -- generate [--backend torch|wasm|cpu|...] [--steps N] [--json]
 *   COMPOSER_LAB_BENCH_ROUNDS=N  N − 1 more rounds alternating each backend with PyTorch: the median ratio
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BACKENDS, withBackend } from "../lib/backend/index.js";
import { benchOptions } from "../lib/cli/bench.js";
import type { BenchResult } from "../lib/cli/index.js";
import { log } from "../lib/cli/output.js";
import { projectRoot } from "../lib/core/index.js";
import { Policy, VOCAB_SIZE, sample } from "../lib/train/index.js";
import { fusedOps, useFusedKernels } from "../lib/train/ops.js";

const CFG = { ctx: 128, d: 128, layers: 2, heads: 4, batch: 16, promptLen: 32, newTokens: 64 };
const REPEATS = 3;
/** COMPOSER_LAB_BENCH_ROUNDS (default 1): rounds of (tfjs, PyTorch); the ratio reported is their median. */
const ROUNDS = Math.max(1, Number(process.env.COMPOSER_LAB_BENCH_ROUNDS) || 1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Figures {
  tokens_per_s: number;
  ms_per_token_step: number;
  tokens: number;
  seconds: number[];
  /** CPU time of the whole process (every thread) per generated token, over the timed repeats. */
  cpu_us_per_token: number;
}

function prompts(): number[][] {
  const text = readFileSync(join(projectRoot(), "README.md"));
  return Array.from({ length: CFG.batch }, (_, r) => Array.from(text.subarray(r * 997, r * 997 + CFG.promptLen)));
}

function runTfjs(rows: number[][], repeats: number): Figures {
  const policy = new Policy({ vocab_size: VOCAB_SIZE, block_size: CFG.ctx, n_embd: CFG.d, n_layer: CFG.layers, n_head: CFG.heads, seed: 1 }); // not 0: tfjs treats seed 0 as unseeded
  try {
    const once = (seed: number) => {
      const t0 = performance.now();
      const out = sample(policy, rows, { max_new_tokens: CFG.newTokens, temperature: 1, seed });
      return { s: (performance.now() - t0) / 1000, tokens: out.reduce((n, c) => n + c.ids.length, 0) };
    };
    once(0); // warm-up
    const cpu0 = process.cpuUsage();
    const runs = Array.from({ length: repeats }, (_, i) => once(i + 1));
    const cpu = process.cpuUsage(cpu0);
    const best = runs.reduce((a, b) => (b.tokens / b.s > a.tokens / a.s ? b : a));
    const cpu_us_per_token = (cpu.user + cpu.system) / runs.reduce((n, r) => n + r.tokens, 0);
    return { tokens_per_s: best.tokens / best.s, ms_per_token_step: (1000 * best.s) / CFG.newTokens, tokens: best.tokens, seconds: runs.map((r) => Number(r.s.toFixed(3))), cpu_us_per_token };
  } finally {
    policy.dispose();
  }
}

function runTorch(rows: number[][], repeats: number): Figures | { skipped: string } {
  const python = process.env.COMPOSER_LAB_TORCH_PYTHON || "/usr/bin/python3";
  const dir = mkdtempSync(join(tmpdir(), "composer-lab-bench-generate-"));
  try {
    const file = join(dir, "prompts.bin");
    const flat = Int16Array.from(rows.flat());
    writeFileSync(file, Buffer.from(flat.buffer));
    const args = [join(projectRoot(), "bench", "generate_torch.py"), "--prompts", file, "--batch", CFG.batch, "--prompt-len", CFG.promptLen, "--new", CFG.newTokens, "--ctx", CFG.ctx, "--d", CFG.d, "--layers", CFG.layers, "--heads", CFG.heads, "--mlp", 4 * CFG.d, "--vocab", VOCAB_SIZE, "--repeats", repeats].map(String);
    const r = spawnSync(python, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 });
    if (r.error) return { skipped: `python3-torch not importable by ${python}: ${r.error.message}` };
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
    if (typeof out.skipped === "string") return { skipped: out.skipped };
    if (r.status !== 0) throw new Error(`bench/generate_torch.py exited ${r.status}: ${r.stdout.slice(-300)}`);
    return out as unknown as Figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult & Record<string, unknown>> {
  const opts = benchOptions();
  const only = opts.backend && opts.backend !== "auto" ? [opts.backend] : [...BACKENDS];
  const repeats = opts.steps ?? REPEATS;
  const rows = prompts();
  const tfjs: { backend: string; figures?: Figures; skipped?: string }[] = [];
  for (const backend of only) {
    try {
      if (await withBackend(backend, async () => fusedOps().name === "native")) {
        log(`tfjs on ${backend}, fused kernels off (before): 1 warm-up + ${repeats} timed generations of ${CFG.batch}×${CFG.newTokens} tokens`);
        const was = useFusedKernels(false);
        try {
          tfjs.push({ backend: `${backend}-unfused`, figures: await withBackend(backend, async () => runTfjs(rows, repeats)) });
        } finally {
          useFusedKernels(was);
        }
      }
      log(`tfjs on ${backend}: 1 warm-up + ${repeats} timed generations of ${CFG.batch}×${CFG.newTokens} tokens`);
      tfjs.push({ backend, figures: await withBackend(backend, async () => runTfjs(rows, repeats)) });
    } catch (e) {
      if (opts.backend && opts.backend !== "auto") throw e;
      log(`tfjs on ${backend} skipped: ${(e as Error).message}`);
      tfjs.push({ backend, skipped: (e as Error).message });
    }
  }
  log(`pytorch: 1 warm-up + ${repeats} timed generations`);
  const torch = runTorch(rows, repeats);
  const torchRan = !("skipped" in torch);
  const ratio = (f: Figures) => (torchRan ? Number((f.tokens_per_s / torch.tokens_per_s).toFixed(3)) : null);
  const row = (impl: string, backend: string, f?: Figures, note = "") => ({
    impl,
    backend,
    tokens_per_s: f ? Number(f.tokens_per_s.toFixed(1)) : null,
    vs_pytorch: f ? ratio(f) : null,
    ms_per_token_step: f ? Number(f.ms_per_token_step.toFixed(2)) : null,
    cpu_us_per_token: f ? Number(f.cpu_us_per_token.toFixed(1)) : null,
    vs_pytorch_cpu: f && torchRan ? Number((torch.cpu_us_per_token / f.cpu_us_per_token).toFixed(3)) : null,
    tokens: f?.tokens ?? null,
    note,
  });
  const rowsOut = [
    ...tfjs.map((t) => row("tfjs sample()", t.backend, t.figures, t.skipped ? `skipped: ${t.skipped}` : "")),
    torchRan ? row("pytorch", `${(torch as unknown as { threads: number }).threads} threads`, torch) : row("pytorch", "-", undefined, `skipped: ${torch.skipped}`),
  ];
  const ran = tfjs.filter((t) => t.figures);
  // More rounds, alternating each fused/plain backend with PyTorch (a shared machine): the median ratio.
  const rounds: Record<string, { wall: number[]; cpu: number[]; median: number; median_cpu: number }> = {};
  if (ROUNDS > 1 && torchRan) {
    for (const t of ran.filter((x) => !x.backend.endsWith("-unfused"))) {
      const wall = [t.figures!.tokens_per_s / torch.tokens_per_s];
      const cpu = [torch.cpu_us_per_token / t.figures!.cpu_us_per_token];
      for (let i = 1; i < ROUNDS; i++) {
        log(`round ${i + 1}/${ROUNDS}: tfjs on ${t.backend}, then pytorch`);
        const f = await withBackend(t.backend as (typeof BACKENDS)[number], async () => runTfjs(rows, repeats));
        const p = runTorch(rows, repeats);
        if ("skipped" in p) break;
        wall.push(f.tokens_per_s / p.tokens_per_s);
        cpu.push(p.cpu_us_per_token / f.cpu_us_per_token);
      }
      const r3 = (x: number) => Number(x.toFixed(3));
      rounds[t.backend] = { wall: wall.map(r3), cpu: cpu.map(r3), median: r3(median(wall)), median_cpu: r3(median(cpu)) };
    }
  }
  return {
    summary:
      `Batched KV-cache sampling, ${CFG.batch} rows × ${CFG.newTokens} new tokens after ${CFG.promptLen}-byte prompts (ctx ${CFG.ctx}, d ${CFG.d}, ${CFG.layers} layers): ` +
      ran.map((t) => `tfjs on ${t.backend} ${t.figures!.tokens_per_s.toFixed(0)} tokens/s${torchRan ? ` (${ratio(t.figures!)}×; by CPU time ${(torch.cpu_us_per_token / t.figures!.cpu_us_per_token).toFixed(3)}×)` : ""}`).join(", ") +
      (torchRan ? `; PyTorch ${torch.tokens_per_s.toFixed(0)} tokens/s` : `; PyTorch skipped: ${torch.skipped}`) +
      Object.entries(rounds).map(([b, x]) => `; ${b} over ${x.wall.length} alternated rounds: median ${x.median}× (${Math.min(...x.wall).toFixed(3)}–${Math.max(...x.wall).toFixed(3)}), by CPU time ${x.median_cpu}×`).join("") +
      ".",
    rows: rowsOut,
    ratios: {
      ...Object.fromEntries(ran.filter(() => torchRan).map((t) => [`${t.backend}_over_pytorch`, ratio(t.figures!)!])),
      ...Object.fromEntries(Object.entries(rounds).map(([b, x]) => [`${b}_over_pytorch_median`, x.median])),
    },
    rounds,
    config: CFG,
    tfjs: Object.fromEntries(tfjs.map((t) => [t.backend, t.figures ?? { skipped: t.skipped }])),
    pytorch: torch,
  };
}
