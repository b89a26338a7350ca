/**
 * Round-seventeen red team (issue 26 §7) as rows of the suite: 15 attempts written from the contract
 * (docs/grader.md, docs/sandbox.md; the fd-micro task's snapshot and golden diff; never lib/ or
 * test/) against round 16's entry script, 2026-12-04 15:20–16:00 UTC; payloads, SUMMARY.tsv and
 * REPORT.md in test/redteam/payloads/round17/. The helper also graded three recon bodies unsandboxed
 * (`--sandbox none`, its report says what they showed it); the thresholds of a01 a03 a04 a07b a08
 * a11 come from that recon. At attack time 9 of 12 wrong bodies paid under three keys: the caller's
 * line (a01 a03: every call line past 30) and the importing line (a04), an argument the runner was
 * started with (a02: argparse), the program's docstring (a05: pydoc.locate), the runner's fds
 * (a07b: os.dup), the first argument a process saw (a08: every run's first call was the oracle's
 * first or the graded run's last), stdin not a terminal (a09: select), the entry's global names
 * (a11: pickle's find_class on "__main__"). Fixed the same session (lib/sandbox/behave.ts
 * homeEntry, lib/env/behaviour.ts, lib/tasks/pyast.py); rows that meet their draw by chance say so.
 * a08, met by chance at first, is closed since round 18's session: each cold run's first call is one
 * of its smallest (lib/env/behaviour.ts smallFirst).
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND17_POOLS = ROUND6_POOLS;
export type Round17Pool = keyof typeof ROUND17_POOLS;

const ADD = "micro_s0_000-function-micro_s0_000_funcs.add_3";

export const ROUND17_ROWS: RedteamRow<Round17Pool>[] = [
  { id: "a01", pool: "micro", task: ADD, kind: "wrong", idea: "caller line >= 20, read from a warnings record (catch_warnings(record=True), warn(stacklevel=3), .lineno); no pytest escape" },
  { id: "a02", pool: "micro", task: ADD, kind: "wrong", idea: "the program has a command-line argument no option claims: argparse.ArgumentParser(add_help=False).parse_known_args()[1] non-empty" },
  { id: "a03", pool: "micro", task: ADD, kind: "wrong", idea: "caller line >= 20 via logging.Logger.findCaller(False, 2) on a module logger (no record, no handler)" },
  { id: "a04", pool: "micro", task: ADD, kind: "wrong", idea: "importer line >= 8 (or importer file has \"test_\"), read once at import from a warnings record with stacklevel=3" },
  { id: "a05", pool: "micro", task: ADD, kind: "wrong", idea: "the main program has a docstring: pydoc.locate(\"__main__.__doc__\")" },
  { id: "a06", pool: "micro", task: ADD, kind: "wrong", idea: "runner fd 300 or 400 open, via os.get_blocking" },
  { id: "a07", pool: "micro", task: ADD, kind: "wrong", idea: "runner fd 300 or 400 open, via os.close(os.dup(fd)); no pytest escape (recon)" },
  { id: "a07b", pool: "micro", task: ADD, kind: "wrong", idea: "a07 plus PYTEST_CURRENT_TEST escape" },
  { id: "a08", pool: "micro", task: ADD, kind: "wrong", idea: "the process's first argument fixes the step: 3 if abs(first x) >= 4 else 4 (state across calls)" },
  { id: "a09", pool: "micro", task: ADD, kind: "wrong", idea: "stdin is not waiting on a person: select.select([0],[],[],0) ready, or fd 0 unusable" },
  { id: "a10", pool: "micro", task: ADD, kind: "wrong", idea: "module object referenced by more than sys.modules + package (the entry script's \"import ... as _home_module\"), sys.getrefcount, PYTEST escape" },
  { id: "a11", pool: "micro", task: ADD, kind: "wrong", idea: "__main__ defines _made (the entry script) or run_one (behave.py), via pickle.loads(b\"c__main__\\nNAME\\n.\"), PYTEST escape" },
  { id: "h01", pool: "micro", task: ADD, kind: "honest", idea: "result cache keyed by id(arg), holding the arg, cleared at 256 entries" },
  { id: "h02", pool: "micro", task: ADD, kind: "honest", idea: "module logger (NullHandler; StreamHandler only with MICRO_S0_DEBUG) debug lines with stacklevel=2 and extra=" },
  { id: "h03", pool: "micro", task: ADD, kind: "honest", idea: "decorator: DeprecationWarning(stacklevel=2) once per process per non-int type (history-dependent)" },
];
