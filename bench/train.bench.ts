/**
 * Training throughput: the lab's TensorFlow.js Policy (lib/train) on every available tfjs backend,
 * side by side, vs the same GPT-2-shaped decoder in PyTorch (bench/train_torch.py, Debian's
 * python3-torch run by /usr/bin/python3): same configs, same batches, same optimizer, in one run.
 *
 * Configs: "bench" = ctx 128, d_model 128, 2 layers, 4 heads, MLP 4·d, batch 16 (the issue-18
 * target: torch ≥ 0.5× PyTorch) and "big" = ctx 256, d 256, 4 layers, 4 heads, batch 16. Adam lr
 * 3e-4, byte vocab 257; data = README.md's bytes (repeated), windows at seeded random offsets.
 * 2 warm-up steps, then timed steps (default: torch 10, wasm 5 (2 on "big"), cpu 2; PyTorch 10;
 * `--steps` sets them all; COMPOSER_LAB_BENCH_ROUNDS=N adds N − 1 more rounds alternating each
 * backend's fused run with PyTorch and reports the median ratio; COMPOSER_LAB_BENCH_CONFIGS=big (or
 * bench, comma-separated) runs only those configs); the cpu backend runs the "bench" config only (minutes per step on "big").
 * tokens/s = batch·ctx·steps / seconds; each side's CPU time per step (all its threads) is given
 * too, and its ratio (`vs_pytorch_cpu`), which a machine shared with other work distorts less than wall
 * time. Before timing, each side's loss at init must be ≈ ln 257.
 * One extra step per backend is profiled per kernel (wall time, every backend here is synchronous):
 * `top_kernels` in the JSON, and printed on stderr. Where a backend has the fused kernels
 * (lib/train/ops.ts fusedOps(): the torch backend) it runs twice, first with them off ("torch-unfused":
 * the tfjs compositions and tfjs's Adam, the profile before) and then on ("torch": the profile after).
 * Adam is lib/train's fusedAdam (tfjs's AdamOptimizer; one native update where the backend has it).
 *
 *   npm run bench -- train [--backend torch|wasm|cpu|...] [--steps N] [--json]
 *
 * --backend (or $COMPOSER_LAB_BACKEND) narrows the run to that backend; auto/absent runs all of
 * tensorflow, torch, webgpu, wasm, cpu that start (the others get a row saying why not).
 * Without python3-torch the PyTorch rows say why and the bench still gives tfjs.
 * COMPOSER_LAB_TORCH_PYTHON overrides the interpreter (default /usr/bin/python3).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BACKENDS, type BackendName, currentBackend, profileKernels, tf, withBackend } from "../lib/backend/index.js";
import { benchOptions } from "../lib/cli/bench.js";
import type { BenchResult } from "../lib/cli/index.js";
import { projectRoot } from "../lib/core/index.js";
import { log } from "../lib/cli/output.js";
import { Policy, VOCAB_SIZE, sftLoss } from "../lib/train/index.js";
import { fusedAdam, fusedOps, useFusedKernels } from "../lib/train/ops.js";

interface Config {
  name: string;
  ctx: number;
  d: number;
  layers: number;
  heads: number;
  batch: number;
}
const CONFIGS: Config[] = [
  { name: "bench", ctx: 128, d: 128, layers: 2, heads: 4, batch: 16 },
  { name: "big", ctx: 256, d: 256, layers: 4, heads: 4, batch: 16 },
];
const LR = 3e-4;
const WARMUP = 2;
/** Timed steps per backend when --steps is absent (the slow ones fewer: their spread is small next to their gap). */
const DEFAULT_STEPS: Partial<Record<BackendName, number>> = { torch: 10, tensorflow: 10, webgpu: 5, wasm: 5, cpu: 2 };
const STEPS_TORCH = 10;
/** Fewer timed steps on the big config for the slow backends. */
const BIG_STEPS: Partial<Record<BackendName, number>> = { wasm: 2, webgpu: 2 };
/** Backends too slow for the big config (minutes per step). */
const SMALL_ONLY: BackendName[] = ["cpu"];
/** Not 0: tfjs random ops treat seed 0 as "no seed" (`seed ? seed : Math.random()`), and the Policy seeds its first tensor with config.seed. */
const SEED = 1;
const LN_V = Math.log(VOCAB_SIZE);
/** |loss at init − ln V| allowed: logits at init have std ≈ 0.02·√d ≈ 0.23–0.32, adding ≈ 0.03–0.05. */
const INIT_TOL = 0.15;

interface Figures {
  steps: number;
  seconds: number;
  tokens_per_s: number;
  ms_per_step: number;
  /** CPU time of the whole process (every thread) per timed step: on a shared machine the fairer comparison. */
  cpu_ms_per_step: number;
  init_loss: number;
  first_loss: number;
  final_loss: number;
  params: number;
  /** Loss of each timed step. */
  losses: number[];
}
type KernelTime = { kernel: string; ms_per_step: number; share: number; calls: number };

/** `n` batches of windows of ctx+1 bytes from README.md (repeated to cover at least one window), seeded. */
function batches(cfg: Config, n: number): { tokens: Int16Array; source: string; bytes: number } {
  let text = readFileSync(join(projectRoot(), "README.md"));
  const bytes = text.length;
  while (text.length < 4 * (cfg.ctx + 1)) text = Buffer.concat([text, text]);
  let s = SEED + 0x9e3779b9;
  const rand = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const W = cfg.ctx + 1;
  const tokens = new Int16Array(n * cfg.batch * W);
  for (let r = 0; r < n * cfg.batch; r++) {
    const off = Math.floor(rand() * (text.length - W));
    for (let j = 0; j < W; j++) tokens[r * W + j] = text[off + j]!;
  }
  return { tokens, source: "README.md", bytes };
}

/** Per-kernel time of one training step, rounded for the report. */
const stepKernels = (fn: () => void): KernelTime[] =>
  profileKernels(fn).map((k) => ({ kernel: k.kernel, ms_per_step: Number(k.ms.toFixed(1)), share: Number(k.share.toFixed(3)), calls: k.calls }));

function runTfjs(cfg: Config, tokens: Int16Array, steps: number): Figures & { mlp: number; top_kernels: KernelTime[] } {
  const policy = new Policy({ vocab_size: VOCAB_SIZE, block_size: cfg.ctx, n_embd: cfg.d, n_layer: cfg.layers, n_head: cfg.heads, seed: SEED });
  const W = cfg.ctx + 1;
  const B = cfg.batch;
  const batch = (i: number) =>
    tf.tidy(() => {
      const all = tf.tensor2d(Int32Array.from(tokens.subarray(i * B * W, (i + 1) * B * W)), [B, W], "int32");
      const x = all.slice([0, 0], [B, cfg.ctx]) as tf.Tensor2D;
      const y = all.slice([0, 1], [B, cfg.ctx]) as tf.Tensor2D;
      return { x, y };
    });
  // The trainer's lm_ce channel: next-token cross-entropy over every position.
  const everyToken = tf.ones([B, cfg.ctx]) as tf.Tensor2D;
  const lossOf = (x: tf.Tensor2D, y: tf.Tensor2D) => sftLoss(policy.forward(x), y, everyToken);

  const b0 = batch(0);
  const l0 = tf.tidy(() => lossOf(b0.x, b0.y));
  const init_loss = l0.dataSync()[0]!;
  tf.dispose([l0, b0.x, b0.y]);
  if (!(Math.abs(init_loss - LN_V) < INIT_TOL)) throw new Error(`tfjs on ${tf.getBackend()}: loss at init ${init_loss.toFixed(4)} is not ≈ ln ${VOCAB_SIZE} = ${LN_V.toFixed(4)}: the model or the loss is wrong`);

  const opt = fusedAdam(LR, 0.9, 0.999, 1e-8); // PyTorch's Adam defaults
  const vars = policy.variables();
  const step = (i: number): number => {
    const { x, y } = batch(i);
    const loss = opt.minimize(() => lossOf(x, y), true, vars)!;
    const v = loss.dataSync()[0]!; // waits for the step, on every backend
    tf.dispose([loss, x, y]);
    return v;
  };
  for (let i = 0; i < WARMUP; i++) step(i);
  const losses: number[] = [];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < steps; i++) {
    losses.push(step(WARMUP + i));
    log(`${cfg.name} tfjs on ${tf.getBackend()} step ${i + 1}/${steps}: loss ${losses.at(-1)!.toFixed(4)}`);
  }
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  const top_kernels = stepKernels(() => step(WARMUP + steps)); // after timing: the wrapper costs a little
  const figures = {
    steps,
    seconds,
    tokens_per_s: (B * cfg.ctx * steps) / seconds,
    ms_per_step: (1000 * seconds) / steps,
    cpu_ms_per_step: (cpu.user + cpu.system) / 1000 / steps,
    init_loss,
    first_loss: losses[0]!,
    final_loss: losses.at(-1)!,
    losses,
    params: policy.parameterCount(),
    mlp: policy.blocks[0]!.fc_w.shape[1]!,
    top_kernels,
  };
  opt.dispose();
  everyToken.dispose();
  policy.dispose();
  return figures;
}

type TorchFigures = Figures & { torch: string; python: string; threads: number; blas: string | null };
type TorchResult = TorchFigures | { skipped: string; detail?: string };

function runTorch(cfg: Config, tokens: Int16Array, steps: number, mlp: number): TorchResult {
  const python = process.env.COMPOSER_LAB_TORCH_PYTHON || "/usr/bin/python3";
  const notImportable = `python3-torch not importable by ${python}`;
  const dir = mkdtempSync(join(tmpdir(), "composer-lab-bench-train-"));
  try {
    const data = join(dir, "batches.bin");
    writeFileSync(data, Buffer.from(tokens.buffer, tokens.byteOffset, tokens.byteLength));
    const args = [join(projectRoot(), "bench", "train_torch.py"), "--data", data, "--batch", cfg.batch, "--ctx", cfg.ctx, "--d", cfg.d, "--layers", cfg.layers, "--heads", cfg.heads, "--mlp", mlp, "--vocab", VOCAB_SIZE, "--lr", LR, "--warmup", WARMUP, "--steps", steps, "--seed", SEED].map(String);
    log(`${cfg.name} pytorch: ${python} ${args.join(" ")}`);
    const r = spawnSync(python, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 1_800_000 });
    if (r.error) return { skipped: notImportable, detail: r.error.message };
    const last = r.stdout.trim().split("\n").at(-1) ?? "";
    let out: Record<string, unknown>;
    try {
      out = JSON.parse(last);
    } catch {
      throw new Error(`bench/train_torch.py exited ${r.status ?? r.signal} without a JSON line: ${r.stdout.slice(-500)}`);
    }
    if (typeof out.skipped === "string") return { skipped: notImportable, detail: out.skipped };
    if (typeof out.error === "string" || r.status !== 0) throw new Error(`bench/train_torch.py: ${String(out.error ?? `exit ${r.status}`)}`);
    const f = out as unknown as TorchFigures;
    if (!(Math.abs(f.init_loss - LN_V) < INIT_TOL)) throw new Error(`torch: loss at init ${f.init_loss.toFixed(4)} is not ≈ ln ${VOCAB_SIZE} = ${LN_V.toFixed(4)}`);
    return f;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const r1 = (x: number) => Number(x.toFixed(1));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/** COMPOSER_LAB_BENCH_ROUNDS (default 1): rounds of (tfjs, PyTorch) per config; the ratio reported is their median. */
const ROUNDS = Math.max(1, Number(process.env.COMPOSER_LAB_BENCH_ROUNDS) || 1);
/** COMPOSER_LAB_BENCH_CONFIGS (default: all): the configs to run, by name. */
function selectedConfigs(): Config[] {
  const want = (process.env.COMPOSER_LAB_BENCH_CONFIGS ?? "").split(",").map((x) => x.trim()).filter(Boolean);
  const unknown = want.filter((w) => !CONFIGS.some((c) => c.name === w));
  if (unknown.length) throw new Error(`COMPOSER_LAB_BENCH_CONFIGS: no config named ${unknown.join(", ")} (have ${CONFIGS.map((c) => c.name).join(", ")})`);
  return want.length ? CONFIGS.filter((c) => want.includes(c.name)) : CONFIGS;
}
const r4 = (x: number) => Number(x.toFixed(4));

/** A backend, or a backend with its fused kernels off ("torch-unfused"). */
type TfjsRun = { backend: string; provider?: string; figures?: ReturnType<typeof runTfjs>; skipped?: string };

const printProfile = (label: string, ks: KernelTime[]) =>
  log(`${label}: ${ks.reduce((n, k) => n + k.calls, 0)} kernel calls, ${ks.reduce((n, k) => n + k.ms_per_step, 0).toFixed(1)} ms in kernels per step; top: ${ks.slice(0, 8).map((k) => `${k.kernel} ${k.ms_per_step} ms ×${k.calls}`).join(", ")}`);

export async function run(): Promise<BenchResult & Record<string, unknown>> {
  const opts = benchOptions();
  const only = opts.backend && opts.backend !== "auto" ? [opts.backend] : [...BACKENDS];
  const rows: Record<string, unknown>[] = [];
  const ratios: Record<string, number> = {};
  const results: Record<string, unknown>[] = [];
  const summaries: string[] = [];
  let referenceBlas = false;

  for (const cfg of selectedConfigs()) {
    const steps = (b: BackendName) => opts.steps ?? (cfg.name === "big" ? BIG_STEPS[b] : undefined) ?? DEFAULT_STEPS[b] ?? 5;
    const stepsTorch = opts.steps ?? STEPS_TORCH;
    const data = batches(cfg, WARMUP + Math.max(stepsTorch, ...only.map(steps)) + 1);
    const runs: TfjsRun[] = [];
    for (const backend of only) {
      if (cfg.name !== "bench" && SMALL_ONLY.includes(backend) && only.length > 1) {
        runs.push({ backend, skipped: "not run on this config (minutes per step); see the bench config's row" });
        continue;
      }
      try {
        const provider = currentBackend()?.name === backend ? currentBackend()!.provider : undefined;
        const hasFused = await withBackend(backend, async () => fusedOps().name === "native");
        if (hasFused) {
          log(`${cfg.name}: tfjs on ${backend}, fused kernels off (before): ${WARMUP} warm-up + ${steps(backend)} timed steps`);
          const was = useFusedKernels(false);
          try {
            const figures = await withBackend(backend, async () => runTfjs(cfg, data.tokens, steps(backend)));
            runs.push({ backend: `${backend}-unfused`, figures, provider });
            printProfile(`${cfg.name} ${backend}-unfused kernel profile (before)`, figures.top_kernels);
          } finally {
            useFusedKernels(was);
          }
        }
        log(`${cfg.name}: tfjs on ${backend}: ${WARMUP} warm-up + ${steps(backend)} timed steps`);
        const figures = await withBackend(backend, async () => runTfjs(cfg, data.tokens, steps(backend)));
        runs.push({ backend, figures, provider });
        printProfile(`${cfg.name} ${backend} kernel profile${hasFused ? " (after: fused kernels)" : ""}`, figures.top_kernels);
      } catch (e) {
        const why = (e as Error).message;
        if (opts.backend && opts.backend !== "auto") throw new Error(`tfjs backend "${backend}" could not run the ${cfg.name} config: ${why}`);
        log(`${cfg.name}: tfjs on ${backend} skipped: ${why}`);
        runs.push({ backend, skipped: why });
      }
    }
    const mlp = 4 * cfg.d;
    log(`${cfg.name}: pytorch: ${WARMUP} warm-up + ${stepsTorch} timed steps`);
    const torch = runTorch(cfg, data.tokens, stepsTorch, mlp);
    const torchRan = !("skipped" in torch);
    const blasRef = torchRan && !!torch.blas && /\/blas\/libblas\.so/.test(torch.blas);
    referenceBlas ||= blasRef;

    const shape = `ctx ${cfg.ctx}, d ${cfg.d}, ${cfg.layers} layers, ${cfg.heads} heads, MLP ${mlp}, batch ${cfg.batch}`;
    const row = (impl: string, backend: string, f: Figures | undefined, skipped?: string) => ({
      config: cfg.name,
      impl,
      backend,
      tokens_per_s: f ? r1(f.tokens_per_s) : null,
      vs_pytorch: f && torchRan ? Number((f.tokens_per_s / torch.tokens_per_s).toFixed(3)) : null,
      ms_per_step: f ? r1(f.ms_per_step) : null,
      cpu_ms_per_step: f ? r1(f.cpu_ms_per_step) : null,
      vs_pytorch_cpu: f && torchRan ? Number((torch.cpu_ms_per_step / f.cpu_ms_per_step).toFixed(3)) : null,
      steps: f?.steps ?? null,
      init_loss: f ? r4(f.init_loss) : null,
      final_loss: f ? r4(f.final_loss) : null,
      params: f?.params ?? null,
      note: skipped ?? "",
    });
    for (const r of runs) {
      rows.push(row("tfjs", r.backend, r.figures, r.skipped ? `skipped: ${r.skipped}` : undefined));
      if (r.figures && torchRan) ratios[`${cfg.name}.${r.backend}_over_pytorch`] = Number((r.figures.tokens_per_s / torch.tokens_per_s).toPrecision(4));
    }
    if (torchRan) rows.push(row(`pytorch ${torch.torch}`, `${torch.threads} threads${blasRef ? ", reference BLAS" : ""}`, torch));
    else rows.push(row("pytorch", "-", undefined, `skipped: ${torch.skipped}`));

    const ran = runs.filter((r) => r.figures);
    // More rounds, alternating each fused/plain backend with PyTorch, on a shared machine: the median ratio.
    const rounds: Record<string, { wall: number[]; cpu: number[]; median: number; median_cpu: number }> = {};
    if (ROUNDS > 1 && torchRan) {
      for (const r of ran.filter((x) => !x.backend.endsWith("-unfused"))) {
        const wall = [r.figures!.tokens_per_s / torch.tokens_per_s];
        const cpu = [torch.cpu_ms_per_step / r.figures!.cpu_ms_per_step];
        for (let i = 1; i < ROUNDS; i++) {
          log(`${cfg.name}: round ${i + 1}/${ROUNDS}: tfjs on ${r.backend}, then pytorch`);
          const f = await withBackend(r.backend as BackendName, async () => runTfjs(cfg, data.tokens, steps(r.backend as BackendName)));
          const t = runTorch(cfg, data.tokens, stepsTorch, mlp);
          if ("skipped" in t) break;
          wall.push(f.tokens_per_s / t.tokens_per_s);
          cpu.push(t.cpu_ms_per_step / f.cpu_ms_per_step);
        }
        rounds[r.backend] = { wall: wall.map(r4), cpu: cpu.map(r4), median: r4(median(wall)), median_cpu: r4(median(cpu)) };
        ratios[`${cfg.name}.${r.backend}_over_pytorch_median`] = r4(median(wall));
      }
    }
    summaries.push(
      `${cfg.name} (${shape}, ${ran[0]?.figures?.params.toLocaleString("en-US") ?? "?"} parameters): ` +
        ran.map((r) => `tfjs on ${r.backend} ${r.figures!.tokens_per_s.toFixed(0)} tokens/s${torchRan ? ` (${(r.figures!.tokens_per_s / torch.tokens_per_s).toFixed(3)}×; by CPU time ${(torch.cpu_ms_per_step / r.figures!.cpu_ms_per_step).toFixed(3)}×)` : ""}`).join(", ") +
        (torchRan ? `; PyTorch ${torch.torch} on ${torch.threads} threads ${torch.tokens_per_s.toFixed(0)} tokens/s` : `; PyTorch skipped: ${torch.skipped}`) +
        Object.entries(rounds).map(([b, x]) => `; ${b} over ${x.wall.length} alternated rounds: median ${x.median}× (${Math.min(...x.wall).toFixed(3)}–${Math.max(...x.wall).toFixed(3)}), by CPU time ${x.median_cpu}×`).join(""),
    );
    // Same batches, same optimizer: after the same number of steps the losses should be close
    // (they differ by the random init), a cheap check that every side trains the same model.
    const lossAtStep = (f: Figures, k: number) => r4(f.losses[Math.min(k, f.steps) - 1]!);
    const k = Math.min(...ran.map((r) => r.figures!.steps), torchRan ? torch.steps : Infinity);
    results.push({
      config: { ...cfg, mlp, lr: LR, vocab: VOCAB_SIZE, warmup: WARMUP, data: data.source, data_bytes: data.bytes },
      tfjs: Object.fromEntries(runs.map((r) => [r.backend, r.figures ? { ...r.figures, mlp: undefined } : { skipped: r.skipped }])),
      pytorch: torch,
      loss_at_same_step: Number.isFinite(k) ? { step: WARMUP + k, ...Object.fromEntries(ran.map((r) => [r.backend, lossAtStep(r.figures!, k)])), ...(torchRan ? { pytorch: lossAtStep(torch, k) } : {}) } : null,
      loss_down: Object.fromEntries(ran.map((r) => [r.backend, r.figures!.final_loss < r.figures!.init_loss])),
      top_kernels: Object.fromEntries(ran.map((r) => [r.backend, r.figures!.top_kernels.slice(0, 10)])),
      rounds,
      kernel_calls_per_step: Object.fromEntries(ran.map((r) => [r.backend, r.figures!.top_kernels.reduce((n, k) => n + k.calls, 0)])),
    });
  }
  if (referenceBlas) log("warning: PyTorch runs on the reference BLAS; apt-get install libopenblas0-pthread for a realistic baseline");
  const top = (results[0] as { top_kernels: Record<string, KernelTime[]> }).top_kernels;
  const kernels = Object.entries(top).map(([b, ks]) => `${b}: ${ks.slice(0, 4).map((k) => `${k.kernel} ${(100 * k.share).toFixed(0)}%`).join(", ")}`).join("; ");
  return {
    summary: `Training throughput, tokens/s (× PyTorch in the same run). ${summaries.join(". ")}. Top kernels by time (bench config): ${kernels}.`,
    rows,
    ratios,
    backends: only,
    configs: results,
    torch_reference_blas: referenceBlas,
  };
}
