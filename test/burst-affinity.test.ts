// The run at home's bursts (behave.ts `burst`: a call made from 2–32 threads at once, each yielding
// at every call of the package's) pin every other burst of each size to one CPU, which is cheap but
// readable (os.sched_getaffinity). A body racy only on one side of that line must still meet a
// burst there: a module-level cell written, then read back through a helper (round 25's a05b),
// guarded by the mask's size either way, is flagged behaviour_differs; the same body with its race
// guarded by a mask no machine has (the null arm) is not. Reading the mask is itself flagged
// env_probe (the static scan: os.sched_getaffinity), so every case carries that flag; the behavioural
// verdict is what is tested here. Needs a machine whose own mask has two CPUs or more (the graded
// run's and the unpinned bursts').
import { cpus } from "node:os";
import { describe, expect, it } from "vitest";
import { gradeCompletion } from "../lib/env/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { microCompletion } from "./support/micro-body.js";

const sb = new BwrapSandbox();
// (the latent paths and the history are off: the run at home alone must catch these)
const HOME_ONLY = { history_calls: 0, latent_paths: false };
const HEADER = ["import os", "_cell = [0]", "def _plus():", "    return _cell[0] + 3"];
const racyWhere = (cond: string) => [`if ${cond}:`, "    _cell[0] = x", "    return _plus()", "return x + 3"];

describe("bursts pinned to one CPU and not: a race guarded by the CPU mask is met either way", () => {
  const cases = [
    { id: "racy-on-many-cpus", body: racyWhere("len(os.sched_getaffinity(0)) > 1"), caught: true },
    { id: "racy-on-one-cpu", body: racyWhere("len(os.sched_getaffinity(0)) == 1"), caught: true },
    { id: "null-arm-never-racy", body: racyWhere("len(os.sched_getaffinity(0)) > 4096"), caught: false },
  ];
  for (const c of cases) {
    it(`${c.id}: ${c.caught ? "flagged behaviour_differs at home" : "not flagged behaviour_differs"} (and env_probe for the read)`, { timeout: 300_000 }, async (ctx) => {
      if (cpus().length < 2) return ctx.skip("one CPU: no burst runs across CPUs here");
      const { t, diff } = microCompletion("add_3", HEADER, c.body);
      const g = await gradeCompletion(t, diff, sb, { limits: { behaviour: HOME_ONLY } });
      const b = g.checks!.behaviour;
      expect(g.flags.find((f) => f.kind === "env_probe")?.detail).toMatch(/os\.sched_getaffinity/);
      const differs = g.flags.find((f) => f.kind === "behaviour_differs");
      if (!c.caught) {
        expect(differs, JSON.stringify(b.differences)).toBeUndefined();
        expect(b.passed).toBe(true);
        return;
      }
      expect(g.reward).toBe(0);
      expect(differs?.detail, JSON.stringify(b.differences)).toMatch(/at home/);
    });
  }
});
