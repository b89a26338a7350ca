/**
 * The data layout between the slow outer loop (data generation) and the fast inner loop (training),
 * per systems-framing.md: runs/<run_id>/{sft_corpus, dpo_pairs, rl_task_pool, divergence_pairs,
 * wm_tuples, holdout}/ as JSONL shards plus a manifest.json per section (written last, so a reader
 * only ever sees whole shards). Typed by zod on both sides. "Type the signal and route it": a failed
 * branch never enters sft_corpus; losers go to wm_tuples and, as rejected, to dpo_pairs.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Store } from "./store.js";

/** A chat message; tool calls and tool results in the OpenAI shape (the OUTER loop's states). */
const Message = z.object({
  role: z.string(),
  content: z.string(),
  tool_calls: z.array(z.object({ id: z.string(), type: z.string().optional(), function: z.object({ name: z.string(), arguments: z.string() }) })).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
  is_error: z.boolean().optional(),
});
/** Optional on every item: the OUTER round that produced it (round k+1 reads round k's output). */
const round = z.number().int().min(0).optional();
/** Where a tree-controller item came from: node ids are derived from (task, path). */
const node = { node_id: z.string().optional(), round };

export const SftExample = z.object({ id: z.string(), task_id: z.string().optional(), messages: z.array(Message).min(1), reward: z.number(), models: z.array(z.string()).optional(), ...node });
/** A preference pair as the store holds it (messages and text; the OUTER loop writes it). The token-level
 *  training row the trainer replays is lib/collate's DpoPair. */
export const DpoPairItem = z.object({
  id: z.string(), task_id: z.string().optional(), state_messages: z.array(Message), chosen: z.string(), rejected: z.string(),
  /** "tree" (sibling winner vs loser), "teacher_replay" (teacher consensus vs a trace's action), … */
  source: z.string().optional(), chosen_models: z.array(z.string()).optional(), rejected_models: z.array(z.string()).optional(), ...node,
});
export const RlTaskEntry = z.object({ id: z.string(), task_id: z.string(), difficulty_prior: z.number().min(0).max(1), pool: z.string().optional() }).passthrough();
const Branch = z.object({ action: z.string(), reward: z.number(), models: z.array(z.string()).optional(), node_id: z.string().optional() });
export const DivergencePair = z.object({
  id: z.string(), task_id: z.string().optional(), state_messages: z.array(Message), branches: z.array(Branch).min(2),
  /** The measured divergence at the fork (the controller's measure, in [0, 1]) and the log-prob spread across models. */
  divergence: z.number().min(0).max(1).optional(), logprob_spread: z.number().nullable().optional(),
  /** The sibling subtree whose outcome separated from the others first (shallowest graded leaf), or null when all sibling outcomes are equal. */
  separated_first: z.object({ node_id: z.string(), models: z.array(z.string()), depth: z.number().int(), reward: z.number() }).nullable().optional(),
  ...node,
});
export const WmTuple = z.object({
  id: z.string(), task_id: z.string().optional(), state: z.string(), action: z.string(), next_state: z.string(), outcome: z.number(),
  parent_id: z.string().nullable().optional(), depth: z.number().int().optional(), models: z.array(z.string()).optional(), ok: z.boolean().optional(),
  /** The step's index within its tree edge (an edge can hold several env steps: write_file then submit), and whether it ended the episode. */
  step: z.number().int().min(0).optional(), done: z.boolean().optional(), ...node,
});
export const HoldoutItem = z.object({ id: z.string(), task_id: z.string().optional() }).passthrough();

export const SECTIONS = {
  sft_corpus: SftExample,
  dpo_pairs: DpoPairItem,
  rl_task_pool: RlTaskEntry,
  divergence_pairs: DivergencePair,
  wm_tuples: WmTuple,
  holdout: HoldoutItem,
} as const;
export type Section = keyof typeof SECTIONS;
export type SectionItem<S extends Section> = z.infer<(typeof SECTIONS)[S]>;
/** Sections that feed training: a held-out item may never enter them. */
export const TRAINING_SECTIONS: Section[] = ["sft_corpus", "dpo_pairs", "rl_task_pool", "divergence_pairs", "wm_tuples"];

export const Manifest = z.object({
  section: z.string(),
  schema_version: z.literal(1),
  shards: z.array(z.object({ key: z.string(), items: z.number().int(), sha256: z.string() })),
  items: z.number().int(),
  updated_at: z.string(),
});
export type Manifest = z.infer<typeof Manifest>;

/**
 * A seeded, stable, disjoint partition: an id is held out iff hash(seed, id) falls under the
 * fraction. The same id always lands on the same side, whatever else is in the run.
 */
export class HeldoutSplit {
  constructor(readonly fraction = 0.1, readonly seed = 0) {
    if (fraction < 0 || fraction >= 1) throw new Error("holdout fraction must be in [0, 1)");
  }
  isHeldout(id: string): boolean {
    return createHash("sha256").update(`${this.seed}:${id}`).digest().readUInt32BE(0) / 2 ** 32 < this.fraction;
  }
  split<T>(items: T[], idOf: (t: T) => string): { train: T[]; holdout: T[] } {
    const train: T[] = [];
    const holdout: T[] = [];
    for (const it of items) (this.isHeldout(idOf(it)) ? holdout : train).push(it);
    return { train, holdout };
  }
}

export class HeldoutViolation extends Error {}

/** Buffers items of one section and writes them as shards; the manifest goes last. */
export class SectionWriter<S extends Section> {
  private buffer: SectionItem<S>[] = [];
  private manifest: Manifest | null = null;
  /** Writes happen one at a time, in call order (concurrent routeGroup calls share writers). */
  private queue: Promise<unknown> = Promise.resolve();
  constructor(readonly run: RunLayout, readonly section: S, readonly shardSize = 1000) {}

  add(item: SectionItem<S>): Promise<void> {
    const next = this.queue.then(() => this.addNow(item));
    this.queue = next.catch(() => {});
    return next;
  }

  flush(): Promise<void> {
    const next = this.queue.then(() => this.flushNow());
    this.queue = next.catch(() => {});
    return next;
  }

  private async addNow(item: SectionItem<S>): Promise<void> {
    const parsed = SECTIONS[this.section].parse(item) as SectionItem<S>;
    const key = (parsed as { task_id?: string }).task_id ?? parsed.id;
    if (TRAINING_SECTIONS.includes(this.section) && this.run.split.isHeldout(key)) {
      throw new HeldoutViolation(`${this.section}: ${key} is held out and may not enter a training prefix`);
    }
    this.buffer.push(parsed);
    if (this.buffer.length >= this.shardSize) await this.flushNow();
  }

  private async flushNow(): Promise<void> {
    this.manifest ??= (await this.run.manifest(this.section)) ?? { section: this.section, schema_version: 1, shards: [], items: 0, updated_at: "" };
    if (this.buffer.length) {
      const text = this.buffer.map((x) => JSON.stringify(x)).join("\n") + "\n";
      const key = `${this.run.prefix}/${this.section}/shard-${String(this.manifest.shards.length + 1).padStart(6, "0")}.jsonl`;
      await this.run.store.put(key, text);
      this.manifest.shards.push({ key, items: this.buffer.length, sha256: createHash("sha256").update(text).digest("hex") });
      this.manifest.items += this.buffer.length;
      this.buffer = [];
    }
    this.manifest.updated_at = new Date().toISOString();
    await this.run.store.put(`${this.run.prefix}/${this.section}/manifest.json`, JSON.stringify(this.manifest, null, 2));
  }
}

export class RunLayout {
  readonly prefix: string;
  private writers = new Map<Section, SectionWriter<Section>>();
  constructor(readonly store: Store, readonly run_id: string, readonly split = new HeldoutSplit()) {
    if (!/^[\w.-]+$/.test(run_id)) throw new Error(`bad run id ${JSON.stringify(run_id)}`);
    this.prefix = `runs/${run_id}`;
  }

  writer<S extends Section>(section: S, shardSize?: number): SectionWriter<S> {
    if (!this.writers.has(section)) this.writers.set(section, new SectionWriter(this, section, shardSize) as unknown as SectionWriter<Section>);
    return this.writers.get(section) as unknown as SectionWriter<S>;
  }

  async manifest(section: Section): Promise<Manifest | null> {
    const raw = await this.store.get(`${this.prefix}/${section}/manifest.json`);
    return raw ? Manifest.parse(JSON.parse(raw.toString("utf8"))) : null;
  }

  /** Every item of a section, validated (shards listed in the manifest only). */
  async read<S extends Section>(section: S): Promise<SectionItem<S>[]> {
    const m = await this.manifest(section);
    if (!m) return [];
    const out: SectionItem<S>[] = [];
    for (const shard of m.shards) {
      const raw = await this.store.get(shard.key);
      if (!raw) throw new Error(`${this.store.uri}/${shard.key}: listed in the manifest but missing`);
      raw.toString("utf8").split("\n").forEach((line, i) => {
        if (!line.trim()) return;
        const r = SECTIONS[section].safeParse(JSON.parse(line));
        if (!r.success) throw new Error(`${shard.key}:${i + 1}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
        out.push(r.data as SectionItem<S>);
      });
    }
    return out;
  }

  async flushAll(): Promise<void> {
    for (const w of this.writers.values()) await w.flush();
  }

  /** Section → item count, from the manifests. */
  async counts(): Promise<Record<Section, number>> {
    const out = {} as Record<Section, number>;
    for (const s of Object.keys(SECTIONS) as Section[]) out[s] = (await this.manifest(s))?.items ?? 0;
    return out;
  }
}

/** One graded rollout with its siblings (the same task, the same group). */
export interface Rollout {
  id: string;
  task_id: string;
  messages: { role: string; content: string }[];
  /** The final answer / diff (what DPO compares). */
  completion: string;
  reward: number;
  /** Clean win: passed every test and the monitor. */
  passed: boolean;
  /** Per-step transitions, for the world model. */
  steps?: { state: string; action: string; next_state: string }[];
}

/**
 * Routes a group of sibling rollouts: clean winners → sft_corpus; every branch's transitions →
 * wm_tuples; each loser → dpo_pairs as `rejected` against the best winner (when there is one).
 * A failed branch never enters sft_corpus. Held-out tasks are routed to holdout only.
 */
export async function routeGroup(run: RunLayout, group: Rollout[]): Promise<{ sft: number; dpo: number; wm: number; holdout: number }> {
  const counts = { sft: 0, dpo: 0, wm: 0, holdout: 0 };
  if (group.length === 0) return counts;
  const taskId = group[0]!.task_id;
  if (run.split.isHeldout(taskId)) {
    await run.writer("holdout").add({ id: taskId, task_id: taskId });
    counts.holdout++;
    return counts;
  }
  const winners = group.filter((r) => r.passed).sort((a, b) => b.reward - a.reward);
  for (const r of group) {
    if (r.passed) {
      await run.writer("sft_corpus").add({ id: r.id, task_id: r.task_id, messages: r.messages, reward: r.reward });
      counts.sft++;
    }
    // Every branch teaches the world model; without recorded steps, the whole attempt is one transition.
    const steps = r.steps?.length ? r.steps : [{ state: r.messages.map((m) => `${m.role}: ${m.content}`).join("\n"), action: r.completion, next_state: r.passed ? "passed" : "failed" }];
    for (const [i, s] of steps.entries()) {
      await run.writer("wm_tuples").add({ id: `${r.id}:${i}`, task_id: r.task_id, state: s.state, action: s.action, next_state: s.next_state, outcome: r.reward });
      counts.wm++;
    }
    if (!r.passed && winners[0]) {
      // the whole state the answers were given in: every message but the loser's own final answer
      const state = r.messages.at(-1)?.role === "assistant" ? r.messages.slice(0, -1) : r.messages;
      await run.writer("dpo_pairs").add({ id: `${winners[0].id}>${r.id}`, task_id: r.task_id, state_messages: state, chosen: winners[0].completion, rejected: r.completion });
      counts.dpo++;
    }
  }
  return counts;
}
