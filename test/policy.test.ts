import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend, tf } from "../lib/backend/index.js";
import { Rng } from "../lib/core/index.js";
import {
  BOS, Policy, encode, generate, latestCheckpoint, loadCheckpoint, restoreOptimizer, sample, saveCheckpoint, scoreContinuation, selectCacheRows,
  verifyCheckpoint, type KVCache,
} from "../lib/train/index.js";
import { ROOT, tmp } from "./helpers.js";
import { TINY, flatWeights, maxAbsDiff, trainStep } from "./support/tiny-train.js";

beforeAll(async () => {
  await initBackend();
});

const ids2d = (rows: number[][]) => tf.tensor2d(rows, [rows.length, rows[0]!.length], "int32");

/** logits of the full sequence, via forward, as nested arrays [T][V]. */
function fullLogits(policy: Policy, seq: number[]): number[][] {
  const x = ids2d([seq]);
  const l = policy.forward(x);
  const out = (l.arraySync() as number[][][])[0]!;
  tf.dispose([x, l]);
  return out;
}

/** Runs forwardCached on `rows` and returns its logits as arrays (and the new cache). */
function step(policy: Policy, rows: number[][], cache: KVCache | null, pad?: number[]): { logits: number[][][]; cache: KVCache } {
  const x = ids2d(rows);
  const r = policy.forwardCached(x, cache, pad);
  const logits = r.logits.arraySync() as number[][][];
  tf.dispose([x, r.logits]);
  return { logits, cache: r.cache };
}

describe("Policy", () => {
  it("has an MLP width n_inner, 4·n_embd by default", () => {
    const a = new Policy({ n_layer: 1, n_embd: 16, n_head: 2, block_size: 8 });
    const b = new Policy({ n_layer: 1, n_embd: 16, n_head: 2, block_size: 8, n_inner: 24 });
    expect(a.config.n_inner).toBe(64);
    expect(a.blocks[0]!.fc_w.shape).toEqual([16, 64]);
    expect(b.blocks[0]!.fc_w.shape).toEqual([16, 24]);
    expect(b.blocks[0]!.fc2_w.shape).toEqual([24, 16]);
    expect(a.parameterCount() - b.parameterCount()).toBe(2 * 16 * 40 + 40);
    expect(fullLogits(b, [BOS, 1, 2]).length).toBe(3);
    expect(a.namedVariables().map(([n]) => n).slice(0, 4)).toEqual(["wte", "wpe", "h.0.ln1_g", "h.0.ln1_b"]);
    a.dispose();
    b.dispose();
  });

  it("is initialised the same from the same seed, seed 0 included (tfjs reads a 0 seed as none)", () => {
    for (const seed of [0, 1]) {
      const [a, b] = [new Policy({ ...TINY, seed }), new Policy({ ...TINY, seed })];
      expect(maxAbsDiff(flatWeights(a), flatWeights(b))).toBe(0);
      a.dispose();
      b.dispose();
    }
    const [z, o] = [new Policy({ ...TINY, seed: 0 }), new Policy({ ...TINY, seed: 1 })];
    expect(maxAbsDiff(flatWeights(z), flatWeights(o))).toBeGreaterThan(0);
    z.dispose();
    o.dispose();
  });

  it("forwardCached (prefill, then 1 or more tokens a step) gives forward's logits", () => {
    const policy = new Policy({ block_size: 32, n_layer: 2, n_head: 4, n_embd: 32, seed: 1 });
    const seq = [BOS, ...encode("cached attention!")];
    const want = fullLogits(policy, seq);
    let { logits, cache } = step(policy, [seq.slice(0, 5)], null);
    const got = logits[0]!;
    for (let i = 5; i < 9; i++) {
      ({ logits, cache } = step(policy, [[seq[i]!]], cache));
      got.push(logits[0]![0]!);
    }
    ({ logits, cache } = step(policy, [seq.slice(9)], cache)); // a multi-token chunk
    got.push(...logits[0]!);
    expect(cache.length).toBe(seq.length);
    expect(cache.tokens[0]).toEqual(seq);
    expect(maxAbsDiff(got.flat(), want.flat())).toBeLessThan(1e-4);
    policy.dispose();
  });

  it("batches left-padded prompts of different lengths, each row at its own positions", () => {
    const policy = new Policy({ block_size: 32, n_layer: 2, n_head: 2, n_embd: 16, seed: 2 });
    const prompts = [[BOS, 5, 6], [BOS, 7, 8, 9, 10, 11, 12], [BOS, 13, 14, 15, 16]];
    const conts = [[20, 21, 22, 23], [30, 31, 32, 33], [40, 41, 42, 43]];
    const W = 7;
    const pad = prompts.map((p) => W - p.length);
    let { logits, cache } = step(policy, prompts.map((p, r) => [...new Array<number>(pad[r]!).fill(0), ...p]), null, pad);
    const got = prompts.map((_, r) => logits[r]!.slice(pad[r]!));
    for (let i = 0; i < 2; i++) {
      ({ logits, cache } = step(policy, conts.map((c) => [c[i]!]), cache));
      got.forEach((g, r) => g.push(logits[r]![0]!));
    }
    // Drop the longest row (row 1): the others keep going with their padding trimmed.
    cache = selectCacheRows(cache, [0, 2]);
    expect(cache.pad).toEqual([2, 0]);
    expect(cache.length).toBe(7);
    for (let i = 2; i < 4; i++) {
      ({ logits, cache } = step(policy, [[conts[0]![i]!], [conts[2]![i]!]], cache));
      got[0]!.push(logits[0]![0]!);
      got[2]!.push(logits[1]![0]!);
    }
    for (const r of [0, 1, 2]) {
      const seq = [...prompts[r]!, ...conts[r]!.slice(0, r === 1 ? 2 : 4)];
      const want = fullLogits(policy, seq).slice(0, got[r]!.length);
      expect(got[r]!.length).toBe(r === 1 ? 9 : seq.length);
      expect(maxAbsDiff(got[r]!.flat(), want.flat())).toBeLessThan(1e-4);
    }
    policy.dispose();
  });

  it("slides a block_size window once the sequence is full", () => {
    const policy = new Policy({ block_size: 8, n_layer: 1, n_head: 2, n_embd: 16, seed: 3 });
    const seq = [BOS, ...encode("a sequence longer than the block")];
    let { logits, cache } = step(policy, [seq.slice(0, 6)], null);
    for (let i = 6; i < 20; i++) {
      ({ logits, cache } = step(policy, [[seq[i]!]], cache));
      const window = seq.slice(Math.max(0, i + 1 - 8), i + 1);
      expect(maxAbsDiff(logits[0]![0]!, fullLogits(policy, window).at(-1)!)).toBeLessThan(1e-4);
      expect(cache.length).toBe(Math.min(8, i + 1));
    }
    policy.dispose();
  });

  it("does not leak tensors across a 50-token generation", () => {
    const policy = new Policy({ block_size: 32, n_layer: 2, n_head: 2, n_embd: 16, seed: 4 });
    const before = tf.memory().numTensors;
    const prompt = ids2d([[BOS, 1, 2]]);
    let { logits, cache } = policy.forwardCached(prompt, null);
    prompt.dispose();
    const counts: number[] = [];
    for (let i = 0; i < 50; i++) { // runs past block_size: the sliding path too
      logits.dispose();
      const x = ids2d([[i % 200]]);
      ({ logits, cache } = policy.forwardCached(x, cache));
      x.dispose();
      counts.push(tf.memory().numTensors);
    }
    logits.dispose();
    expect(new Set(counts).size).toBe(1); // logits + 2 per layer, every step
    expect(counts[0]).toBe(before + 1 + 2 * 2);
    for (const l of cache.layers) tf.dispose([l.k, l.v]);
    const b2 = tf.memory().numTensors;
    sample(policy, ["hello", "a longer prompt"], { max_new_tokens: 50, temperature: 0.9, top_k: 20, top_p: 0.9, seed: 1 });
    generate(policy, "x", { maxTokens: 50 });
    expect(tf.memory().numTensors).toBe(b2);
    policy.dispose();
  });
});

describe("sample", () => {
  const policy = () => new Policy({ block_size: 32, n_layer: 1, n_head: 2, n_embd: 16, seed: 5 });

  it("returns exact untempered log-probs, greedy picks the argmax, and prompts may be ids", () => {
    const p = policy();
    const [a, b] = sample(p, ["ab", [BOS, 99, 100, 101]], { max_new_tokens: 6, temperature: 0 });
    for (const [prompt, c] of [[[BOS, ...encode("ab")], a!], [[BOS, 99, 100, 101], b!]] as const) {
      expect(c.ids.length).toBeGreaterThan(0);
      expect(c.logprobs.length).toBe(c.ids.length);
      const logits = fullLogits(p, [...prompt, ...c.ids].slice(0, -1)).slice(prompt.length - 1);
      c.ids.forEach((id, i) => {
        const row = logits[i]!;
        const m = Math.max(...row);
        const lse = m + Math.log(row.reduce((s, x) => s + Math.exp(x - m), 0));
        expect(Math.abs(c.logprobs[i]! - (row[id]! - lse))).toBeLessThan(1e-4);
        expect(row[id]!).toBeGreaterThanOrEqual(m - 1e-4);
      });
    }
    // The same as scoreContinuation's log-probs for the generated bytes (when there is no EOS).
    if (!a!.ids.includes(BOS) && a!.ids.every((i) => i < 128)) {
      const s = scoreContinuation(p, "ab", a!.text);
      expect(maxAbsDiff(s.tokenLogprobs, a!.logprobs)).toBeLessThan(1e-4);
    }
    p.dispose();
  });

  it("is reproducible from a seed, and from a saved Rng state mid-stream", () => {
    const p = policy();
    const opts = { max_new_tokens: 12, temperature: 1.2, top_k: 50, top_p: 0.95 };
    const x = sample(p, ["one", "two"], { ...opts, seed: 9 });
    expect(sample(p, ["one", "two"], { ...opts, seed: 9 })).toEqual(x);
    expect(sample(p, ["one", "two"], { ...opts, seed: 10 })).not.toEqual(x);
    const rng = new Rng(3);
    sample(p, ["one"], { ...opts, rng });
    const saved = rng.state;
    const next = sample(p, ["one"], { ...opts, rng });
    expect(sample(p, ["one"], { ...opts, rng: new Rng(saved) })).toEqual(next);
    // top_k = 1 and a vanishing top_p both reduce to greedy.
    const greedy = sample(p, ["one"], { max_new_tokens: 8, temperature: 0 });
    expect(sample(p, ["one"], { max_new_tokens: 8, temperature: 1, top_k: 1, seed: 4 })[0]!.ids).toEqual(greedy[0]!.ids);
    expect(sample(p, ["one"], { max_new_tokens: 8, temperature: 1, top_p: 1e-9, seed: 4 })[0]!.ids).toEqual(greedy[0]!.ids);
    p.dispose();
  });

  /** A stand-in policy that greedily spells out a script per prompt (then EOS), through a real cache. */
  function scripted(scripts: Record<string, string>): Policy {
    const V = 257;
    const byPrompt = new Map(Object.entries(scripts).map(([p, s]) => [encode(p, { bos: true }).join(","), encode(s)]));
    const shape = new Policy({ n_layer: 1, n_embd: 8, n_head: 1, block_size: 64 });
    const config = shape.config;
    shape.dispose();
    const forwardCached = (ids: tf.Tensor2D, cache: KVCache | null, pad?: number[]) => {
      const rows = ids.arraySync() as number[][];
      const tokens = rows.map((r, i) => (cache ? [...cache.tokens[i]!, ...r] : r.slice(pad?.[i] ?? 0)));
      const t = rows[0]!.length;
      const logits = new Float32Array(rows.length * t * V);
      tokens.forEach((seq, r) => {
        const key = [...byPrompt.keys()].find((k) => seq.join(",").startsWith(k))!;
        const script = byPrompt.get(key)!;
        const next = script[seq.length - key.split(",").length] ?? BOS;
        logits[(r * t + t - 1) * V + next] = 10;
      });
      return { logits: tf.tensor3d(logits, [rows.length, t, V]), cache: { layers: [], length: 0, pad: rows.map(() => 0), tokens } };
    };
    return { config, forwardCached } as unknown as Policy;
  }

  it("ends rows at stop sequences (cut from text, kept in ids), at EOS, or at the length limit", () => {
    const p = scripted({ a: "hello\nworld", b: "hi", c: "one two three" });
    const [a, b, c] = sample(p, ["a", "b", "c"], { max_new_tokens: 9, temperature: 0, stop: ["\n", "wor"] });
    expect(a).toMatchObject({ text: "hello", ids: encode("hello\n"), stop_reason: "stop", stop_sequence: "\n" });
    expect(b).toMatchObject({ text: "hi", ids: [...encode("hi"), BOS], stop_reason: "eos" });
    expect(c).toMatchObject({ text: "one two t", stop_reason: "length" });
    expect(c!.stop_sequence).toBeUndefined();
    expect(a!.logprobs.length).toBe(6);
    expect(a!.logprobs[0]).toBeCloseTo(10 - Math.log(Math.exp(10) + 256), 5);
    const [w] = sample(p, ["a"], { max_new_tokens: 20, temperature: 0, stop: ["wor", "zzz"] });
    expect(w).toMatchObject({ text: "hello\n", ids: encode("hello\nwor"), stop_reason: "stop", stop_sequence: "wor" });
    expect(generate(p, "b")).toBe("hi");
  });
});

describe("checkpoints", () => {
  it("save → load gives the same logits, RNG state, step and extra", async () => {
    const dir = tmp();
    const p = new Policy({ ...TINY, n_inner: 24 });
    const opt = tf.train.adam(0.01);
    const rng = new Rng(11);
    for (let i = 0; i < 2; i++) trainStep(p, opt, rng);
    const path = await saveCheckpoint(dir, { policy: p, optimizer: opt, rngState: rng.state, step: 2, extra: { phase: "sft", n: [1, 2] } });
    expect(path).toBe(join(dir, "ckpt_000002"));
    expect(readFileSync(join(dir, "latest"), "utf8").trim()).toBe("ckpt_000002");
    const m = verifyCheckpoint(path);
    expect(m.weights.map((w) => w.name)).toEqual(p.namedVariables().map(([n]) => n));
    expect(m.optimizer?.iterations).toBe(2);
    expect(Object.keys(m.optimizer!.scalars)).toEqual(["accBeta1", "accBeta2"]); // Adam's β powers, outside getWeights()
    expect(m.optimizer?.slots.map((s) => s.name).slice(0, 2)).toEqual(["wte/m", "wpe/m"]);
    const ck = await loadCheckpoint(dir); // a run dir resolves to its latest
    expect(ck).toMatchObject({ path, step: 2, rngState: rng.state, extra: { phase: "sft", n: [1, 2] } });
    expect(ck.policy.config).toEqual(p.config);
    const seq = [BOS, ...encode("resume")];
    expect(maxAbsDiff(fullLogits(ck.policy, seq).flat(), fullLogits(p, seq).flat())).toBe(0);
    tf.dispose(ck.optimizerWeights!.map((w) => w.tensor));
    ck.policy.dispose();
    p.dispose();
    opt.dispose();
  });

  it("restores Adam into a fresh optimizer: the next updates match an uninterrupted run", async () => {
    for (const savedAt of [3, 0]) { // 0: saved before Adam made any slots
      const dir = tmp();
      const p = new Policy(TINY);
      const opt = tf.train.adam(0.01);
      const rng = new Rng(1);
      for (let i = 0; i < savedAt; i++) trainStep(p, opt, rng);
      await saveCheckpoint(dir, { policy: p, optimizer: opt, rngState: rng.state, step: savedAt });
      for (let i = 0; i < 2; i++) trainStep(p, opt, rng);

      const ck = await loadCheckpoint(dir);
      const opt2 = tf.train.adam(0.01);
      await restoreOptimizer(opt2, ck);
      const rng2 = new Rng(ck.rngState);
      for (let i = 0; i < 2; i++) trainStep(ck.policy, opt2, rng2);
      expect(maxAbsDiff(flatWeights(ck.policy), flatWeights(p))).toBeLessThan(1e-6);
      expect(opt2.iterations).toBe(opt.iterations);
      expect(rng2.state).toBe(rng.state);
      for (const x of [p, ck.policy, opt, opt2]) x.dispose();
    }
  });

  it("ignores temp dirs left by a kill, detects truncated files, and falls back with a warning", async () => {
    const dir = tmp();
    const p = new Policy(TINY);
    const opt = tf.train.adam(0.01);
    const rng = new Rng(1);
    for (const s of [1, 2]) {
      trainStep(p, opt, rng);
      await saveCheckpoint(dir, { policy: p, optimizer: opt, rngState: rng.state, step: s });
    }
    // A writer killed mid-save: a half-written temp dir (newer step) and a stray pointer temp.
    mkdirSync(join(dir, ".tmp-ckpt_000003.999.1"));
    writeFileSync(join(dir, ".tmp-ckpt_000003.999.1", "weights.bin"), "partial");
    writeFileSync(join(dir, ".tmp-latest.999"), "ckpt_000003");
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(latestCheckpoint(dir, { warn })).toBe(join(dir, "ckpt_000002"));
    expect(warnings).toEqual([]);

    // A truncated weights file in the newest checkpoint.
    const w = join(dir, "ckpt_000002", "weights.bin");
    truncateSync(w, readFileSync(w).length - 100);
    expect(() => verifyCheckpoint(join(dir, "ckpt_000002"))).toThrow(/truncated/);
    await expect(loadCheckpoint(join(dir, "ckpt_000002"))).rejects.toThrow(/truncated/);
    expect(latestCheckpoint(dir, { warn })).toBe(join(dir, "ckpt_000001"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ckpt_000002.*truncated/);

    // Same size, flipped bytes: caught by the hash.
    const w1 = join(dir, "ckpt_000001", "weights.bin");
    const bytes = readFileSync(w1);
    bytes[10] = bytes[10]! ^ 0xff;
    writeFileSync(w1, bytes);
    expect(() => verifyCheckpoint(join(dir, "ckpt_000001"))).toThrow(/sha256/);
    expect(latestCheckpoint(dir, { warn })).toBeNull();

    // The next save clears the leftovers and keeps only the newest `keep`.
    for (const s of [3, 4, 5]) await saveCheckpoint(dir, { policy: p, optimizer: opt, rngState: rng.state, step: s, keep: 2 });
    expect(readdirSync(dir).sort()).toEqual(["ckpt_000004", "ckpt_000005", "latest"]);
    expect(latestCheckpoint(dir, { warn })).toBe(join(dir, "ckpt_000005"));
    // A weights-only checkpoint (no optimizer).
    await saveCheckpoint(join(dir, "base"), { policy: p, rngState: 0, step: 0 });
    expect((await loadCheckpoint(join(dir, "base"))).optimizerWeights).toBeNull();
    p.dispose();
    opt.dispose();
  });

  /** Runs the training child; with killAt, SIGKILLs it once it reports that step (plus a delay). */
  function child(dir: string, N: number, killAt?: { step: number; delayMs: number }) {
    return new Promise<{ lines: string[]; signal: NodeJS.Signals | null; code: number | null }>((resolve, reject) => {
      const c = spawn(process.execPath, ["--import", "tsx", join(ROOT, "test/support/ckpt-train.ts"), dir, String(N)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      const lines: string[] = [];
      let err = "";
      let buf = "";
      c.stdout.on("data", (d: Buffer) => {
        buf += d.toString();
        const parts = buf.split("\n");
        buf = parts.pop()!;
        for (const l of parts) {
          lines.push(l);
          if (killAt && l === `step ${killAt.step}`) setTimeout(() => c.kill("SIGKILL"), killAt.delayMs);
        }
      });
      c.stderr.on("data", (d: Buffer) => (err += d.toString()));
      c.on("error", reject);
      c.on("close", (code, signal) => (signal || code === 0 ? resolve({ lines, signal, code }) : reject(new Error(`child exited ${code}: ${err}`))));
    });
  }

  it("a run SIGKILLed mid-training resumes and finishes with the uninterrupted run's weights", async () => {
    const N = 40;
    const ref = tmp();
    const whole = await child(ref, N);
    expect(whole.lines.at(-1)).toBe("done");

    const run = tmp();
    const first = await child(run, N, { step: 3, delayMs: 0 });
    const second = await child(run, N, { step: 15, delayMs: 7 });
    const last = await child(run, N);
    for (const killed of [first, second]) {
      expect(killed.signal).toBe("SIGKILL");
      expect(killed.lines).not.toContain("done");
    }
    const resumedAt = Number(second.lines[0]!.split(" ")[1]);
    expect(resumedAt).toBeGreaterThanOrEqual(3);
    expect(Number(last.lines[0]!.split(" ")[1])).toBeGreaterThanOrEqual(15);
    expect(last.lines.at(-1)).toBe("done");
    expect(readdirSync(run).filter((n) => n.startsWith(".tmp-"))).toEqual([]);

    const a = await loadCheckpoint(ref);
    const b = await loadCheckpoint(run);
    expect(a.step).toBe(N);
    expect(b.step).toBe(N);
    expect(b.rngState).toBe(a.rngState);
    expect(maxAbsDiff(flatWeights(b.policy), flatWeights(a.policy))).toBeLessThan(1e-6);
    expect(existsSync(join(run, "ckpt_000040"))).toBe(true);
  });
});
