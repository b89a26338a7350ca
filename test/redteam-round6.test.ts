// Round-six red team (issue 26 §7) as rows of the suite (test/redteam/round6.ts): every row's payload
// (test/redteam/payloads/round6/<id>.diff) graded through gradeCompletion on one warm bwrap sandbox,
// two at a time, with the committed oracles. A wrong body must earn < 0.5 or be flagged; an honest one
// must earn 1 unflagged. Rows marked `open` do not today: they run as `it.fails` (red the day their
// cause is fixed; then drop `open` from the row so it asserts). The goldens of every task the rows use
// earn 1 unflagged.
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pLimit from "p-limit";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../lib/core/index.js";
import { FeatureDeletionEpisode, gradeCompletion, type GradeCompletionResult } from "../lib/env/index.js";
import { BwrapSandbox, gradingPath } from "../lib/sandbox/index.js";
import { applyUnifiedDiff, loadTask, type FeatureDeletionTask } from "../lib/tasks/index.js";
import { ROOT } from "./helpers.js";
import { ROUND6_POOLS, ROUND6_ROWS, type Round6Row } from "./redteam/round6.js";

const sb = new BwrapSandbox();
const payloadPath = (r: Round6Row) => join(ROOT, "test", "redteam", "payloads", "round6", `${r.id}.diff`);
const taskKey = (r: Round6Row) => `${r.pool}:${r.task}`;

const taskCache = new Map<string, FeatureDeletionTask>();
function taskOf(r: Round6Row): FeatureDeletionTask {
  const k = taskKey(r);
  if (!taskCache.has(k)) taskCache.set(k, loadTask(join(ROOT, ROUND6_POOLS[r.pool]), r.task));
  return taskCache.get(k)!;
}

const grades = new Map<string, GradeCompletionResult>();
const goldens = new Map<string, GradeCompletionResult>();
const summary = (g: GradeCompletionResult) => ({
  reward: g.reward, frac: g.frac, error: g.error, flags: g.flags.map((f) => `${f.kind}: ${f.detail.slice(0, 160)}`),
  behaviour: g.checks && { ran: g.checks.behaviour.ran, agreed: g.checks.behaviour.agreed, compared: g.checks.behaviour.compared, why: g.checks.behaviour.why,
    probes: g.checks.behaviour.probes && Object.fromEntries(Object.entries(g.checks.behaviour.probes).filter(([, v]) => v.compared).map(([k, v]) => [k, `${v.agreed}/${v.compared}`])) },
});
/** What a row expects: wrong → reward < 0.5 or a flag (a grader failure is no flag that counts); honest → 1 unflagged. */
function meets(r: Round6Row, g: GradeCompletionResult): boolean {
  if (r.kind === "honest") return g.reward === 1 && g.flags.length === 0;
  return g.reward < 0.5 || g.flags.some((f) => f.kind !== "grader_error");
}

beforeAll(async () => {
  expect((await sb.check()).ok, "bubblewrap must work here").toBe(true);
  expect(await gradingPath(sb), "the warm grader must work here").toMatchObject({ path: "warm" });
  const limit = pLimit(2);
  const jobs: Promise<void>[] = ROUND6_ROWS.map((r) => limit(async () => {
    grades.set(r.id, await gradeCompletion(taskOf(r), readFileSync(payloadPath(r), "utf8"), sb));
  }));
  const tasks = new Map(ROUND6_ROWS.map((r) => [taskKey(r), r]));
  for (const [k, r] of tasks) jobs.push(limit(async () => { goldens.set(k, await gradeCompletion(taskOf(r), taskOf(r).golden_diff, sb)); }));
  await Promise.all(jobs);
}, 600_000);

describe("red team round 6: the table", () => {
  it("has ≥ 90 rows with unique ids, wrong and honest bodies, every open row saying why", () => {
    expect(ROUND6_ROWS.length).toBeGreaterThanOrEqual(90);
    expect(new Set(ROUND6_ROWS.map((r) => r.id)).size).toBe(ROUND6_ROWS.length);
    expect(new Set(ROUND6_ROWS.map((r) => r.kind))).toEqual(new Set(["wrong", "honest"]));
    for (const r of ROUND6_ROWS) {
      expect(r.kind, r.id).toBe(r.id.startsWith("h") ? "honest" : "wrong"); // the red team's naming
      expect(r.idea.length, r.id).toBeGreaterThan(5);
      if (r.open !== undefined) expect(r.open.trim().length, r.id).toBeGreaterThan(5);
    }
  });
  it("every payload file exists and applies to its task's snapshot", () => {
    for (const r of ROUND6_ROWS) {
      expect(existsSync(payloadPath(r)), r.id).toBe(true);
      const t = taskOf(r);
      const dir = tempDir(`r6-apply-${r.id}-`);
      try {
        cpSync(FeatureDeletionEpisode.snapshotDir(t), dir.path, { recursive: true });
        expect(() => applyUnifiedDiff(dir.path, readFileSync(payloadPath(r), "utf8")), r.id).not.toThrow();
      } finally {
        dir.remove();
      }
    }
  });
  it("every row was graded: the diff applied, no grader failure, the behavioural check ran and compared", () => {
    // (an `open` row's it.fails would pass on a grade that never happened: this one would not)
    for (const r of ROUND6_ROWS) {
      const g = grades.get(r.id);
      expect(g, r.id).toBeDefined();
      expect(g!.error, r.id).toBeNull();
      expect(g!.flags.map((f) => f.kind), r.id).not.toContain("grader_error");
      expect(g!.checks?.pytest, r.id).toBeDefined();
      expect(g!.checks!.behaviour.ran && g!.checks!.behaviour.compared > 0, `${r.id}: ${JSON.stringify(summary(g!))}`).toBe(true);
    }
  });
});

for (const kind of ["wrong", "honest"] as const) {
  describe(`red team round 6: ${kind} bodies`, () => {
    for (const r of ROUND6_ROWS.filter((x) => x.kind === kind)) {
      const expectation = kind === "wrong" ? "reward < 0.5 or flagged" : "reward 1 unflagged";
      // open rows: they do not meet the expectation today (it.fails turns red when they do)
      const test = r.open ? it.fails : it;
      test(`${r.id} (${r.task}): ${r.idea} → ${expectation}${r.open ? ` [open: ${r.open}]` : ""}`, () => {
        const g = grades.get(r.id)!;
        expect(g, "graded").toBeDefined();
        expect(meets(r, g), JSON.stringify(summary(g))).toBe(true);
      });
    }
  });
}

describe("red team round 6: the goldens of every task the rows use earn 1 unflagged", () => {
  for (const k of new Set(ROUND6_ROWS.map(taskKey))) {
    it(k, () => {
      const g = goldens.get(k)!;
      expect(g, "graded").toBeDefined();
      expect(g.reward, JSON.stringify(summary(g))).toBe(1);
      expect(g.flags).toEqual([]);
      const b = g.checks!.behaviour;
      expect(b.ran ? b.agreement : b.why, JSON.stringify(b)).toBe(b.ran ? 1 : b.why);
    });
  }
});
