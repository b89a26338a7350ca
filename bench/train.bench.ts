/**
 * Training throughput: the lab's TensorFlow.js Policy (lib/train) on the chosen backend vs the
 * same GPT-2-shaped decoder in PyTorch (bench/train_torch.py, Debian's python3-torch run by
 * /usr/bin/python3), same config, same batches, same optimizer, in one run.
 *
 * Config: ctx 128, d_model 128, 2 layers, 4 heads, MLP 4·d, batch 16, Adam lr 3e-4, byte vocab 257;
 * data = README.md's bytes (repeated), windows at seeded random offsets. 2 warm-up steps, then
 * `--steps` timed steps (default 10 tfjs / 20 torch). tokens/s = batch·ctx·steps / seconds.
 * Before timing, each side's loss at init must be ≈ ln 257 (a broken model fails here, cheaply).
 *
 *   npm run bench -- train [--backend wasm|cpu|...] [--steps N] [--json]
 *
 * Without python3-torch the torch side reports {skipped: why} and the bench still gives tfjs.
 * COMPOSER_LAB_TORCH_PYTHON overrides the interpreter (default /usr/bin/python3).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tf } from "../lib/backend/index.js";
import { benchOptions } from "../lib/cli/bench.js";
import type { BenchResult } from "../lib/cli/index.js";
import { resolveBackend } from "../lib/cli/options.js";
import { projectRoot } from "../lib/core/index.js";
import { log } from "../lib/cli/output.js";
import { Policy, VOCAB_SIZE, sftLoss } from "../lib/train/index.js";

const CTX = 128;
const D = 128;
const LAYERS = 2;
const HEADS = 4;
const BATCH = 16;
const LR = 3e-4;
const WARMUP = 2;
const STEPS_TFJS = 10;
const STEPS_TORCH = 20;
const SEED = 0;
const LN_V = Math.log(VOCAB_SIZE);
/** |loss at init − ln V| allowed: logits at init have std ≈ 0.02·√d ≈ 0.23, adding ≈ 0.03. */
const INIT_TOL = 0.15;

interface Figures {
  steps: number;
  seconds: number;
  tokens_per_s: number;
  ms_per_step: number;
  init_loss: number;
  first_loss: number;
  final_loss: number;
  params: number;
  /** Loss of each timed step. */
  losses: number[];
}

/** `n` windows of ctx+1 bytes from README.md (repeated to cover at least one window), seeded. */
function batches(n: number): { tokens: Int16Array; source: string; bytes: number } {
  let text = readFileSync(join(projectRoot(), "README.md"));
  const bytes = text.length;
  while (text.length < 4 * (CTX + 1)) text = Buffer.concat([text, text]);
  let s = SEED + 0x9e3779b9;
  const rand = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const W = CTX + 1;
  const tokens = new Int16Array(n * BATCH * W);
  for (let r = 0; r < n * BATCH; r++) {
    const off = Math.floor(rand() * (text.length - W));
    for (let j = 0; j < W; j++) tokens[r * W + j] = text[off + j]!;
  }
  return { tokens, source: "README.md", bytes };
}

function runTfjs(tokens: Int16Array, steps: number): Figures & { mlp: number } {
  const policy = new Policy({ vocab_size: VOCAB_SIZE, block_size: CTX, n_embd: D, n_layer: LAYERS, n_head: HEADS, seed: SEED });
  const W = CTX + 1;
  const batch = (i: number) =>
    tf.tidy(() => {
      const all = tf.tensor2d(Int32Array.from(tokens.subarray(i * BATCH * W, (i + 1) * BATCH * W)), [BATCH, W], "int32");
      const x = all.slice([0, 0], [BATCH, CTX]) as tf.Tensor2D;
      const y = all.slice([0, 1], [BATCH, CTX]) as tf.Tensor2D;
      return { x, y };
    });
  // The trainer's lm_ce channel: next-token cross-entropy over every position.
  const everyToken = tf.ones([BATCH, CTX]) as tf.Tensor2D;
  const lossOf = (x: tf.Tensor2D, y: tf.Tensor2D) => sftLoss(policy.forward(x), y, everyToken);

  const b0 = batch(0);
  const l0 = tf.tidy(() => lossOf(b0.x, b0.y));
  const init_loss = l0.dataSync()[0]!;
  tf.dispose([l0, b0.x, b0.y]);
  if (!(Math.abs(init_loss - LN_V) < INIT_TOL)) throw new Error(`tfjs: loss at init ${init_loss.toFixed(4)} is not ≈ ln ${VOCAB_SIZE} = ${LN_V.toFixed(4)}: the model or the loss is wrong`);

  const opt = tf.train.adam(LR, 0.9, 0.999, 1e-8); // PyTorch's Adam defaults
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
  for (let i = 0; i < steps; i++) {
    losses.push(step(WARMUP + i));
    log(`tfjs step ${i + 1}/${steps}: loss ${losses.at(-1)!.toFixed(4)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  const figures = {
    steps,
    seconds,
    tokens_per_s: (BATCH * CTX * steps) / seconds,
    ms_per_step: (1000 * seconds) / steps,
    init_loss,
    first_loss: losses[0]!,
    final_loss: losses.at(-1)!,
    losses,
    params: policy.parameterCount(),
    mlp: policy.blocks[0]!.fc_w.shape[1]!,
  };
  opt.dispose();
  everyToken.dispose();
  policy.dispose();
  return figures;
}

type TorchFigures = Figures & { torch: string; python: string; threads: number; blas: string | null };
type TorchResult = TorchFigures | { skipped: string; detail?: string };

function runTorch(tokens: Int16Array, steps: number, mlp: number): TorchResult {
  const python = process.env.COMPOSER_LAB_TORCH_PYTHON || "/usr/bin/python3";
  const notImportable = `python3-torch not importable by ${python}`;
  const dir = mkdtempSync(join(tmpdir(), "composer-lab-bench-train-"));
  try {
    const data = join(dir, "batches.bin");
    writeFileSync(data, Buffer.from(tokens.buffer, tokens.byteOffset, tokens.byteLength));
    const args = [join(projectRoot(), "bench", "train_torch.py"), "--data", data, "--batch", BATCH, "--ctx", CTX, "--d", D, "--layers", LAYERS, "--heads", HEADS, "--mlp", mlp, "--vocab", VOCAB_SIZE, "--lr", LR, "--warmup", WARMUP, "--steps", steps, "--seed", SEED].map(String);
    log(`torch: ${python} ${args.join(" ")}`);
    const r = spawnSync(python, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 });
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
const r4 = (x: number) => Number(x.toFixed(4));

export async function run(): Promise<BenchResult & Record<string, unknown>> {
  const opts = benchOptions();
  const backend = await resolveBackend(opts);
  const stepsTfjs = opts.steps ?? STEPS_TFJS;
  const stepsTorch = opts.steps ?? STEPS_TORCH;
  const data = batches(WARMUP + Math.max(stepsTfjs, stepsTorch));

  log(`tfjs on ${backend.name}: ${WARMUP} warm-up + ${stepsTfjs} timed steps`);
  const tfjs = runTfjs(data.tokens, stepsTfjs);
  log(`torch: ${WARMUP} warm-up + ${stepsTorch} timed steps`);
  const torch = runTorch(data.tokens, stepsTorch, tfjs.mlp);
  const { mlp, ...tfjsFigures } = tfjs;

  const torchRan = !("skipped" in torch);
  const params = { tfjs: tfjs.params, torch: torchRan ? torch.params : null, match: torchRan ? torch.params === tfjs.params : null };
  if (params.match === false) log(`warning: parameter counts differ (tfjs ${tfjs.params}, torch ${params.torch}): the ratio compares different models`);
  // Debian's python3-torch does its matmuls through whichever libblas.so.3 update-alternatives
  // selects; the reference libblas3 (no libopenblas0 installed) makes PyTorch many times slower.
  const referenceBlas = torchRan && !!torch.blas && /\/blas\/libblas\.so/.test(torch.blas);
  if (referenceBlas) log(`warning: PyTorch runs on the reference BLAS (${torch.blas}); apt-get install libopenblas0-pthread for a realistic baseline`);
  const ratio = torchRan ? tfjs.tokens_per_s / torch.tokens_per_s : null;
  // Same batches, same optimizer: after the same number of steps the two losses should be close
  // (they differ only by the random init), a cheap check that both train the same model.
  const common = torchRan ? Math.min(tfjs.steps, torch.steps) : 0;
  const lossAtSameStep = torchRan ? { step: WARMUP + common, tfjs: r4(tfjs.losses[common - 1]!), torch: r4(torch.losses[common - 1]!) } : null;
  const lossDown = { tfjs: tfjs.final_loss < tfjs.init_loss, torch: torchRan ? torch.final_loss < torch.init_loss : null };

  const row = (impl: string, f: Figures) => ({
    impl,
    tokens_per_s: r1(f.tokens_per_s),
    ms_per_step: r1(f.ms_per_step),
    steps: f.steps,
    init_loss: r4(f.init_loss),
    final_loss: r4(f.final_loss),
    params: f.params,
  });
  const rows: Record<string, unknown>[] = [row(`tfjs (${backend.name})`, tfjs)];
  if (torchRan) rows.push(row(`pytorch ${torch.torch} (${torch.threads} threads${referenceBlas ? ", reference BLAS" : ""})`, torch));
  else rows.push({ impl: `pytorch: skipped (${torch.skipped})`, tokens_per_s: null, ms_per_step: null, steps: null, init_loss: null, final_loss: null, params: null });

  const cfg = `ctx ${CTX}, d ${D}, ${LAYERS} layers, ${HEADS} heads, MLP ${mlp}, batch ${BATCH}, Adam ${LR}, vocab ${VOCAB_SIZE}`;
  const summary =
    `Training a ${tfjs.params.toLocaleString("en-US")}-parameter transformer (${cfg}): tfjs on ${backend.name} ${tfjs.tokens_per_s.toFixed(0)} tokens/s` +
    (torchRan
      ? `, PyTorch ${torch.torch} on ${torch.threads} threads ${torch.tokens_per_s.toFixed(0)} tokens/s → tfjs = ${ratio!.toFixed(4)}× PyTorch (1/${(1 / ratio!).toFixed(1)})` +
        (params.match ? "" : ` [parameter counts differ: ${tfjs.params} vs ${torch.params}]`) +
        (referenceBlas ? " [PyTorch on the reference BLAS libblas3: install libopenblas0-pthread for a realistic baseline]" : "")
      : `; PyTorch skipped: ${torch.skipped}`) +
    `. Loss at init ≈ ln ${VOCAB_SIZE} = ${LN_V.toFixed(3)} on both; final loss tfjs ${tfjs.final_loss.toFixed(3)}` +
    (torchRan ? `, torch ${torch.final_loss.toFixed(3)}; at step ${lossAtSameStep!.step} tfjs ${lossAtSameStep!.tfjs.toFixed(3)} vs torch ${lossAtSameStep!.torch.toFixed(3)}` : "") + ".";

  return {
    summary,
    rows,
    ratios: ratio === null ? {} : { tfjs_over_torch: Number(ratio.toPrecision(4)), torch_over_tfjs: Number((1 / ratio).toPrecision(4)) },
    backend,
    config: { ctx: CTX, d_model: D, n_layer: LAYERS, n_head: HEADS, mlp, batch: BATCH, lr: LR, vocab: VOCAB_SIZE, warmup: WARMUP, data: data.source, data_bytes: data.bytes },
    tfjs: tfjsFigures,
    torch,
    params,
    loss_down: lossDown,
    loss_at_same_step: lossAtSameStep,
    torch_reference_blas: torchRan ? referenceBlas : null,
    ratio,
  };
}
