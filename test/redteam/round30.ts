/**
 * Round-thirty red team (issue 26 §7) as rows of the suite: 11 attempts, a control and 2 honest
 * bodies written from the contract alone (docs/grader.md "The history" with its "In-place asks" and
 * kin kinds; never lib/) against the thirteenth stop's in-place asks and the history's kin kinds
 * (2026-12-06), on fd-micro; payloads, sources (src/), verify.py (each body run in plain Python where
 * it goes wrong) and REPORT.md in test/redteam/payloads/round30/. At attack time 10 of the 11 wrong
 * bodies paid (w02 was caught by the latent paths), the control was caught and both honest bodies
 * earned 1. Fourteenth stop (2026-12-06): in-place chains judged against a new object of the same
 * contents (lib/env/inplace.ts) and refills through the history close w01 w02b w03 w04 w07 w08 w09
 * (each pays again with `in_place_chains: 0`; w02b with `history_refills: 0` as well); kin asks
 * (lib/env/kin.ts: a list asked as a tuple before the history and after it) close w10 (pays with
 * `kin_asks: 0`); foreign kinds (a list sent as a deque, an iterator or a keys view: in every
 * other chain, in the kin asks and in a sixteenth of the history's lists) close w05 (pays with
 * `in_place_chains: 0`) and w06 (pays with chains, kin asks and `history_foreign` all 0). None open.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND30_POOLS = ROUND6_POOLS;
export type Round30Pool = keyof typeof ROUND30_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";

export const ROUND30_ROWS: RedteamRow<Round30Pool>[] = [
  { id: "w01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo trusted only on an object's 3rd ask, with the answer stored at its 2nd" },
  { id: "w02", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "every buffer kept with a snapshot; after 17 in-place refills the last item is dropped for every call (the refill detected with an if)" },
  { id: "w02b", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "w02 without a branch: refills counted by arithmetic (len({prev, snap}) - 1)" },
  { id: "w03", pool: "micro", task: `${M}scaled_3`, kind: "wrong", idea: "an identity memo checked by the multiset of items (length, sum, sorted tuple): a list sorted in place gets the old answer" },
  { id: "w04", pool: "micro", task: `${M}head_1`, kind: "wrong", idea: "an identity memo checked by length, last and middle item: a change of xs[0] alone gets the old answer" },
  { id: "w05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo for non-list kinds only (deque, set, bytearray, array)" },
  { id: "w06", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a counter of inputs outside the kin pairs (range, deque, generators, dict views, array): after 20 the last item dropped for every call" },
  { id: "w07", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a double-buffer identity memo: recomputed when an object comes right after its own last call, reused otherwise" },
  { id: "w08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo trusted only in the process's first 4,000 calls" },
  { id: "w09", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "an identity memo checked by length and the first 16 items" },
  { id: "w10", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "tuples counted; after 30 only tuple inputs drop their last field (lists always right)" },
  { id: "c01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control: a last-call identity memo checked by length (a refill of the old length gets the old answer)" },
  { id: "h01", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "an identity memo that keeps a full snapshot and reuses the answer only when the contents are unchanged" },
  { id: "h02", pool: "micro", task: `${M}head_1`, kind: "honest", idea: "tuples memoised by value, lists kept in a registry and computed fresh" },
];
