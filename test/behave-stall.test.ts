// The behavioural runner's stall clock (BehaveLimits.stall_ms, RunOptions.stallMs): the runs
// elsewhere and at home have no per-call timer (a body must not see one), so a body that hangs
// there was stopped only by the whole run's time (up to 120 s a grade: round 13's h30, a thread
// pool in a forked worker). behave.py writes at least once a second while it makes calls, its
// history's too; a run that stays silent for stall_ms is stopped. A slow body that keeps making
// calls is not.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BwrapSandbox, drawHome, runBehaviour, type BCall, type RunShift } from "../lib/sandbox/index.js";
import { tmp } from "./helpers.js";

const d = tmp();
mkdirSync(join(d, "pkg"));
writeFileSync(join(d, "pkg", "__init__.py"), "");
// (slow: 0.25 s a call; hang: from the fourth call on, an hour)
writeFileSync(join(d, "pkg", "m.py"), `import time


def slow(x):
    time.sleep(0.25)
    return x


def hang(x):
    if x >= 3:
        time.sleep(3600)
    return x
`);
const sb = new BwrapSandbox("bwrap", { warm: false });
const calls = (n: number, symbol: number, tag = "c"): BCall[] => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}`, symbol, pos: [{ t: "int", v: String(i) }], kw: [] }));
const req = (cs: BCall[]) => ({ symbols: [{ module: "pkg.m", qualname: "slow" }, { module: "pkg.m", qualname: "hang" }], calls: cs, roots: ["."], project: ["pkg"] });
const SHIFTS: Record<string, RunShift> = {
  elsewhere: { pids: 0, days: 0, elsewhere: true },
  "at home": { pids: 0, days: 0, elsewhere: true, home: { ...drawHome(randomBytes(32)), calling: [], setups: [] } },
};
const limits = { call_timeout_ms: 10_000, stall_ms: 1500 };

describe("a behavioural run that stays silent is stopped at stall_ms, one that makes calls is not", () => {
  for (const [where, shift] of Object.entries(SHIFTS)) {
    it(`${where}: twelve calls of 0.25 s each (3 s) answer; a call that hangs stops the run after 1.5 s of silence`, async () => {
      const slow = await runBehaviour(sb, d, req(calls(12, 0)), limits, { pyenv: null, shift });
      expect(slow.failure, slow.run.stderr).toBeNull();
      expect([...slow.outcomes!.values()].map((o) => o[0]!.k)).toEqual(Array(12).fill("return"));
      const hung = await runBehaviour(sb, d, req(calls(6, 1)), limits, { pyenv: null, shift });
      expect(hung.outcomes).toBeNull();
      expect(hung.failure).toBe("the run wrote nothing for 1500 ms");
      expect(hung.run.stalled).toBe(true);
    }, 120_000);
  }

  it("elsewhere, a history of twelve 0.25 s calls (3 s of calls whose outcomes are dropped) ticks: the run answers", async () => {
    const history = { blocks: [{ at: 0, n: 12 }], calls: calls(12, 0, "h"), ms: 60_000 };
    const r = await runBehaviour(sb, d, { ...req(calls(1, 0)), history }, limits, { pyenv: null, shift: SHIFTS.elsewhere });
    expect(r.failure, r.run.stderr).toBeNull();
    expect(r.history).toBe(12);
  }, 120_000);

  it("the slowest call's graded time raises the stall clock (BehaveRunOptions.slowestMs × STALL_FACTOR)", async () => {
    // (64 × 0.05 s = 3.2 s of silence allowed: a call that sleeps 2 s at a time is not stopped)
    writeFileSync(join(d, "pkg", "n.py"), "import time\n\n\ndef pause(x):\n    time.sleep(2)\n    return x\n");
    const r = await runBehaviour(sb, d, { symbols: [{ module: "pkg.n", qualname: "pause" }], calls: calls(2, 0), roots: ["."], project: ["pkg"] }, limits, { pyenv: null, shift: SHIFTS.elsewhere, slowestMs: 50 });
    expect(r.failure, r.run.stderr).toBeNull();
    const cut = await runBehaviour(sb, d, { symbols: [{ module: "pkg.n", qualname: "pause" }], calls: calls(2, 0), roots: ["."], project: ["pkg"] }, limits, { pyenv: null, shift: SHIFTS.elsewhere });
    expect(cut.failure).toBe("the run wrote nothing for 1500 ms");
  }, 120_000);
});
