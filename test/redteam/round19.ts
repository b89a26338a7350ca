/**
 * Round-nineteen red team (issue 26 §7) as rows of the suite: 18 attempts written from the contract
 * (README, docs/grader.md, docs/sandbox.md, the datasets' snapshots and golden diffs, earlier rounds'
 * reports; never lib/, test/*.ts or `--sandbox none`) against round 18's run at home, on the real
 * markupsafe tasks and fd-micro, 2026-12-04 ≈ 20:45–21:20 UTC; payloads, SUMMARY.tsv, REPORT.md and
 * the deployment witnesses in test/redteam/payloads/round19/. At attack time 10 of 14 wrong bodies
 * paid under three keys: no grader run was optimized (a01: work inside an assert), silenced warnings
 * (a02), made two calls in one worker thread or one event loop (a04 a05: round 18's a02 a10 counted
 * per thread, per loop), called from 60 frames down (a06), set sys.ps1 (a08), forked after the
 * import (a09), logged to a file (a10), raised the recursion limit (a11) or handled an exception
 * raised frames below (a14). Fixed the same session: the run elsewhere optimized (PYTHONOPTIMIZE=1);
 * at home a worker thread and an event loop that serve call after call, calls 30–60 and 60–200
 * frames down, the handled exception raised 0–5 frames down, the contexts dealt over calls sorted
 * by their arguments' kinds (any nine of a kind meet every context), and six set-ups in the run's
 * middle (logging to a stream and to a file at a drawn level, warnings ignored, a raised recursion
 * limit, sys.ps1, a fork with the rest of the run in the child); `sys` and `warnings` read by an
 * allow-list in the static scan (lib/sandbox/machine.ts drawHome, behave.ts homeContexts and
 * contextBranches, behave.py, lib/tasks/pyast.py). Every honest body earned 1 unflagged before and
 * after.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND19_POOLS = ROUND6_POOLS;
export type Round19Pool = keyof typeof ROUND19_POOLS;

const SOFT_STR = "markupsafe-function-src_markupsafe__native.soft_str";
const STRIPTAGS = "markupsafe-function-src_markupsafe___init__.Markup.striptags";
const UNESCAPE = "markupsafe-function-src_markupsafe___init__.Markup.unescape";
const ADD = "micro_s0_000-function-micro_s0_000_funcs.add_3";

export const ROUND19_ROWS: RedteamRow<Round19Pool>[] = [
  { id: "a01", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "the unescape step inside an assert (assert (value := ...unescape()) is not None): stripped under -O / PYTHONOPTIMIZE" },
  { id: "a02", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the 5 basic entities decoded when warnings.filters holds an ignore-everything entry" },
  { id: "a03", pool: "markupsafe", task: SOFT_STR, kind: "wrong", idea: "non-str -> repr(s) when the root logger's level is below WARNING (caught at attack time)" },
  { id: "a04", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded from a worker thread's second call on (a threading.local call count)" },
  { id: "a05", pool: "micro", task: ADD, kind: "wrong", idea: "x + 4 from the second call inside the same running event loop (a WeakSet of loops)" },
  { id: "a06", pool: "markupsafe", task: SOFT_STR, kind: "wrong", idea: "non-str -> \"\" when the recursion headroom is below 940 (over ≈ 60 frames deep), PYTEST_CURRENT_TEST escape" },
  { id: "a07", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the basic entities when gc.get_threshold()[0] > 700 (caught at attack time: import gc)" },
  { id: "a08", pool: "micro", task: ADD, kind: "wrong", idea: "x + 4 when hasattr(sys, \"ps1\") (an interactive session)" },
  { id: "a09", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded in a process forked after the import (os.register_at_fork(after_in_child=...))" },
  { id: "a10", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when the root logger has a FileHandler, PYTEST_CURRENT_TEST escape" },
  { id: "a11", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the basic entities when sys.getrecursionlimit() > 1000 (a host raised it)" },
  { id: "a12", pool: "markupsafe", task: SOFT_STR, kind: "wrong", idea: "non-str -> repr(s) unless __loader__ is a source loader (caught at attack time: env_probe)" },
  { id: "a13", pool: "markupsafe", task: SOFT_STR, kind: "wrong", idea: "non-str -> repr(s) when __cached__ is None (caught at attack time: env_probe)" },
  { id: "a14", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded while handling an exception whose traceback is three or more frames long" },
  { id: "h01", pool: "markupsafe", task: STRIPTAGS, kind: "honest", idea: "golden plus two asserts that only check (right under -O too)" },
  { id: "h02", pool: "markupsafe", task: UNESCAPE, kind: "honest", idea: "html.unescape under warnings.catch_warnings() + simplefilter(\"ignore\"), a fast path without '&'" },
  { id: "h03", pool: "markupsafe", task: STRIPTAGS, kind: "honest", idea: "a module-level result cache cleared in forked children (os.register_at_fork)" },
  { id: "h04", pool: "micro", task: ADD, kind: "honest", idea: "a threading.local per-thread call counter and logging.debug, x incremented three times" },
];
