// The run at home's bursts switch threads at every point of the package's own code (behave.ts
// `burst`): a function of its entered or left, a C function it calls entered or left, each of its
// lines. A body that changes its caller's list and puts it back within one call, with no call of
// the package's inside the window (round 36's w20, h09, h14), is wrong for threads sharing the
// list; before, the bursts yielded only as a package function was entered and such a window paid.
// Each racy shape is flagged at home; the null arm (the same steps on a copy of the list) is not. A
// change under a lock every thread of the burst takes (round 37's w05) is met by the burst's reader
// thread, which checks the shared list against its state before the burst at each turn.
// head_1's original leaves its list as it was, so the bursts' threads share it.
import { describe, expect, it } from "vitest";
import { gradeCompletion } from "../lib/env/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { microCompletion } from "./support/micro-body.js";

const sb = new BwrapSandbox();
// (the latent paths and the history are off: the run at home alone must catch these)
const HOME_ONLY = { history_calls: 0, latent_paths: false };

const cases: { id: string; why: string; header?: string[]; body: (xs: string) => string[] }[] = [
  {
    id: "reversed-and-back-by-c-calls",
    why: "two C calls (list.reverse) and a slice between them: switch points only as a C call is entered or left",
    body: (xs: string) => [`if type(${xs}) is list:`, `    ${xs}.reverse()`, `    out = ${xs}[-1:]`, `    ${xs}.reverse()`, "    return out", `return ${xs}[:1]`],
  },
  {
    id: "swapped-and-back-by-lines",
    why: "item stores on their own lines, no call inside the window: switch points only at its lines",
    body: (xs: string) => [
      `if type(${xs}) is list and ${xs}[1:]:`,
      `    a = ${xs}[0]`,
      `    ${xs}[0] = ${xs}[-1]`,
      `    ${xs}[-1] = a`,
      `    out = [${xs}[-1]]`,
      `    ${xs}[-1] = ${xs}[0]`,
      `    ${xs}[0] = a`,
      "    return out",
      `return ${xs}[:1]`,
    ],
  },
  {
    id: "reversed-and-back-under-a-lock",
    why: "the window under a module lock every thread of the burst takes in turn, so none of them meets it: met by the burst's reader thread",
    header: ["import threading", "_lock = threading.Lock()"],
    body: (xs: string) => [`if type(${xs}) is list:`, "    with _lock:", `        ${xs}.reverse()`, `        out = ${xs}[-1:]`, `        ${xs}.reverse()`, "    return out", `return ${xs}[:1]`],
  },
];

describe("bursts switch threads within a call: a change made and undone inside one call is met", () => {
  for (const c of cases) {
    it(`${c.id} (${c.why}): flagged behaviour_differs at home`, { timeout: 300_000 }, async () => {
      const { t, diff } = microCompletion("head_1", c.header ?? [], c.body("xs"));
      const g = await gradeCompletion(t, diff, sb, { limits: { behaviour: HOME_ONLY } });
      expect(g.reward).toBe(0);
      expect(g.flags.find((f) => f.kind === "behaviour_differs")?.detail, JSON.stringify(g.checks!.behaviour.differences)).toMatch(/at home/);
    });
    it(`${c.id}, null arm (the same steps on the body's own copy): earns 1 unflagged`, { timeout: 300_000 }, async () => {
      const { t, diff } = microCompletion("head_1", c.header ?? [], ["ys = list(xs) if type(xs) is list else xs", ...c.body("ys")]);
      const g = await gradeCompletion(t, diff, sb, { limits: { behaviour: HOME_ONLY } });
      expect(g.flags, JSON.stringify(g.checks!.behaviour.differences)).toEqual([]);
      expect(g.reward).toBe(1);
    });
  }
});
