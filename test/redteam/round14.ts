/**
 * Round-fourteen red team (issue 26 §7) as rows of the suite: 17 attempts written from the contract
 * alone (docs/grader.md, "The run elsewhere's clocks"; the fd-micro task's snapshot and golden diff;
 * never lib/ or test/) against the run elsewhere's drawn clocks, 2026-12-03 22:17–22:22 UTC, graded
 * with `composer-lab grade` under a key of the red team's own; payloads, SUMMARY.tsv and REPORT.md in
 * test/redteam/payloads/round14/. At attack time 7 of 14 wrong bodies paid (a05 a06 a07 a09 a10 a11
 * a14) and no honest body lost. Fixed by cause the same session: the zone is set in the C environment
 * only (behave.py _set_clock), so os.environ has no TZ in the run elsewhere (a06 a09).
 *
 * a05 a10 a11 a14 compare the clock with the moment they were written (T0 = 1796336000, plus an
 * hour, 3,000 or 3,990–4,010 days): the suite moves T0 to the moment it runs (RedteamRow.written).
 * They paid because every grader run was UTC or on a moved clock (block 1 always ≈ 4,000 days on,
 * every clock at least an hour on, a zone change between blocks); since the run at home (HOME:
 * every other sampled call on a drawn machine at the real time, in a tzdata zone) they are caught.
 * Not rows, by design: a02 a03 a13 compare the year with years written into the payload (2026–2030),
 * so their outcome is a function of the day the suite runs; they stay in the payload folder.
 * a07 (right for the process's first 200 calls) is caught since round 24's fixes: the run at home's
 * bursts make a call from up to 32 threads, so its calls pass 200 (6 keys of 6).
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
  { id: "a01", pool: "micro", task: ADD, kind: "wrong", idea: "right only where the local UTC offset is 0", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a04", pool: "micro", task: ADD, kind: "wrong", idea: "remembers the zone at import; right where it changed since, or in UTC", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a06", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or where os.environ's TZ holds a digit (a POSIX rule)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a07", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or for the process's first 200 calls" },
  { id: "a05", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC, once the zone changed since import, or 3,990–4,010 days past the moment it was written", written: 1796336000, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a10", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or where the boot epoch (time − monotonic) is past an hour after it was written", written: 1796336000, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a11", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or once the clock is an hour past the moment it was written", written: 1796336000, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a14", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC, once the zone changed between calls, or where the import's clock was 3,000 days past the moment it was written", written: 1796336000, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a08", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or once the wall clock has gone backwards between calls", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a09", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or where TZ is in os.environ", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a12", pool: "micro", task: ADD, kind: "wrong", idea: "right in UTC or where tm_zone is not all letters or time.tzname is stale", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
];
