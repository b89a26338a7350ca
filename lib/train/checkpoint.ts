/**
 * Crash-safe checkpoints of a training run. Each is a directory ckpt_NNNNNN holding
 *   weights.bin    the policy's variables, float32, in policy.variables() order
 *   optimizer.bin  the optimizer's slot variables (Adam: m then v), float32, same variable order
 *   manifest.json  format, step, policy config, RNG state, extra, every tensor's name/shape/offset,
 *                  the optimizer's class/config/iteration count, and each .bin's size and sha256
 * A checkpoint is written into a temp dir beside its final name and renamed into place; then the
 * `latest` pointer file is replaced by write-then-rename; only then are old checkpoints pruned. A
 * kill at any point leaves the previous checkpoint or the new one complete, and readers skip temp
 * dirs and verify hashes, so a resume always finds a whole checkpoint. One writer per run dir.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { tf } from "../backend/index.js";
import { Policy, PolicyConfig } from "./model.js";

const FORMAT = "composer-lab-checkpoint/1";
const MANIFEST = "manifest.json";
const LATEST = "latest";
/** Everything half-written starts with this; no reader ever looks at it. */
const TMP = ".tmp-";
const CKPT = /^ckpt_(\d+)$/;

const TensorEntry = z.object({ name: z.string(), shape: z.array(z.number().int().nonnegative()), offset: z.number().int().nonnegative() });
type TensorEntry = z.infer<typeof TensorEntry>;

export const CheckpointManifest = z.object({
  format: z.literal(FORMAT),
  step: z.number().int().nonnegative(),
  created_at: z.string(),
  config: PolicyConfig,
  rng_state: z.number().int(),
  extra: z.unknown().optional(),
  /** Byte offsets into weights.bin. */
  weights: z.array(TensorEntry),
  /** Null for a weights-only checkpoint. Slot names are "<variable name>/<kind>", e.g. "h.0.fc_w/m". */
  optimizer: z
    .object({
      class: z.string(),
      config: z.record(z.unknown()),
      iterations: z.number().int().nonnegative(),
      /** Scalar accumulators outside getWeights() (Adam's β powers), as float32 values. */
      scalars: z.record(z.number()).default({}),
      slots: z.array(TensorEntry),
    })
    .nullable(),
  files: z.record(z.object({ bytes: z.number().int().nonnegative(), sha256: z.string() })),
});
export type CheckpointManifest = z.infer<typeof CheckpointManifest>;

/** What optimizer.getWeights() returns and setWeights() takes. */
export type NamedTensor = { name: string; tensor: tf.Tensor };

export interface CheckpointInput {
  policy: Policy;
  /** Omitted: a weights-only checkpoint (e.g. a frozen reference policy). */
  optimizer?: tf.Optimizer;
  rngState: number;
  step: number;
  extra?: unknown;
  /** Checkpoints to keep, this one included (default 3). */
  keep?: number;
}

export interface LoadedCheckpoint {
  path: string;
  step: number;
  policy: Policy;
  /** For restoreOptimizer (or optimizer.setWeights, less exactly); null when none was saved. */
  optimizerWeights: NamedTensor[] | null;
  optimizer: { class: string; config: Record<string, unknown>; iterations: number; scalars: Record<string, number> } | null;
  rngState: number;
  extra: unknown;
}

export const checkpointName = (step: number) => `ckpt_${String(step).padStart(6, "0")}`;

/** Writes checkpoint `step` under runDir atomically, points `latest` at it, prunes; returns its path. */
export async function saveCheckpoint(runDir: string, s: CheckpointInput): Promise<string> {
  const name = checkpointName(s.step);
  const named = s.policy.namedVariables();
  const weights = await pack(named.map(([n, v]) => [n, v]));
  const opt = s.optimizer ? await optimizerSlots(s.optimizer, named) : null;
  const slots = opt ? await pack(opt.slots) : null;

  mkdirSync(runDir, { recursive: true });
  const tmp = join(runDir, `${TMP}${name}.${process.pid}.${Date.now()}`);
  mkdirSync(tmp);
  const files: CheckpointManifest["files"] = {};
  const put = (file: string, data: Buffer) => {
    writeDurable(join(tmp, file), data);
    files[file] = { bytes: data.length, sha256: sha256(data) };
  };
  put("weights.bin", weights.data);
  if (slots) put("optimizer.bin", slots.data);
  const manifest: CheckpointManifest = {
    format: FORMAT, step: s.step, created_at: new Date().toISOString(), config: s.policy.config, rng_state: s.rngState | 0, extra: s.extra,
    weights: weights.entries,
    optimizer: opt && slots ? { class: opt.className, config: opt.config, iterations: opt.iterations, scalars: opt.scalars, slots: slots.entries } : null,
    files,
  };
  writeDurable(join(tmp, MANIFEST), Buffer.from(JSON.stringify(manifest, null, 1)));
  fsyncDir(tmp);

  // Into place. A directory can't be renamed over a non-empty one, so an existing checkpoint of the
  // same step (a resumed run redoing it) is moved aside first.
  const final = join(runDir, name);
  if (existsSync(final)) {
    const old = join(runDir, `${TMP}old.${name}.${process.pid}.${Date.now()}`);
    renameSync(final, old);
    renameSync(tmp, final);
    rmSync(old, { recursive: true, force: true });
  } else renameSync(tmp, final);
  fsyncDir(runDir);

  // Commit: the pointer is replaced whole, never edited.
  const pointerTmp = join(runDir, `${TMP}${LATEST}.${process.pid}`);
  writeDurable(pointerTmp, Buffer.from(name + "\n"));
  renameSync(pointerTmp, join(runDir, LATEST));
  fsyncDir(runDir);

  prune(runDir, s.step, s.keep ?? 3);
  return final;
}

/**
 * The newest complete checkpoint under runDir, or null: the one `latest` names, else (missing or
 * failing verification, with a warning) the newest ckpt_* that verifies. Temp dirs are ignored.
 */
export function latestCheckpoint(runDir: string, opts: { warn?: (msg: string) => void } = {}): string | null {
  return latestVerified(runDir, opts.warn)?.dir ?? null;
}

type Verified = ReturnType<typeof readVerified> & { dir: string };

/** latestCheckpoint's search, keeping what verification read (so a load need not read it again). */
function latestVerified(runDir: string, warn: (msg: string) => void = (m) => console.warn(m)): Verified | null {
  if (!existsSync(runDir)) return null;
  const dirs = readdirSync(runDir).filter((n) => CKPT.test(n)).sort((a, b) => stepOf(b) - stepOf(a));
  const pointerPath = join(runDir, LATEST);
  const pointer = existsSync(pointerPath) ? readFileSync(pointerPath, "utf8").trim() : null;
  const order = pointer && CKPT.test(pointer) ? [pointer, ...dirs.filter((d) => d !== pointer)] : dirs;
  for (const name of order) {
    try {
      return { dir: join(runDir, name), ...readVerified(join(runDir, name)) };
    } catch (e) {
      warn(`checkpoint ${join(runDir, name)} is unusable (${(e as Error).message}); falling back to an older one`);
    }
  }
  return null;
}

/** Reads and verifies one checkpoint's manifest and hashes; throws naming what is wrong. */
export function verifyCheckpoint(dir: string): CheckpointManifest {
  return readVerified(dir).manifest;
}

/**
 * Loads a checkpoint dir (or, given a run dir, its latestCheckpoint) into a new Policy. Restore the
 * optimizer with restoreOptimizer(optimizer, loaded) — see there for why it works on a fresh one.
 */
export async function loadCheckpoint(path: string): Promise<LoadedCheckpoint> {
  const found = existsSync(join(path, MANIFEST)) ? { dir: path, ...readVerified(path) } : latestVerified(path);
  if (!found) throw new Error(`no checkpoint in ${path}`);
  return fromVerified(found);
}

/** The newest complete checkpoint under runDir, loaded (read and verified once), or null. */
export async function loadLatestCheckpoint(runDir: string): Promise<LoadedCheckpoint | null> {
  const found = latestVerified(runDir);
  return found ? fromVerified(found) : null;
}

function fromVerified({ dir, manifest: m, files }: Verified): LoadedCheckpoint {
  const policy = new Policy(m.config);
  const vars = new Map(policy.namedVariables());
  if (m.weights.length !== vars.size) throw new Error(`${dir}: ${m.weights.length} weight tensors for a policy with ${vars.size}`);
  const weights = files.get("weights.bin")!;
  for (const e of m.weights) {
    const v = vars.get(e.name);
    if (!v || !sameShape(v.shape, e.shape)) throw new Error(`${dir}: weight ${e.name} [${e.shape}] does not fit the policy`);
    const t = tf.tensor(floats(weights, e), e.shape, "float32");
    v.assign(t);
    t.dispose();
  }
  let optimizerWeights: NamedTensor[] | null = null;
  if (m.optimizer) {
    const slots = files.get("optimizer.bin")!;
    optimizerWeights = [{ name: "iter", tensor: tf.scalar(m.optimizer.iterations, "int32") }];
    for (const e of m.optimizer.slots) {
      const cut = e.name.lastIndexOf("/");
      const v = vars.get(e.name.slice(0, cut));
      if (!v || !sameShape(v.shape, e.shape)) throw new Error(`${dir}: optimizer slot ${e.name} [${e.shape}] does not fit the policy`);
      // tfjs names slots after the live variable's (per-process) name.
      optimizerWeights.push({ name: `${v.name}/${e.name.slice(cut + 1)}`, tensor: tf.tensor(floats(slots, e), e.shape, "float32") });
    }
  }
  return {
    path: dir, step: m.step, policy, optimizerWeights, rngState: m.rng_state, extra: m.extra,
    optimizer: m.optimizer ? { class: m.optimizer.class, config: m.optimizer.config, iterations: m.optimizer.iterations, scalars: m.optimizer.scalars } : null,
  };
}

/**
 * Restores a checkpoint's optimizer state into an optimizer created for the same policy, before
 * its first step; then train with optimizer.minimize(f, _, policy.variables()).
 *
 * Why this works with tfjs's Adam: it creates its m/v slot variables lazily, inside the first
 * applyGradients, and matches them to variables by position in the gradient list, not by name.
 * setWeights replaces the slot arrays wholesale, so on a fresh optimizer the first update finds the
 * restored slots already there and uses them; no warm-up step is needed (one would leak the slots it
 * creates). The slots are saved in policy.variables() order, which is minimize's order given that
 * varList. setWeights also recomputes the β powers as pow(β, t+1), which differs in the last bit
 * from the running product training kept, and Adam amplifies that to ~1e-5 within tens of steps;
 * so the saved accumulators are assigned back afterwards, making a resumed run bit-identical.
 */
export async function restoreOptimizer(optimizer: tf.Optimizer, ck: Pick<LoadedCheckpoint, "optimizerWeights" | "optimizer">): Promise<void> {
  if (!ck.optimizerWeights || !ck.optimizer) return;
  if (ck.optimizer.class !== optimizer.getClassName()) throw new Error(`checkpoint holds ${ck.optimizer.class} state, not ${optimizer.getClassName()}`);
  await optimizer.setWeights(ck.optimizerWeights);
  tf.dispose(ck.optimizerWeights.map((w) => w.tensor)); // the optimizer's variables hold their own references
  for (const [key, value] of Object.entries(ck.optimizer.scalars)) {
    const v = scalarState(optimizer)[key];
    if (!v) throw new Error(`${optimizer.getClassName()} has no accumulator ${key}`);
    tf.tidy(() => v.assign(tf.scalar(value)));
  }
}

// --- helpers ---------------------------------------------------------------------------------------

const stepOf = (name: string) => Number(CKPT.exec(name)?.[1] ?? -1);
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const sameShape = (a: number[], b: number[]) => a.length === b.length && a.every((n, i) => n === b[i]);
const sizeOf = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

/** float32 tensors → one little-endian buffer and their entries. */
async function pack(tensors: [string, tf.Tensor][]): Promise<{ data: Buffer; entries: TensorEntry[] }> {
  const parts: Buffer[] = [];
  const entries: TensorEntry[] = [];
  let offset = 0;
  for (const [name, t] of tensors) {
    if (t.dtype !== "float32") throw new Error(`${name}: only float32 tensors are checkpointed (got ${t.dtype})`);
    const a = (await t.data()) as Float32Array;
    parts.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    entries.push({ name, shape: t.shape, offset });
    offset += a.byteLength;
  }
  return { data: Buffer.concat(parts), entries };
}

function floats(buf: Buffer, e: TensorEntry): Float32Array {
  const start = buf.byteOffset + e.offset;
  return new Float32Array(buf.buffer.slice(start, start + sizeOf(e.shape) * 4)); // copy: aligned
}

/**
 * The optimizer's state keyed by the policy's own variable names (tfjs's are per-process numbers),
 * its slots grouped by kind and, within a kind, in policy.variables() order.
 */
async function optimizerSlots(optimizer: tf.Optimizer, named: [string, tf.Variable][]) {
  const [iter, ...raw] = await optimizer.getWeights();
  if (!iter || iter.name !== "iter") throw new Error("optimizer.getWeights() did not start with the iteration count");
  const iterations = (await iter.tensor.data())[0]!;
  iter.tensor.dispose(); // a fresh scalar; the slots are the optimizer's live variables
  const index = new Map(named.map(([, v], i) => [v.name, i]));
  const slots = raw.map((w) => {
    const cut = w.name.indexOf("/");
    const i = index.get(w.name.slice(0, cut));
    if (i === undefined) throw new Error(`optimizer holds state for variable ${w.name}, which is not in this policy (minimize with varList = policy.variables())`);
    return { kind: w.name.slice(cut + 1), i, tensor: w.tensor };
  });
  const kinds = [...new Set(slots.map((s) => s.kind))];
  for (const k of kinds) {
    const n = slots.filter((s) => s.kind === k).length;
    if (n !== named.length) throw new Error(`optimizer has ${n} "${k}" slots for ${named.length} policy variables: train all of policy.variables() so the state restores by position`);
  }
  slots.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind) || a.i - b.i);
  const scalars = Object.fromEntries(Object.entries(scalarState(optimizer)).map(([k, v]) => [k, v.dataSync()[0]!]));
  return {
    className: optimizer.getClassName(),
    config: optimizer.getConfig() as Record<string, unknown>,
    iterations,
    scalars,
    slots: slots.map((s): [string, tf.Tensor] => [`${named[s.i]![0]}/${s.kind}`, s.tensor]),
  };
}

/** The scalar accumulators tfjs keeps outside getWeights(): Adam's and Adamax's β powers (private fields). */
function scalarState(optimizer: tf.Optimizer): Record<string, tf.Variable> {
  const o = optimizer as unknown as Record<string, unknown>;
  const out: Record<string, tf.Variable> = {};
  for (const k of ["accBeta1", "accBeta2"]) if (o[k] instanceof tf.Variable && (o[k] as tf.Variable).size === 1) out[k] = o[k] as tf.Variable;
  return out;
}

function readVerified(dir: string): { manifest: CheckpointManifest; files: Map<string, Buffer> } {
  const manifest = CheckpointManifest.parse(JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")));
  const files = new Map<string, Buffer>();
  for (const [file, f] of Object.entries(manifest.files)) {
    const data = readFileSync(join(dir, file));
    if (data.length !== f.bytes) throw new Error(`${file} has ${data.length} bytes, the manifest says ${f.bytes} (truncated?)`);
    if (sha256(data) !== f.sha256) throw new Error(`${file} does not match its sha256`);
    files.set(file, data);
  }
  const fits = (file: string, entries: TensorEntry[]) => {
    const size = files.get(file)?.length;
    if (size === undefined) throw new Error(`${file} is not in the manifest`);
    for (const e of entries) if (e.offset + sizeOf(e.shape) * 4 > size) throw new Error(`${e.name} runs past the end of ${file}`);
  };
  fits("weights.bin", manifest.weights);
  if (manifest.optimizer) fits("optimizer.bin", manifest.optimizer.slots);
  return { manifest, files };
}

/** Keeps the `keep` newest checkpoints up to `step` and clears temp leftovers of killed writers. */
function prune(runDir: string, step: number, keep: number): void {
  const entries = readdirSync(runDir);
  for (const n of entries) if (n.startsWith(TMP)) rmSync(join(runDir, n), { recursive: true, force: true });
  const older = entries.filter((n) => CKPT.test(n) && stepOf(n) <= step).sort((a, b) => stepOf(b) - stepOf(a));
  for (const n of older.slice(Math.max(1, keep))) rmSync(join(runDir, n), { recursive: true, force: true });
}

function writeDurable(path: string, data: Buffer): void {
  const fd = openSync(path, "w");
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes renames inside `dir` durable; some platforms can't open a directory, and that is fine. */
function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}
