/**
 * DiLoCo on the tfjs policy: a DilocoModel (lib/store's interface) whose parameters are the
 * policy's variables flattened in order, trained by H inner SGD steps of lm_ce on this rank's shard
 * of SFT rows; and synchronous data-parallel SGD on the same shards, the reference DiLoCo must meet
 * at H = 1, outer lr 1 and no momentum.
 */
import { tf } from "../backend/index.js";
import type { Seq } from "../collate/index.js";
import { renderMessages, type EnvTask, type Environment } from "../env/index.js";
import type { DilocoModel } from "../store/index.js";
import { sftLoss } from "./losses.js";
import { Policy, type PolicyConfig } from "./model.js";
import { completionLogits, disposePacked, packRows } from "./pack.js";
import { toSeq } from "./rollout.js";
import { encode } from "./tokenizer.js";

export interface PolicyDilocoOptions {
  policy: Partial<PolicyConfig>;
  /** This rank's shard of SFT rows. */
  rows: Seq[];
  inner_steps: number;
  inner_lr: number;
  /** Rows per inner step (cycled through the shard). */
  batch: number;
  /** The init seed: the same on every rank, so θ₀ agrees. */
  seed: number;
}

export class PolicyDilocoModel implements DilocoModel {
  readonly policy: Policy;
  constructor(readonly o: PolicyDilocoOptions) {
    if (!o.rows.length) throw new Error("PolicyDilocoModel: an empty shard");
    this.policy = new Policy({ ...o.policy, seed: o.seed });
  }

  init(): Float32Array {
    return flatten(this.policy.variables().map((v) => v.dataSync() as Float32Array));
  }

  private load(theta: Float32Array): void {
    let off = 0;
    for (const v of this.policy.variables()) {
      v.assign(tf.tensor(theta.subarray(off, off + v.size), v.shape));
      off += v.size;
    }
    if (off !== theta.length) throw new Error(`PolicyDilocoModel: θ has ${theta.length} values, the policy ${off}`);
  }

  private batchAt(step: number): Seq[] {
    const b = Math.min(this.o.batch, this.o.rows.length);
    return Array.from({ length: b }, (_, j) => this.o.rows[(step * b + j) % this.o.rows.length]!);
  }

  /** ∇ lm_ce at θ over the minibatch of inner step `step`, flattened like θ. */
  grad(theta: Float32Array, step: number): Float32Array {
    this.load(theta);
    const packed = packRows(this.batchAt(step), this.policy.config.block_size);
    const vars = this.policy.variables();
    const { value, grads } = tf.variableGrads(() => sftLoss(completionLogits(this.policy, packed), packed.targets, packed.mask), vars);
    const g = flatten(vars.map((v) => grads[v.name]!.dataSync() as Float32Array));
    tf.dispose([value, ...Object.values(grads)]);
    disposePacked(packed);
    return g;
  }

  inner(theta: Float32Array, round: number): Float32Array {
    let w = Float32Array.from(theta);
    for (let h = 0; h < this.o.inner_steps; h++) {
      const g = this.grad(w, (round - 1) * this.o.inner_steps + h);
      w = Float32Array.from(w, (x, k) => x - this.o.inner_lr * g[k]!);
    }
    return w;
  }

  /** lm_ce over the whole shard at θ. */
  loss(theta: Float32Array): number {
    this.load(theta);
    const packed = packRows(this.o.rows, this.policy.config.block_size);
    const l = tf.tidy(() => sftLoss(completionLogits(this.policy, packed), packed.targets, packed.mask).dataSync()[0]!);
    disposePacked(packed);
    return l;
  }

  dispose(): void {
    this.policy.dispose();
  }
}

function flatten(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Synchronous data-parallel SGD: each step, the mean of every shard's gradient (the H = 1 reference). */
export function syncPolicyTraining(models: PolicyDilocoModel[], steps: number, lr: number): { theta: Float32Array; loss: number } {
  let w = models[0]!.init();
  for (let t = 0; t < steps; t++) {
    const gs = models.map((m) => m.grad(w, t));
    w = Float32Array.from(w, (x, k) => x - (lr * gs.reduce((a, g) => a + g[k]!, 0)) / gs.length);
  }
  return { theta: w, loss: models.reduce((a, m) => a + m.loss(w), 0) / models.length };
}

/** SFT rows of an environment's demonstrations, dealt round-robin into `workers` shards. */
export function demonstrationShards(env: Environment<EnvTask>, workers: number, rowsPerWorker: number, blockSize: number): Seq[][] {
  const tasks = env.splits().train.filter((t) => env.demonstration(t) !== null).slice(0, workers * rowsPerWorker);
  const shards: Seq[][] = Array.from({ length: workers }, () => []);
  tasks.forEach((t, i) => shards[i % workers]!.push(toSeq(encode(renderMessages(env.prompt(t)), { bos: true }), encode(env.demonstration(t)!), blockSize)));
  return shards;
}
