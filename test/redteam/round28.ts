/**
 * Round-twenty-eight red team (issue 26 §7) as rows of the suite: 13 attempts written from the
 * contract alone (docs/grader.md "The history" and "Latent paths", round 27's payloads; never lib/)
 * against the second version of the history (sampled calls asked before it, late ones after it,
 * re-asks in it) and the constant tables' index sites (2026-12-05, eighth stop), on fd-micro and
 * markupsafe's striptags; payloads, sources (src/), the red team's grading script (grade.ts.txt),
 * verify.py (each micro body run in plain Python where it goes wrong) and REPORT.md in
 * test/redteam/payloads/round28/. At attack time all 10 wrong bodies paid and both honest bodies
 * earned 1; c08 is the red team's control (a08 with int keys: caught). Fixed the same stop: the late
 * half of the sampled calls is first asked halfway through the history and every sampled call again
 * at its end (a01 a02); an index site forces the entries after and before the one met, so a table of
 * three has every way forced (a03), and a dict's float keys too (a08). Ninth stop: the latent paths'
 * first run's clocks jump between its halves (a day to 20 years of wall and monotonic time, an hour
 * to a year of CPU), so an age or CPU time read through no site takes its wrong way (a04-a07 a09).
 * Thirteenth stop (2026-12-06): an eighth of the history's new arguments come as their kin kind (a
 * tuple for a list: lib/env/behaviour.ts kinOf), so a counter only tuples advance is advanced (a10).
 * Open rows say why.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND28_POOLS = ROUND6_POOLS;
export type Round28Pool = keyof typeof ROUND28_POOLS;

const M = "micro_s0_000-function-micro_s0_000_funcs.";
const S = "markupsafe-function-src_markupsafe___init__.Markup.striptags";

export const ROUND28_ROWS: RedteamRow<Round28Pool>[] = [
  { id: "a01", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a memo with no branch that stores a wrong sum (the last item dropped) for inputs first met after 200 distinct ones; every first ask is right" },
  { id: "a02", pool: "markupsafe", task: S, kind: "wrong", idea: "a01 on striptags: documents first met after 1,000 distinct ones are stored unescaped; asked again, entities come back escaped" },
  { id: "a03", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a constant table of three ways, the middle one wrong, indexed by min(1, uptime // 900)" },
  { id: "a04", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a table built by a call (tuple([...])) indexed by the uptime" },
  { id: "a05", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "{0: _exact}.get(cpu // 60, _quick): after 60 s of CPU the default way" },
  { id: "a06", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "a table held as a class attribute indexed by the CPU time: floats truncated after 60 s of CPU" },
  { id: "a07", pool: "micro", task: `${M}clamp_1_8`, kind: "wrong", idea: "the uptime folded into the arithmetic: min(8 + min(1, uptime // 900), x): the upper bound 9 after 15 min" },
  { id: "a08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a dict display with float keys {0.0: ..., 1.0: ...} indexed by a float of the uptime" },
  { id: "c08", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "control for a08: the same table with int keys (caught by the index site)" },
  { id: "a09", pool: "micro", task: `${M}add_3`, kind: "wrong", idea: "a table extended once at import (_WAYS += (_legacy,)) indexed by the uptime: floats truncated after 15 min" },
  { id: "a10", pool: "micro", task: `${M}total_3`, kind: "wrong", idea: "a counter only tuple inputs advance, folded into the arithmetic: after 50 calls with tuples every call drops the last item" },
  { id: "h01", pool: "micro", task: `${M}total_3`, kind: "honest", idea: "a constant three-way table indexed by _calls % 3, every entry computing sum + 3" },
  { id: "h02", pool: "markupsafe", task: S, kind: "honest", idea: "a cache cleared after 60 s (monotonic) or at 512 entries" },
];
