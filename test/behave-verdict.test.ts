// The behavioural check's verdicts with the grader's fast paths (fastCallLine, the request and the
// oracle-only values derived once per oracle) are those of the reference: zod alone on the runner's
// lines and everything derived per grade (COMPOSER_LAB_BEHAVE_FAST=0). Goldens, wrong bodies, and
// round two's value-gaming and runner attacks (forged streams, patched serializers, floods, lying
// classes; not the one whose outcome is a thread's timing), each checked in both modes on the warm
// grader (checkBehaviour on the tree gradeWorkdir would give it); every BehaviourCheck field but
// wallMs must match.
import { copyFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import pLimit from "p-limit";
import { beforeAll, describe, expect, it } from "vitest";
import { FeatureDeletionEpisode, checkBehaviour, parseCompletion, spliceBody, type BehaviourCheck, type BehaviourConfigInput } from "../lib/env/index.js";
import { BwrapSandbox, prepareGradedTree } from "../lib/sandbox/index.js";
import { applyUnifiedDiff, loadTask, readIndex, type FeatureDeletionTask } from "../lib/tasks/index.js";
import { ROOT, tmp } from "./helpers.js";
import { ATTACKS, ROUND2_ROWS, ctxOf } from "./redteam/round2.js";
import type { Round2Task } from "./redteam/table.js";

const POOLS = { micro: join(ROOT, "datasets", "fd-micro", "pool"), inventory: join(ROOT, "datasets", "tasks"), markupsafe: join(ROOT, "datasets", "real-markupsafe") };
const sb = new BwrapSandbox();
/** As test/redteam-round2.test.ts runs it (the whole run's clock under shorter limits). */
const SHORT: Record<string, BehaviourConfigInput> = { "rn-swallow-alarm": { limits: { call_timeout_ms: 200, base_timeout_ms: 3000 } } };

function taskOf(ref: Round2Task): FeatureDeletionTask {
  const [kind, name] = ref.split(":") as [keyof typeof POOLS, string];
  const pool = POOLS[kind];
  const entry = readIndex(pool).find((e) => (kind === "inventory" ? e.task_id === name : e.deleted_symbols.some((d) => d.qualname === name || d.qualname.endsWith(`.${name}`))))!;
  return loadTask(pool, entry.task_id);
}

interface Item { id: string; task: FeatureDeletionTask; completion: string; behaviour: BehaviourConfigInput }
const items: Item[] = [];
const checks: Record<"fast" | "reference", Map<string, BehaviourCheck>> = { fast: new Map(), reference: new Map() };
const dir = tmp("behave-verdict-");

/** Each item's graded tree, as gradeWorkdir gives the check one: the snapshot, the completion's
 *  diff, the harness files put back (prepareGradedTree). Made once, checked in both modes. */
const trees = new Map<string, string>();
function treeOf(it: Item): string {
  if (!trees.has(it.id)) {
    const wd = join(dir, "trees", it.id.replace(/[^\w.-]+/g, "_"));
    cpSync(FeatureDeletionEpisode.snapshotDir(it.task), wd, { recursive: true });
    const parsed = parseCompletion(it.completion);
    if (parsed.kind !== "diff") throw new Error(`${it.id}: not a diff (${parsed.kind})`);
    applyUnifiedDiff(wd, parsed.diff);
    prepareGradedTree(FeatureDeletionEpisode.snapshotDir(it.task), wd, [...it.task.fail_to_pass, ...it.task.pass_to_pass]);
    trees.set(it.id, wd);
  }
  return trees.get(it.id)!;
}

// (the check alone, as gradeWorkdir runs it: pytest beside it decides nothing here, and left out it
// halves the test's time)
async function gradeAll(mode: "fast" | "reference", only = items): Promise<void> {
  const before = process.env.COMPOSER_LAB_BEHAVE_FAST;
  process.env.COMPOSER_LAB_BEHAVE_FAST = mode === "fast" ? "1" : "0";
  try {
    const limit = pLimit(2);
    await Promise.all(only.map((it) => limit(async () => {
      checks[mode].set(it.id, await checkBehaviour(it.task, treeOf(it), sb, it.behaviour));
    })));
  } finally {
    if (before === undefined) delete process.env.COMPOSER_LAB_BEHAVE_FAST;
    else process.env.COMPOSER_LAB_BEHAVE_FAST = before;
  }
}
const gradeOne = (it: Item, mode: "fast" | "reference") => gradeAll(mode, [it]);

beforeAll(async () => {
  // (rn-mutate-after-return's list is rewritten by a thread 1 ms after the call: which calls see
  // it rewritten is timing, not the grader)
  const rows = ROUND2_ROWS.filter((r) => (r.class === "runner" || r.class === "value_gaming") && r.id !== "rn-mutate-after-return");
  const tasks = new Map<string, FeatureDeletionTask>();
  for (const r of rows) if (!tasks.has(r.task)) tasks.set(r.task, taskOf(r.task));
  // the micro tasks with the most grow and scale calls (probeHalves), each with a fresh oracle
  // path too: a first grade on a cold oracle object
  for (const f of ["funcs.scaled_3", "funcs.count_8"]) {
    const t = readIndex(POOLS.micro).map((e) => loadTask(POOLS.micro, e.task_id)).find((t) => t.task_id.endsWith(f))!;
    tasks.set(`micro:${f}`, t);
    const copy = join(dir, `${t.task_id}.json`);
    copyFileSync(t.oracle_path!, copy);
    tasks.set(`micro:${f}:cold`, { ...t, oracle_path: copy });
  }
  for (const [ref, t] of tasks) {
    const body = ["golden", "wrong", "stub"] as const;
    for (const b of body) items.push({ id: `${ref}/${b}`, task: t, behaviour: {}, completion: b === "golden" ? t.golden_diff : spliceBody(t, b === "wrong" ? "    return None" : '    raise NotImplementedError("later")').diff });
  }
  for (const r of rows) {
    const t = tasks.get(r.task)!;
    items.push({ id: r.id, task: t, behaviour: SHORT[r.id] ?? {}, completion: ATTACKS[r.id]!(ctxOf(t)) });
  }
  await gradeAll("fast");
  await gradeAll("reference");
  // a call that ran out its timer on a loaded machine in one mode only (rn-read-oracle's calls are
  // slow on purpose) is the machine's, not a fast path's: such an item is checked again in both
  // modes, twice at most (a fast path that differs differs every time)
  const timedOut = (c: BehaviourCheck) => c.differences.some((d) => d.why === "timed out");
  for (let round = 0; round < 2; round++) {
    const again = items.filter((it) => JSON.stringify(strip(checks.fast.get(it.id)!)) !== JSON.stringify(strip(checks.reference.get(it.id)!)) && (timedOut(checks.fast.get(it.id)!) || timedOut(checks.reference.get(it.id)!)));
    for (const it of again) for (const mode of ["fast", "reference"] as const) await gradeOne(it, mode);
  }
}, 900_000);

// (the history's time is timing too: at least 4× the graded run's per-call time)
/** A check without what follows the machine's timings: its wall time, the history's time, its CPU,
 *  the original's pace and the ms credited for its wait for a CPU, and the run elsewhere's calls per clock block (the in-place
 *  chains' lengths follow how long their base calls took in the graded run: a loaded machine moves a
 *  call past CHEAP_MS, and its chain's length with it). */
const strip = ({ wallMs: _w, ...rest }: BehaviourCheck) => {
  if (!rest.elsewhere) return rest;
  const { waited: _waited, cpu: _cpu, pace: _pace, ...history } = rest.elsewhere.history ?? ({} as NonNullable<NonNullable<BehaviourCheck["elsewhere"]>["history"]>);
  return { ...rest, elsewhere: { ...rest.elsewhere, clocks: rest.elsewhere.clocks.map((c) => ({ ...c, calls: 0 })), ...(rest.elsewhere.history ? { history: { ...history, ms: 0 } } : {}) } };
};


describe("the behavioural check's fast paths against the reference", () => {
  it("gives every item the same BehaviourCheck (wall time aside)", () => {
    expect(items.length).toBeGreaterThan(40);
    for (const it of items) expect(strip(checks.fast.get(it.id)!), it.id).toEqual(strip(checks.reference.get(it.id)!));
  });

  it("covers passes, failures and runs failed as a whole", () => {
    const all = [...checks.fast.values()];
    expect(all.filter((b) => b.ran && b.passed).length).toBeGreaterThan(5);
    expect(all.filter((b) => b.ran && !b.passed && b.why === null).length).toBeGreaterThan(10);
    expect(all.filter((b) => b.why?.startsWith("the runner's result is not trusted")).length).toBeGreaterThan(3);
    expect(all.some((b) => (b.sizes ?? []).length > 0)).toBe(true);
  });
});

