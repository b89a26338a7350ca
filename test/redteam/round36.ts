/**
 * Round-thirty-six red team (issue 26 §7) as rows of the suite: wrong bodies, probes and honest ones
 * written from the contract alone by a helper (docs/grader.md after the eighteenth stop's answers to
 * round 35: the watch after the call with nested records, aliasing across calls; never lib/), on
 * fd-micro, aimed first at false flags; payloads, sources (src/), verify.py (witnesses; 3,000
 * random callers for each honest body, and 4 threads sharing one list for the racy ones), the
 * helper's grade log and REPORT.md in test/redteam/payloads/round36/. At attack time (e6ffc3d) no
 * honest body was flagged; bodies that sort the caller's list in place with a Python key were
 * flagged at home, and verify.py shows them racy under threads sharing the list (wrong by the
 * contract's bursts: here they are wrong rows rh09 … rh19, their payloads copies of h09 … h19). 15 of 24 wrong bodies paid. The same stop's
 * answer: aliasing meets an earlier call's argument items and answer items (w02b w05 w06 w06b
 * w06c), and the watch holds a plain function's new answer (w17). The nineteenth stop's: a burst's
 * threads take turns at every line and C call of the changed files (w20 rh09 rh14), and the watch
 * records a plain function's answer's nested containers but those its arguments reach (w11 w12).
 * Those turns and a burst's reader thread flag h01 h08 h17 (the caller's list or deque changed and
 * put back within the call: racy for threads sharing it): here wrong rows rh01 rh08 rh17, their
 * payloads copied.
 * The open rows say why.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND36_POOLS = ROUND6_POOLS;
export type Round36Pool = keyof typeof ROUND36_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";
const KINDS = "answers or changes only on values no judged or watched call holds here (float zeros, an int and a float that collide in a memo, an answer of 0 or 1): judged calls come from the oracle's kinds, and kin truths keep a variant only where the original answers it as the call itself";
const RACY = "racy in-place sort of the caller's list with a Python key (another thread sharing the list sees it empty: verify.py), caught at home";

export const ROUND36_ROWS: RedteamRow<Round36Pool>[] = [
  { id: "rh01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "filed honest (h01), racy: the caller's list sorted in place by a C key (empty to other threads while it sorts) and the same objects put back; met by a burst's reader thread since the nineteenth stop" },
  { id: "rh17", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "filed honest (h17), racy: a sentinel appended to the caller's list around a helper call and popped; met by a burst's reader thread since the nineteenth stop" },
  { id: "rh08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "filed honest (h08), racy: a deque scanned by rotating it a step at a time and back (two threads sharing it each skip the items the other rotated past), a list by a sentinel appended and popped; flagged at home since the nineteenth stop's turns inside a call and its reader thread" },
  { id: "c02b", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "probe for w02b: wrong (99 appended) where w02b would hand out another caller's row" },
  { id: "c06b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "probe for w06b: wrong (99 appended) where w06b would share memo rows between callers" },
  { id: "c14", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "probe for w14: wrong where the list holds a float zero", open: KINDS },
  { id: "c15", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "probe for w15: wrong (+1000) where the answer is 0 or 1", open: KINDS },
  { id: "c17", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "probe for w17: wrong from the process's 3,000th call" },
  { id: "c18", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "probe for w18: wrong where a row holds a float", open: KINDS },
  ...(["h06", "h13", "h15d", "h17b", "h0t"] as const).map((id) => ({ id, pool: "micro" as const, task: `${M}total_3`, kind: "honest" as const, idea: `honest (round 36 ${id}: REPORT.md)` })),
  ...(["h02", "h04", "h07", "h10", "h11", "h0s"] as const).map((id) => ({ id, pool: "micro" as const, task: `${M}scaled_3`, kind: "honest" as const, idea: `honest (round 36 ${id}: REPORT.md)` })),
  ...(["h03", "h05", "h12", "h0h"] as const).map((id) => ({ id, pool: "micro" as const, task: `${M}head_1`, kind: "honest" as const, idea: `honest (round 36 ${id}: REPORT.md)` })),
  { id: "rh09", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "filed honest, racy: the caller's list reversed in place and back within the call" },
  { id: "rh14", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "filed honest, racy: no-op writes to the previous caller's list at the next call" },
  ...(["rh15", "rh15b", "rh15c", "rh15e", "rh16", "rh16b", "rh16c"] as const).map((id) => ({ id, pool: "micro" as const, task: `${M}total_3`, kind: "wrong" as const, idea: `filed honest: ${RACY}` })),
  { id: "rh18", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `filed honest: ${RACY}` },
  { id: "rh19", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: `filed honest: ${RACY}` },
  { id: "w01", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "the previous top-level answer emptied at the next call" },
  { id: "w01h", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "99 appended to the previous top-level answer at the next call" },
  { id: "w02", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "an earlier caller's row handed out inside the answer, unchecked" },
  { id: "w02b", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "an earlier caller's row handed out inside the answer where it still equals this caller's (caught since the same stop: aliasing meets earlier calls' argument items)" },
  { id: "w03", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a list subclass with an empty __iter__ and __len__ as the answer" },
  { id: "w04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an int subclass whose + is off by one as the answer" },
  { id: "w05", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "a memoised copy of the first row inside the answer, shared by callers with an equal head (caught since the same stop)" },
  { id: "w06", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a memo's inner rows inside each new answer list (caught since the same stop)" },
  { id: "w06b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "w06 checked at return (caught since the same stop)" },
  { id: "w06c", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a memo keyed by (type, repr) per item where a row is hashable by mistake (caught since the same stop)" },
  { id: "w07", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the dict behind a keys view emptied through gc.get_referents" },
  { id: "w07s", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w07 another way through gc" },
  { id: "w08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "kept lists reversed at exit (atexit)" },
  { id: "w09", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "a value memo where 1 == 1.0 and 0.0 == -0.0 share a key", open: KINDS },
  { id: "w10", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "w09 on scaled_3", open: KINDS },
  { id: "w11", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "the answer's row (a copy) kept and 99 appended to it at the next call" },
  { id: "w12", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "the answer's inner rows kept and emptied at the next call" },
  { id: "w13", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a module object's __del__ reverses every kept list at interpreter teardown", open: "after the run's end check, at teardown (the run elsewhere ends by os._exit: nothing of the package's runs after its end line; a caller in the same process sees no call after it)" },
  { id: "w14", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "float zeros' sign flipped in the answer", open: KINDS },
  { id: "w15", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "True for an answer of 1", open: KINDS },
  { id: "w15b", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "False for an answer item of 0 (a bool for an int is judged)" },
  { id: "w17", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "from the process's 3,000th call, the previous answer list emptied at the next call (caught since the same stop: a plain function's new answer is held by the watch)" },
  { id: "w18", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "float zeros' sign flipped inside the caller's rows", open: KINDS },
  { id: "w20", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "the caller's list reversed in place, scaled with a C map, reversed back" },
];
