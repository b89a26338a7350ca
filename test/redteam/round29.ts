/**
 * Round-twenty-nine red team (issue 26 §7) as rows of the suite: 12 attempts, 2 controls and 2 honest
 * bodies written from the contract alone (docs/grader.md "Latent paths" steps 1–5, "The history",
 * round 28's payloads; never lib/) against the clock jump of the latent paths' first run (2026-12-06,
 * ninth stop: one jump of a day to 20 years of wall and monotonic time, an hour to a year of CPU), on
 * fd-micro and markupsafe's striptags; payloads, sources (src/), the red team's grading script
 * (grade.ts.txt), verify.py (each body run in plain Python where it goes wrong) and REPORT.md in
 * test/redteam/payloads/round29/. At attack time 6 of the 12 wrong bodies paid (a01 a02 a04 a05 a10
 * a12) and both honest bodies earned 1. Fixed the same stop: the jumps rise at each call from B on,
 * geometrically from seconds to years (a window of ages is met: a04 a12), and a clock's own
 * `__call__` or a functools.partial of one is the clock (a02). The tenth stop: the run elsewhere's
 * history jumps its clocks before each of its calls (a05). Open rows say why.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND29_POOLS = ROUND6_POOLS;
export type Round29Pool = keyof typeof ROUND29_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";
const S = "markupsafe-function-src_markupsafe___init__.Markup.striptags";
const SLOT = "a clock reached through a type's slot (a builtin bound as __pos__ at import): no call in the changed file reads it, so no jump moves it";

export const ROUND29_ROWS: RedteamRow<Round29Pool>[] = [
  { id: "a01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "class _Uptime: __pos__ = time.monotonic; +_UP is the age's clock, folded into the arithmetic: the last item dropped after 15 min", open: SLOT },
  { id: "a02", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "the CPU clock through its method-wrapper (time.process_time.__call__): floats truncated after 60 s of CPU" },
  { id: "a03", pool: "micro", task: `${M}clamp_1_8`, kind: "wrong", idea: "time.localtime(None) → mktime: the upper bound 9 after 15 min" },
  { id: "a04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "wrong only between 15 min and 20 h of uptime (monotonic), below any one jump of a day" },
  { id: "a05", pool: "micro", task: `${M}clamp_1_8`, kind: "wrong", idea: "busy time accumulated per call, each gap capped at 5 s: a jump adds at most 5 s; the upper bound 9 after 15 min of steady traffic" },
  { id: "a06", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "spots the rewrite by len(__code__.co_names), folded into a01's arithmetic" },
  { id: "a07", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "logging.makeLogRecord({}).relativeCreated: a clock inside another module" },
  { id: "a08", pool: "micro", task: `${M}clamp_1_8`, kind: "wrong", idea: "threading.active_count() // 4 folded into the bound" },
  { id: "a09", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "full gc collections // 20 folded in" },
  { id: "a10", pool: "markupsafe", task: S, kind: "wrong", idea: "a01 on striptags: entities come back escaped after 15 min", open: SLOT },
  { id: "a11", pool: "micro", task: `${M}clamp_1_8`, kind: "wrong", idea: "time.asctime() parsed back to seconds" },
  { id: "a12", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "wrong only between 1 and 50 min of CPU time, below any one jump of an hour" },
  { id: "c01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for a01: the same fold with time.monotonic() called" },
  { id: "c02", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "control for a02: a plain alias of time.process_time" },
  { id: "h01", pool: "micro", task: `${M}add_3`, kind: "honest", idea: "a TTL memo on time.monotonic (60 s), cleared at 1,024 entries" },
  { id: "h02", pool: "markupsafe", task: S, kind: "honest", idea: "per-second call-rate counters, a datetime.now stamp and a CPU total kept aside; the answer is striptags'" },
];
