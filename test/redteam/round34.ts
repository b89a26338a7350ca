/**
 * Round-thirty-four red team (issue 26 §7) as rows of the suite: 10 wrong bodies, 2 controls, 3
 * honest attack bodies and 4 honest controls (the originals), written from the contract alone by a
 * helper (docs/grader.md after the seventeenth stop's watch of the history's arguments, kept buffer
 * and judged arguments after a call; never lib/), on fd-micro; payloads, sources (src/), verify.py
 * (each wrong body's witness in plain Python, each honest one against 3,000 random callers), the
 * helper's grade log and REPORT.md in test/redteam/payloads/round34/. At attack time 7 wrong bodies
 * paid under every key and w09 under 1 of 3; h01 h02 (in-place work undone exactly, equal ints as new
 * objects) were flagged by the watch's identity rule, and the original scaled_3 passed its output cap
 * under 2 of 5 keys (the grown chains' drawn size): both fixed the same stop (c52d309). The
 * eighteenth stop closed w01 w08 w10 (a watched call's objects held and checked again after later
 * calls), w03 w04 (the run elsewhere's main-loop calls watched) and w07 (aliasing judged against
 * the original's own answers), and w09 under every key tried (a chain sized to a drawn 65-1,100
 * items). The nineteenth stop's turns inside a call (a burst's threads yield at the changed
 * files' lines) and its reader thread flag h01 h02 h03 at home: racy for threads sharing the list,
 * they are wrong rows rh01 rh02 rh03 here (payloads copied), as round 36's rh09 rh14. The open rows say why.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND34_POOLS = ROUND6_POOLS;
export type Round34Pool = keyof typeof ROUND34_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";

/** Filed honest, wrong by the bursts' contract: their payloads are copies of the helper's h01 h02. */
const RACY_IN_CALL = "racy (the caller's list changed in place and put back within the call: another thread sharing the list reads it meanwhile; the bursts share it where the original leaves it alone, and take turns inside the call since the nineteenth stop)";

export const ROUND34_ROWS: RedteamRow<Round34Pool>[] = [
  { id: "c01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control: the answer right, the caller's list reversed in place at every call (a change within the call)" },
  { id: "c02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control: round 33's w12 as it was (the caller's list reversed once one list object has been asked 64 times)" },
  { id: "h00", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest control: the original scaled_3 (its run elsewhere passed the 4 MB output cap under 2 of 5 keys at attack time)" },
  { id: "h00v", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest control: the original scaled_3 with a comment line (other draws)" },
  { id: "h0t", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest control: the original total_3" },
  { id: "h0h", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "honest control: the original head_1" },
  { id: "rh01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: `filed honest (h01), ${RACY_IN_CALL}: prefix sums written into the caller's list of exact ints and undone exactly` },
  { id: "rh02", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: `filed honest (h02), ${RACY_IN_CALL}: the caller's list of exact ints scaled by 3 in place, copied, then //= 3 back exactly` },
  { id: "rh03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: `filed honest (h03), ${RACY_IN_CALL}: the caller's list sorted in place, then the same item objects put back from a saved copy (met by a burst's reader thread)` },
  { id: "w01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the answer right, the caller's PREVIOUS list sorted in place at the next call (a change made at a later call) (caught since the eighteenth stop: a watched call's objects are held and checked again at a drawn later call and at the run's end, the buffer's before each refill)" },
  { id: "w02", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "the caller's previous list reversed at the next call, ungated (the run at home asks a reused object again)" },
  { id: "w03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a ring (a deque with a maxlen) drained after it is summed (caught since the eighteenth stop: the run elsewhere's main-loop calls, chains and kin asks among them, are watched as the history's)" },
  { id: "w04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a deque drained the second time the same object is given (a queue re-submitted; caught since the eighteenth stop: a chain's deque is watched while its calls run)" },
  { id: "w05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "round 33's w12 with 2,100 asks of one list object before it reverses the caller's list", open: "the history's buffer is asked about 2,000 times in a grade: a count past it is past the history (no call of the grader's asks one object more often)" },
  { id: "w06", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "one shared module output list handed back at every call (an earlier answer changes at the next call)" },
  { id: "w07", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "the caller's own list handed back where it has at most one item (aliasing; caught since the eighteenth stop: a graded call whose answer shares a list with its arguments where the original's answer to the same call shares none)" },
  { id: "w08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w01 with a clear: from the process's 1,000th call, the caller's previous list emptied at the next call (caught since the eighteenth stop, as w01)" },
  { id: "w09", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo checked by the length for plain lists of 65–1,000 items (the judged refills stop at 64, the chains jump past 1,100); caught under the suite key by an in-place pair, paid under 1 of 3 keys at attack time; since the eighteenth stop every cheap plain-list chain is also sized to a drawn 65-1,100 items and changed there: caught under 7 of 7 keys" },
  { id: "w10", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "w02 gated from the process's 1,000th call: the caller's previous list reversed at the next call (caught since the eighteenth stop, as w01)" },
];
