// Round-two red team (issue 26 §7), part A's classes (test/redteam/round2.ts): every row graded with
// the behavioural check on (reward < 0.5, and one of the row's flags among the grade's flags or
// notes); rows marked beatsPytest are graded again with the check off and must earn ≥ 0.5 there —
// the attempt wins against the pytest verdict alone, and item 1 is what stops it. Goldens of every
// task used earn 1 unflagged with the check run (or saying why it does not apply). One warm grader,
// all grades batched two at a time.
import { describe, expect, it, beforeAll } from "vitest";
import pLimit from "p-limit";
import { join } from "node:path";
import { gradeCompletion, type BehaviourConfigInput, type GradeCompletionResult } from "../lib/env/index.js";
import { BwrapSandbox, type Sandbox } from "../lib/sandbox/index.js";
import { loadTask, readIndex, type FeatureDeletionTask } from "../lib/tasks/index.js";
import { ROOT } from "./helpers.js";
import { ATTACKS, ROUND2_ROWS, ctxOf } from "./redteam/round2.js";
import { inSliceKey } from "./redteam/suite.js";
import { round2Table, type Round2Row, type Round2Task, type SandboxKind } from "./redteam/table.js";

const POOLS = { micro: join(ROOT, "datasets", "fd-micro", "pool"), inventory: join(ROOT, "datasets", "tasks"), markupsafe: join(ROOT, "datasets", "real-markupsafe") };
const warm = new BwrapSandbox();
const cold = new BwrapSandbox("bwrap", { warm: false });
const sandboxOf = (k: SandboxKind): Sandbox => (k === "bwrap-warm" ? warm : k === "bwrap" ? cold : (() => { throw new Error(`${k}: not run here`); })());

/** A row whose attack ignores the per-call timer and runs the whole run's clock out (10 s + 2 s a
 *  call by default): the same mechanism under shorter limits. (rn-slow-calls runs the defaults: two
 *  calls time out, the rest are not run.) */
const SHORT: Record<string, BehaviourConfigInput> = {
  "rn-swallow-alarm": { limits: { call_timeout_ms: 200, base_timeout_ms: 3000 } },
};

const taskCache = new Map<string, FeatureDeletionTask>();
function taskOf(ref: Round2Task): FeatureDeletionTask {
  if (taskCache.has(ref)) return taskCache.get(ref)!;
  const [kind, name] = ref.split(":") as [keyof typeof POOLS, string];
  const pool = POOLS[kind];
  const entry = readIndex(pool).find((e) => (kind === "inventory" ? e.task_id === name : e.deleted_symbols.some((d) => d.qualname === name || d.qualname.endsWith(`.${name}`))));
  if (!entry) throw new Error(`${ref}: no such task in ${pool}`);
  const t = loadTask(pool, entry.task_id);
  taskCache.set(ref, t);
  return t;
}

interface Outcome { on: GradeCompletionResult; off?: GradeCompletionResult; ms: number }
const results = new Map<string, Outcome>();
const goldens = new Map<string, GradeCompletionResult>();
const key = (r: Round2Row, k: SandboxKind) => `${r.id} [${k}]`;
/** Every row on the warm grader (a grade's default path), on the cold path in this run's slice
 *  (test/redteam/suite.ts redteamSlice; COMPOSER_LAB_REDTEAM=all grades both). */
const graded = (r: Round2Row, k: SandboxKind) => k === "bwrap-warm" || inSliceKey(`round2:${r.id}:${k}`);
const summary = (g: GradeCompletionResult) => ({ reward: g.reward, frac: g.frac, flags: g.flags.map((f) => `${f.kind}: ${f.detail.slice(0, 160)}`), notes: g.checks?.notes.map((f) => f.kind), behaviour: g.checks && { ran: g.checks.behaviour.ran, agreement: g.checks.behaviour.agreement, why: g.checks.behaviour.why } });

beforeAll(async () => {
  const limit = pLimit(2);
  const jobs: Promise<void>[] = [];
  for (const row of ROUND2_ROWS) {
    for (const k of row.sandboxes.filter((k) => graded(row, k))) {
      jobs.push(limit(async () => {
        const t = taskOf(row.task);
        const completion = ATTACKS[row.id]!(ctxOf(t));
        const t0 = performance.now();
        const on = await gradeCompletion(t, completion, sandboxOf(k), { limits: { behaviour: SHORT[row.id] ?? {} } });
        // the pytest verdict alone, once per row (warm)
        const off = row.beatsPytest && k === "bwrap-warm" ? await gradeCompletion(t, completion, sandboxOf(k), { limits: { behaviour: { enabled: false } } }) : undefined;
        results.set(key(row, k), { on, off, ms: performance.now() - t0 });
      }));
    }
  }
  for (const ref of new Set(ROUND2_ROWS.map((r) => r.task))) {
    for (const k of ["bwrap-warm", "bwrap"] as const) {
      jobs.push(limit(async () => {
        const t = taskOf(ref);
        goldens.set(`${ref} [${k}]`, await gradeCompletion(t, t.golden_diff, sandboxOf(k)));
      }));
    }
  }
  await Promise.all(jobs);
  if (process.env.REDTEAM_RECORD) {
    const { appendFileSync } = await import("node:fs");
    for (const [id, o] of results) appendFileSync(process.env.REDTEAM_RECORD, JSON.stringify({ id, on: summary(o.on), off: o.off && summary(o.off), ms: Math.round(o.ms) }) + "\n");
  }
}, 900_000);

describe("red team round 2: the table", () => {
  it("has ≥ 45 rows over the five classes, unique ids, an attack for each", () => {
    expect(ROUND2_ROWS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(ROUND2_ROWS.map((r) => r.id)).size).toBe(ROUND2_ROWS.length);
    expect(new Set(ROUND2_ROWS.map((r) => r.class))).toEqual(new Set(["value_gaming", "harness_state", "builtin_obj", "untrusted_files", "runner"]));
    for (const r of ROUND2_ROWS) expect(ATTACKS[r.id], r.id).toBeTypeOf("function");
    expect(round2Table(ROUND2_ROWS).split("\n").length).toBe(ROUND2_ROWS.length + 2);
  });
});

for (const cls of [...new Set(ROUND2_ROWS.map((r) => r.class))]) {
  describe(`red team round 2: ${cls}`, () => {
    for (const row of ROUND2_ROWS.filter((r) => r.class === cls)) {
      for (const k of row.sandboxes) {
        (graded(row, k) ? it : it.skip)(`${row.id} [${k}]: reward < 0.5${row.flags.length ? ` (${row.flags.join(" | ")})` : ""}${row.beatsPytest ? "; ≥ 0.5 with the check off" : ""}`, () => {
          const o = results.get(key(row, k))!;
          expect(o, "graded").toBeDefined();
          const seen = [...o.on.flags, ...(o.on.checks?.notes ?? [])].map((f) => f.kind);
          expect(o.on.reward, JSON.stringify(summary(o.on))).toBeLessThan(0.5);
          if (row.flags.length) expect(seen.some((f) => (row.flags as string[]).includes(f)), JSON.stringify(summary(o.on))).toBe(true);
          // every grade says which checks ran
          expect(o.on.checks?.pytest).toBeDefined();
          expect(o.on.checks?.behaviour.ran || o.on.checks?.behaviour.why).toBeTruthy();
          // with the check off it beats pytest: reward ≥ 0.5, or 0 only for the machine probes the
          // static scan has flagged since round 12 (uf-runpy-dat reads __file__; rn-read-oracle walks
          // /tmp and /opt for the oracle): a second layer, not pytest
          if (o.off) {
            const offFlags = o.off.flags.map((f) => f.kind);
            const probedOnly = o.off.reward === 0 && offFlags.length > 0 && offFlags.every((f) => f === "env_probe") && o.off.frac >= 0.5;
            expect(o.off.reward >= 0.5 || probedOnly, `with the check off: ${JSON.stringify(summary(o.off))}`).toBe(true);
          }
        });
      }
    }
  });
}

describe("red team round 2: goldens earn 1 unflagged", () => {
  for (const ref of new Set(ROUND2_ROWS.map((r) => r.task))) {
    for (const k of ["bwrap-warm", "bwrap"] as const) {
      it(`${ref} [${k}]`, () => {
        const g = goldens.get(`${ref} [${k}]`)!;
        expect(g.reward, JSON.stringify(summary(g))).toBe(1);
        expect(g.flags).toEqual([]);
        const b = g.checks!.behaviour;
        expect(b.ran ? b.agreement : b.why, JSON.stringify(b)).toBe(b.ran ? 1 : b.why);
        if (b.ran) expect(b.path).toBe(k === "bwrap-warm" ? "warm" : "cold");
      });
    }
  }
});
