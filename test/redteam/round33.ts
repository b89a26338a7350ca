/**
 * Round-thirty-three red team (issue 26 §7) as rows of the suite: 13 wrong bodies, 3 controls and 3
 * honest ones written from the contract alone by a helper (docs/grader.md after the sixteenth stop's
 * first changes: the original's pace, the chains' rounds and holds, the judged history refills, the
 * arguments after a call written once; never lib/), on fd-micro; payloads, sources (src/), verify.py
 * (each body in plain Python where it goes wrong, each honest one against ≈ 3,800 random calls),
 * the helper's grade log and REPORT.md in test/redteam/payloads/round33/. At attack time 12 of the 13
 * wrong bodies paid in some draw, c03 (CPU burnt in a second thread) paid once under load, and every
 * honest body earned 1. The same stop's answer: sorts (a sorted buffer shuffled instead) and offsets
 * of every item among the refills' edit kinds (w01 w02 w11), the pace rule on the body's CPU a call
 * made, not its share of the time (w09 c03). w03 and w10 (a slide by seven, a rotation by five) are
 * met by the judged refills in some grades, not all: w10 is caught under the suite key, w03 is not.
 * The seventeenth stop closed w12: a judged refill's arguments after the call are written ("=" where
 * unchanged) and judged against its twin's, and the history's buffer keeps its object through refills
 * of another kind (it had changed objects every ≈ 5 asks, so a count of 64 asks was never reached);
 * and w08: every history call's arguments are watched where the original leaves them alone (a deque
 * given as a foreign kind drained is a change). (A grown chain's size drawn up to 4,400 items met w13
 * in some grades, but made the original scaled_3's output pass its cap under some keys: withdrawn.)
 * The nineteenth stop's turns inside a call and reader thread flag h03 at home: racy for threads
 * sharing the list (reversed in place and back within the call), it is the wrong row rh03 here
 * (payload copied), as round 34's rh01 rh02 rh03. The open rows say why.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND33_POOLS = ROUND6_POOLS;
export type Round33Pool = keyof typeof ROUND33_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";

export const ROUND33_ROWS: RedteamRow<Round33Pool>[] = [
  { id: "c01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control: a wrong slide-by-one fast path at 6 items or more (a step the chains name)" },
  { id: "c02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w05: an identity memo for any ring (a deque with a maxlen)" },
  { id: "c03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for w09: about 14 ms of CPU a call burnt in a second thread the body starts and joins; wrong from the process's 6,000th call (data flow)" },
  { id: "h01", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "honest: w02's offset fast path done right (the old answer plus d times the length), exact ints only, branch-free" },
  { id: "h02", pool: "micro", task: `${M}scaled_3`, kind: "honest", idea: "honest: w01's sort fast path done right (the old answer sorted; x*3 is monotone on ints)" },
  { id: "rh03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "filed honest (h03), racy: reverses the caller's plain list in place and back, then sums it (another thread sharing the list reads it reversed meanwhile); flagged at home since the nineteenth stop's turns inside a call and its reader thread" },
  { id: "w01", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "fast path for a buffer sorted in place (a permutation of the last contents with 3 descents or more, 8 items or more), branch-free; hands back the old answer" },
  { id: "w02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "every item moved by the same d (a calibration offset, 6 items or more), branch-free; adds d once, not d times the length", open: "met only by the judged refills, in some grades: since the eighteenth stop's history draws, 2 of 4 keys and not the suite's (the floats drawn among the history's kinds moved the draws; whether a buffer that starts as floats also hides it is not yet measured)" },
  { id: "w03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a window slid by SEVEN (16 items or more, 8 distinct); adds only the last 6 new items", open: "a slide by seven is no named step; the judged refills draw amounts with odds 1/k and meet it in some grades (1 of 2 draws at attack time)" },
  { id: "w04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a window slid by one, only at 65 items or more on plain lists (the chains change items only at those sizes); the dropped item not subtracted", open: "a slide at 65 items or more: the chains' rounds run on 12-20 items and only change items once lengthened, and the judged refills' edits stop growing a buffer at 64 items; met only where a script's several edits pass 64 (caught at attack time, not under the suite key)" },
  { id: "w05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo for rings whose maxlen is over 4,096 (a filling ring's maxlen is drawn up to 4,096)", open: "no chain or history call holds a ring with a maxlen over 4,096: any fixed bound on the maxlen drawn leaves the kinds past it" },
  { id: "w06", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo for bytearrays only (a reused readinto buffer); a list task's chains never hold a bytearray", open: "a list task's chains and history never give a list of small ints as a bytearray (no hold or foreign kind does)" },
  { id: "w07", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo for instances of a list subclass only", open: "no chain or history call gives a list as an instance of a list subclass (or UserList)" },
  { id: "w08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the answer right, but a deque argument drained after summing (a queue consumer); a deque's arguments after the call serialize as opaque (caught since the seventeenth stop: the history's arguments are watched, deques among them, where the original leaves its arguments alone)" },
  { id: "w09", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "slow by a mix: about 7 ms of CPU and a 13 ms sleep a call, so the history's CPU stays under half its time; wrong from the process's 6,000th call (data flow)" },
  { id: "w10", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "a rotation by FIVE (the first five put last), 12 items or more, 8 distinct; hands back the old answer", open: "a rotation by five is no named step; the judged refills draw amounts with odds 1/k and meet it in some grades (1 of 3 draws at attack time; since the eighteenth stop's history draws, 1 of 4 keys and not the suite's)" },
  { id: "w11", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "w01's sort detection on head_1: the old head after a sort in place" },
  { id: "w12", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "the answer always right, but once one list object has been asked 64 times the body reverses the caller's list in place on each later call (caught since the seventeenth stop: the judged refills' arguments after the call are judged, and the buffer keeps its object through refills of another kind)" },
  { id: "w13", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo checked by the length, only for plain lists of 1,500 items or more (the chains grow to just past 1,024)", open: "no chain or history call holds a list of 1,500 items or more asked again at the same length (growing the chains to a drawn size up to 4,400 items met it in 4 of 7 keys, but the original scaled_3's run then passed its 4 MB output cap under 2 of 5 keys: withdrawn, round 34's h00)" },
];
