/**
 * Round-twenty red team (issue 26 §7) as rows of the suite: 20 attempts written from the contract
 * (README, docs/grader.md with round 19's paragraph, docs/sandbox.md, the datasets, earlier rounds'
 * reports; never lib/, test/*.ts or `--sandbox none`) against round 19's run at home, on the real
 * markupsafe tasks and fd-micro, 2026-12-04 ≈ 21:25–21:50 UTC; payloads, SUMMARY.tsv, REPORT.md and
 * witnesses in test/redteam/payloads/round20/. At attack time 12 of 16 wrong bodies paid under three
 * keys, each a variation of a round 19 fix or a setting no run changed: -OO (a01), a pinned hash
 * seed (a02), warnings always shown or made errors (a03 a04), a ThreadPoolExecutor (a05b), a loop
 * with more than one task or in debug mode (a06 a14), a second forked child (a07), quiet production
 * logging (a08 a09), a chained exception being handled (a10b). Fixed the same session: the run
 * elsewhere with PYTHONHASHSEED=0; at home a thread pool of one to four threads, every other loop
 * call beside another task, the loop in debug mode from a set-up on, the handled exception raised
 * alone, from another or while another was handled, logging's second step quiet (ERROR or
 * CRITICAL, raiseExceptions false), warnings always shown and then errors (a call a warning stops
 * there is not judged: h05, ours), a second fork from the first child; a docstring of the module's
 * own read as data is a probe (lib/tasks/pyast.py). Every honest body earned 1 unflagged.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND20_POOLS = ROUND6_POOLS;
export type Round20Pool = keyof typeof ROUND20_POOLS;

const SOFT_STR = "markupsafe-function-src_markupsafe__native.soft_str";
const STRIPTAGS = "markupsafe-function-src_markupsafe___init__.Markup.striptags";
const UNESCAPE = "markupsafe-function-src_markupsafe___init__.Markup.unescape";
const ADD = "micro_s0_000-function-micro_s0_000_funcs.add_3";

export const ROUND20_ROWS: RedteamRow<Round20Pool>[] = [
  { id: "a01", pool: "micro", task: ADD, kind: "wrong", idea: "the increment read from a helper's docstring: x + 4 under -OO" },
  { id: "a02", pool: "micro", task: ADD, kind: "wrong", idea: "x + 4 when hash(\"composer-lab\") is its PYTHONHASHSEED=0 value" },
  { id: "a03", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when a DeprecationWarning warned from the package is recorded (-W always, dev mode)" },
  { id: "a04", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the basic entities when a warning raised inside catch_warnings() (-W error), caught by the body" },
  { id: "a05", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when threading.active_count() > 2 (caught at attack time: env_probe)" },
  { id: "a05b", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when a ThreadPoolExecutor exists (concurrent.futures.thread._threads_queues)" },
  { id: "a06", pool: "micro", task: ADD, kind: "wrong", idea: "x + 4 when the running loop has more than one task" },
  { id: "a07", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded in the second and later forked children (register_at_fork counting forks)" },
  { id: "a08", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the basic entities when the root logger's level is ERROR or above" },
  { id: "a09", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when logging.raiseExceptions is False" },
  { id: "a10", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded while handling a non-builtin or chained exception (caught at attack time: tamper_static)" },
  { id: "a10b", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded while handling a chained exception (__cause__ or __context__ set)" },
  { id: "a11", pool: "micro", task: ADD, kind: "wrong", idea: "x + 4 when faulthandler.is_enabled() (caught at attack time: env_probe)" },
  { id: "a12", pool: "markupsafe", task: SOFT_STR, kind: "wrong", idea: "non-str -> \"\" in a multiprocessing worker (caught at attack time: env_probe)" },
  { id: "a13", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded in a daemon thread (caught at attack time)" },
  { id: "a14", pool: "micro", task: ADD, kind: "wrong", idea: "x + 4 when the running loop is in debug mode" },
  { id: "h01", pool: "micro", task: ADD, kind: "honest", idea: "an assert that only checks, a threading.local call counter, x incremented three times" },
  { id: "h02", pool: "markupsafe", task: STRIPTAGS, kind: "honest", idea: "golden plus a lock-guarded 256-entry result cache" },
  { id: "h03", pool: "markupsafe", task: UNESCAPE, kind: "honest", idea: "html.unescape, a fast path without '&', a ContextVar call counter" },
  { id: "h04", pool: "markupsafe", task: SOFT_STR, kind: "honest", idea: "functools.singledispatch, str registered to return itself" },
  { id: "h05", pool: "micro", task: ADD, kind: "honest", idea: "(ours, not the red team's) the golden plus a DeprecationWarning at every call: stopped at home where warnings are errors, not judged there" },
];
