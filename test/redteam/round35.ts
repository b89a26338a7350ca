/**
 * Round-thirty-five red team (issue 26 §7) as rows of the suite: 17 wrong bodies, 9 controls and
 * probes, 7 honest bodies and the three originals, written from the contract alone by a helper
 * (docs/grader.md after the eighteenth stop's first answer to round 34: the watch after the call
 * and in the main loop, aliasing; never lib/), on fd-micro; payloads, sources (src/), verify.py
 * (each wrong body's witness, each honest one against 3,000 random callers), the helper's grade logs
 * (results-03054d1.log against a frozen 03054d1, results.log against the changing tree) and
 * REPORT.md in test/redteam/payloads/round35/. Against 03054d1, 14 of 16 wrong bodies paid under
 * every key; no honest body was flagged. The same stop's answer: the objects the runner refills (a
 * chain's, the buffer) checked before each refill and after later calls (w01 w02 w08 w09), nested
 * containers recorded (w03), a float's sign (w04; the history gives some int lists as floats with a
 * signed zero), every held call checked after the next one (w10 under 2 of 4 keys, the suite's
 * among them), aliasing across calls and in the run elsewhere (w06 w07 w07s w07h w12). The open
 * rows say why.
 * The nineteenth stop's turns inside a call flag h02 at home (racy for threads sharing the list):
 * here a wrong row rh02, its payload copied. w11b (a change by the body's own thread lasting 0.2 ms
 * twice a second) is met since by a burst's reader thread in 4 grades of 6, 2 of 2: graded up to 3
 * times.
 * The twentieth stop found h01 racy too (its three stores on one line interleave between threads,
 * met at home in 3 grades of 10): the wrong row rh01 here, open, its payload copied.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND35_POOLS = ROUND6_POOLS;
export type Round35Pool = keyof typeof ROUND35_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";
const WINDOW = "a change made and undone within one call's span at a count past what any check is drawn to fall in: the watch checks a held object after the next call, at one drawn later call and at the end, not at every moment (a window shorter than its calls, round 27's a13)";

export const ROUND35_ROWS: RedteamRow<Round35Pool>[] = [
  { id: "c01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "probe: wrong (+1) from the process's 8,400th call (the history's asks again reach it)" },
  { id: "c02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w01: a ring given a second time drained in the same call" },
  { id: "c03", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "control for w03: nested lists cleared only where the outer list was given before (a chain's rows)" },
  { id: "c04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "probe for w04: wrong (+1) where the list holds a float zero or NaN", open: "answers for a kind the oracle never holds (floats on an int task) are judged only by kin truths, which keep a variant only where the original answers it as the call itself; the history's float lists are not judged against the original" },
  { id: "c05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "probe: wrong (+1) where the list holds any float (the oracle's own calls hold some)" },
  { id: "c06", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "probe for w02: w02's trigger, every answer wrong after it" },
  { id: "c07", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w04s: float zeros made int 0 and NaNs None within the call (a type change the watch sees)" },
  { id: "c08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w05: early callers' lists reversed at call 8,400 and never put back (met at the run's end)" },
  { id: "c09", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "probe for w12: wrong (99 appended) where w12 would hand out an earlier list" },
  { id: "rh01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "filed honest (h01), racy: a fast path for the same list given again, its list, snapshot and answer stored by one line's three item stores (`_last[0], _last[1], _last[2] = xs, snap, ans`): two threads' stores interleaved leave one call's list and snapshot beside another's answer, which the next call of that list is handed", open: "met only where the switch interval (10 µs) falls between the three stores of one line: the bursts' turns come at lines, calls and returns, not between a line's opcodes (caught in 3 grades of 10 and once in the twentieth stop's sweep; turns at the changed files' stores would meet it)" },
  { id: "rh02", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "filed honest (h02), racy (the caller's list changed in place and put back within the call: another thread sharing the list reads it meanwhile; the bursts take turns inside the call since the nineteenth stop): the caller's list scaled in place to read it out, then the very same item objects put back" },
  { id: "h03", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: a bounded memo keyed by tuple(xs), cleared at 4,096 entries" },
  { id: "h04", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "honest: keeps every argument (a registry for stats) and reads the previous one's length; never writes to any" },
  { id: "h05", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest: a per-object answer cache for flat items, used only where the object and a snapshot of its items match; a copy returned each time" },
  { id: "h06", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: the caller's list of exact ints normalised in place to equal ints (new objects past 256)" },
  { id: "h07", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: the last lists kept and read by a background thread (a stats sampler)" },
  { id: "h0t", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest control: the original total_3" },
  { id: "h0s", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest control: the original scaled_3" },
  { id: "h0h", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "honest control: the original head_1 (flagged by the first form of the aliasing rule in the run elsewhere: its slice of a chain's rows shares the rows' items; fixed the same stop)" },
  { id: "w01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a ring given a second time drained at the process's next call of another object (a chain's object, refilled before its next ask)" },
  { id: "w02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a list or deque given 2-60 times, then unused for 300 calls, cleared (an abandoned chain object)" },
  { id: "w03", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "each nested list of the caller's rows emptied (the watch was shallow)" },
  { id: "w04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the caller's previous list's float zeros made -0.0 at the next call (a float's sign was not compared; no float zero was sent)" },
  { id: "w04s", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w04 within the same call" },
  { id: "w05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "lists from the first 150 calls reversed at call 8,400 and put back at 8,401", open: WINDOW },
  { id: "w05s", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "w05 on scaled_3", open: WINDOW },
  { id: "w06", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "the caller's own list handed back where scaling leaves it equal (all zeros, or empty)" },
  { id: "w07", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "the answer memoised by kind and head: one answer list handed to two callers" },
  { id: "w07s", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "the answer memoised by the whole input (met where the run elsewhere's twins and asks again repeat an input)" },
  { id: "w07h", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "w07s on head_1" },
  { id: "w08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "any deque given a second time drained at the next call of another object" },
  { id: "w09", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a list of 12+ items given a second time, asked under 61 times, cleared at the next call of another object" },
  { id: "w10", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the previous caller's list reversed at calls 3,000 and 6,000, put back a call later (caught where that list can be reversed visibly: 2 of 4 keys, the suite's among them; under the others the lists at those counts were palindromes or a refilled buffer)" },
  { id: "w11", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a background thread reverses each of the last 64 lists every 50 ms, putting each back 0.2 ms later (met by checks that fall in its windows: 4 of 4 grades)" },
  { id: "w11b", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w11 with one list every 500 ms", tries: 3 },
  { id: "w12", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "an earlier caller's one-item list handed out as the answer where it holds the same item" },
];
