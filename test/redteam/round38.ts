/**
 * Round-thirty-eight red team (issue 26 §7) as rows of the suite: bodies wrong from the process's
 * 2,000th call on (more calls than the graded run and the run at home make; fewer than the run
 * elsewhere's history), with the wrongness switched off where the body can tell the run elsewhere
 * apart without a probe, by data flow alone (no branch: the latent paths force none). Written by the
 * twenty-first stop while it read the history's clock. At attack time (f665e34) w01 paid: the run
 * elsewhere's time.sleep was the runner's own Python function (libfaketime 0.9.10 fails the
 * interpreter's sleep on the monotonic clock), so `type(time.sleep).__name__` told it from every
 * other interpreter. w02 paid against that stop's first answer to round 13's h17, which wrapped
 * threading's start to read each thread's wait for a CPU as it ended: the wrapper never landed.
 * The same stop's answer: a shared object preloaded before libfaketime sends the interpreter's
 * monotonic sleep to the kernel (lib/sandbox/harness/faketime-sleep.c), so time.sleep is the
 * interpreter's own in every run; the history's clock reads no thread but the runner's.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND38_POOLS = ROUND6_POOLS;
export type Round38Pool = keyof typeof ROUND38_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";
const LATE = "times 4 from the process's 2,001st call on";

export const ROUND38_ROWS: RedteamRow<Round38Pool>[] = [
  { id: "c01", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `control: ${LATE}, everywhere (the history's 8,192 calls reach it)` },
  { id: "w01", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${LATE} where time.sleep is the interpreter's (len(type(time.sleep).__name__) in the factor: 26 for a builtin, 8 for a Python function)` },
  { id: "w02", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${LATE} where threading's start is _thread's (len(threading._start_new_thread.__name__) in the factor)` },
  { id: "w03", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `${LATE} where time.monotonic is the interpreter's (the run elsewhere's sped-up clocks are Python functions)` },
  { id: "h01", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "a 0.1 ms time.sleep a call (the interpreter's sleep, where libfaketime moves the clock)" },
];
