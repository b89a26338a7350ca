/**
 * lib/curriculum: the online difficulty curriculum of feature-deletion-datagen.md §2
 * (PassRateCurriculum). Fed (task_id, n_pass, n_total) after each GRPO group: an EMA pass rate
 * p̂ per task; retire above τ_easy and quarantine below τ_hard after k observations; sample by
 * the frontier weight p̂(1−p̂)+1e-3 (seeded); the median p̂ crossing a band signals the task builder
 * to escalate (harder deletions). Cold-start p̂ = 1 − difficulty_prior. State saves and restores.
 */
import { z } from "zod";
import { Rng } from "../core/index.js";

export const CurriculumConfig = z.object({
  tau_easy: z.number().min(0).max(1).default(0.9),
  tau_hard: z.number().min(0).max(1).default(0.02),
  /** EMA weight of the newest group's pass rate. */
  ema: z.number().gt(0).max(1).default(0.3),
  /** Observations before a task may be retired or quarantined. */
  retire_k: z.number().int().positive().default(3),
  /** Escalate when the median p̂ of live tasks rises above this. */
  escalate_above: z.number().min(0).max(1).default(0.6),
  seed: z.number().int().default(0),
});
export type CurriculumConfig = z.infer<typeof CurriculumConfig>;

export const TaskState = z.object({ p: z.number(), seen: z.number().int(), status: z.enum(["live", "retired", "quarantined"]) });
export const CurriculumState = z.object({
  config: CurriculumConfig,
  tasks: z.record(TaskState),
  rng: z.number().int(),
  step: z.number().int(),
  escalations: z.array(z.object({ step: z.number().int(), median: z.number() })),
  above_band: z.boolean(),
});
export type CurriculumState = z.infer<typeof CurriculumState>;

/** The curriculum's escalation signal as the task builder reads it. */
export const EscalationRequest = z.object({ level: z.number().int().min(1), median: z.number(), retired: z.array(z.string()) });
export type EscalationRequest = z.infer<typeof EscalationRequest>;

export interface CurriculumEvent {
  step: number;
  task_id?: string;
  kind: "retired" | "quarantined" | "escalate";
  p?: number;
  median?: number;
}

export class PassRateCurriculum {
  private s: CurriculumState;

  constructor(config: Partial<CurriculumConfig> = {}, tasks: { task_id: string; difficulty_prior?: number }[] = []) {
    const c = CurriculumConfig.parse(config);
    this.s = { config: c, tasks: {}, rng: c.seed, step: 0, escalations: [], above_band: false };
    this.addTasks(tasks);
  }

  get config(): CurriculumConfig {
    return this.s.config;
  }

  /** New tasks start at p̂ = 1 − difficulty_prior (0.5 without one). */
  addTasks(tasks: { task_id: string; difficulty_prior?: number }[]): void {
    for (const t of tasks) this.s.tasks[t.task_id] ??= { p: 1 - (t.difficulty_prior ?? 0.5), seen: 0, status: "live" };
  }

  /** One group's result for a task; returns what changed. */
  update(task_id: string, n_pass: number, n_total: number): CurriculumEvent[] {
    const c = this.s.config;
    const t = (this.s.tasks[task_id] ??= { p: 0.5, seen: 0, status: "live" });
    this.s.step++;
    const r = n_pass / Math.max(n_total, 1);
    t.p = (1 - c.ema) * t.p + c.ema * r;
    t.seen++;
    const events: CurriculumEvent[] = [];
    if (t.status === "live" && t.seen >= c.retire_k) {
      if (t.p > c.tau_easy) {
        t.status = "retired";
        events.push({ step: this.s.step, task_id, kind: "retired", p: t.p });
      } else if (t.p < c.tau_hard) {
        t.status = "quarantined"; // likely broken, or solvable only by a hack
        events.push({ step: this.s.step, task_id, kind: "quarantined", p: t.p });
      }
    }
    const median = this.medianPass();
    const above = median > c.escalate_above;
    if (above && !this.s.above_band) {
      this.s.escalations.push({ step: this.s.step, median });
      events.push({ step: this.s.step, kind: "escalate", median });
    }
    this.s.above_band = above;
    return events;
  }

  /** Frontier weight: p̂(1−p̂) + 1e-3 for live tasks, 0 otherwise. */
  weight(task_id: string): number {
    const t = this.s.tasks[task_id];
    if (!t || t.status !== "live") return 0;
    return t.p * (1 - t.p) + 1e-3;
  }

  /** k task ids drawn with replacement by weight (seeded: the same state draws the same ids). */
  sample(k: number): string[] {
    const live = Object.keys(this.s.tasks).filter((id) => this.weight(id) > 0).sort();
    if (live.length === 0) return [];
    const w = live.map((id) => this.weight(id));
    const total = w.reduce((a, b) => a + b, 0);
    const out: string[] = [];
    const rng = new Rng(this.s.rng); // the state lives in `s` (one integer), so it saves with the rest
    for (let i = 0; i < k; i++) {
      let x = rng.next() * total;
      this.s.rng = rng.state;
      let j = 0;
      while (j < live.length - 1 && x >= w[j]!) x -= w[j++]!;
      out.push(live[j]!);
    }
    return out;
  }

  /** Median p̂ over tasks not retired (the escalation signal). */
  medianPass(): number {
    const vals = Object.values(this.s.tasks).filter((t) => t.status !== "retired").map((t) => t.p).sort((a, b) => a - b);
    return vals.length ? vals[Math.floor(vals.length / 2)]! : 0;
  }

  /** Whether the builder should now produce harder tasks (the median is above the band). */
  shouldEscalate(): boolean {
    return this.s.above_band;
  }

  summary(): { live: number; retired: number; quarantined: number; median: number; step: number; escalations: number } {
    const ts = Object.values(this.s.tasks);
    return { live: ts.filter((t) => t.status === "live").length, retired: ts.filter((t) => t.status === "retired").length, quarantined: ts.filter((t) => t.status === "quarantined").length, median: this.medianPass(), step: this.s.step, escalations: this.s.escalations.length };
  }

  pHat(task_id: string): number | undefined {
    return this.s.tasks[task_id]?.p;
  }

  tasks(): Record<string, z.infer<typeof TaskState>> {
    return structuredClone(this.s.tasks);
  }

  escalations(): { step: number; median: number }[] {
    return [...this.s.escalations];
  }

  /** What the task builder needs to escalate (`tasks build --harder-than POOL --curriculum STATE`):
   *  the escalation level (how many times the band was crossed), the median, and the retired tasks
   *  whose repos get harder variants. Null while the curriculum has never asked. */
  escalationRequest(): EscalationRequest | null {
    if (this.s.escalations.length === 0) return null;
    const retired = Object.entries(this.s.tasks).filter(([, t]) => t.status === "retired").map(([id]) => id).sort();
    return EscalationRequest.parse({ level: this.s.escalations.length, median: this.medianPass(), retired });
  }

  /** The whole state as JSON (restore with PassRateCurriculum.restore). */
  save(): CurriculumState {
    return structuredClone(this.s);
  }

  static restore(state: unknown): PassRateCurriculum {
    const c = new PassRateCurriculum();
    c.s = CurriculumState.parse(state);
    return c;
  }

  /** Feeds a reward_fn batch: groups rewards by task and counts a pass as reward ≥ threshold. */
  observeBatch(task_ids: string[], rewards: number[], passThreshold = 1): CurriculumEvent[] {
    const groups = new Map<string, { pass: number; total: number }>();
    task_ids.forEach((id, i) => {
      const g = groups.get(id) ?? { pass: 0, total: 0 };
      g.total++;
      if (rewards[i]! >= passThreshold) g.pass++;
      groups.set(id, g);
    });
    return [...groups].flatMap(([id, g]) => this.update(id, g.pass, g.total));
  }
}

/**
 * A synthetic learner over a simulated pool (for notebooks and tests): task i has a latent
 * difficulty; the learner's skill grows with practice on frontier tasks; a few tasks are broken
 * (never solvable).
 */
const UPDATES_PER_STEP = 4;

export function simulateCurriculum(opts: { tasks?: number; steps?: number; group?: number; seed?: number; broken?: number; config?: Partial<CurriculumConfig> } = {}) {
  const n = opts.tasks ?? 200;
  const G = opts.group ?? 8;
  const rng = new Rng((opts.seed ?? 0) + 1);
  const rand = () => rng.next();
  const difficulty = Array.from({ length: n }, () => rand() * 6 - 1);
  const broken = new Set(Array.from({ length: opts.broken ?? Math.round(n * 0.03) }, (_, i) => `t${String(i * 7 % n).padStart(4, "0")}`));
  const ids = difficulty.map((_, i) => `t${String(i).padStart(4, "0")}`);
  const cur = new PassRateCurriculum({ seed: opts.seed ?? 0, ...opts.config }, ids.map((id, i) => ({ task_id: id, difficulty_prior: 1 / (1 + Math.exp(-difficulty[i]!)) })));
  let skill = 0;
  const history: { step: number; live: number; retired: number; quarantined: number; median: number; skill: number; pHat: number[] }[] = [];
  const events: CurriculumEvent[] = [];
  for (let step = 0; step < (opts.steps ?? 600); step++) {
    for (const id of cur.sample(UPDATES_PER_STEP)) {
      const i = ids.indexOf(id);
      const p = broken.has(id) ? 0 : 1 / (1 + Math.exp(difficulty[i]! - skill));
      let pass = 0;
      for (let g = 0; g < G; g++) if (rand() < p) pass++;
      events.push(...cur.update(id, pass, G));
      skill += 0.004 * (pass > 0 && pass < G ? 1 : 0.2); // learning happens at the frontier
    }
    if (step % 10 === 0) history.push({ ...cur.summary(), step, skill, pHat: Object.values(cur.tasks()).filter((t) => t.status === "live").map((t) => t.p) });
  }
  // Escalation events on the learner's clock (the history's x axis).
  const escalations = cur.escalations().map((e) => ({ step: Math.ceil(e.step / UPDATES_PER_STEP), median: e.median }));
  return { curriculum: cur, history, events, escalations, broken: [...broken] };
}
