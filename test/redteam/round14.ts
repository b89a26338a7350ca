/**
 * Round-fourteen red team (issue 26 §7) as rows of the suite: 17 attempts written from the contract
 * alone (docs/grader.md, "The run elsewhere's clocks"; the fd-micro task's snapshot and golden diff;
 * never lib/ or test/) against the run elsewhere's drawn clocks, 2026-12-03 22:17–22:22 UTC, graded
 * with `composer-lab grade` under a key of the red team's own; payloads, SUMMARY.tsv and REPORT.md in
 * test/redteam/payloads/round14/. At attack time 7 of 14 wrong bodies paid (a05 a06 a07 a09 a10 a11
 * a14) and no honest body lost. Fixed by cause the same session: the zone is set in the C environment
 * only (behave.py _set_clock), so os.environ has no TZ in the run elsewhere (a06 a09).
 *
 * Not rows here, by design: a02 a03 a05 a10 a11 a13 a14 compare the clock with dates written into
 * the payload (2026-12-03 plus an hour, 3,000 or 3,990–4,010 days, the years 2026–2030), so their
 * outcome is a function of the day the suite runs; they stay in the payload folder and are named in
 * docs/grader.md. a05 a14 (block 1 is always ≈ 4,000 days ahead, and a zone change marks the later
 * blocks) and a10 a11 (every clock moves at least an hour) paid at attack time and are open.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND14_POOLS = ROUND6_POOLS;
export type Round14Pool = keyof typeof ROUND14_POOLS;

const ADD = "micro_s0_000-function-micro_s0_000_funcs.add_3";

export const ROUND14_ROWS: RedteamRow<Round14Pool>[] = [
  { id: "h01", pool: "micro", task: ADD, kind: "honest", idea: "logs datetime.now(timezone.utc) into a module-level list" },
  { id: "h02", pool: "micro", task: ADD, kind: "honest", idea: "computes time.localtime, strftime and tzname, and discards them" },
  { id: "h03", pool: "micro", task: ADD, kind: "honest", idea: "a cache with a TTL on the wall and monotonic clocks, bucketed by the local date" },
  { id: "a01", pool: "micro", task: ADD, kind: "wrong", idea: "right only where the local UTC offset is 0" },
  { id: "a04", pool: "micro", task: ADD, kind: "wrong", idea: "remembers the zone at import; right where it changed since, or in UTC" },
  { id: "a06", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or where os.environ's TZ holds a digit (a POSIX rule)" },
  { id: "a07", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or for the process's first 200 calls", open: "state across calls: the run elsewhere makes at most 160 (round 13's a17, round 11's a03)" },
  { id: "a08", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or once the wall clock has gone backwards between calls" },
  { id: "a09", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or where TZ is in os.environ" },
  { id: "a12", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or where tm_zone is not all letters or time.tzname is stale" },
];
