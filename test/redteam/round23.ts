/**
 * Round-twenty-three red team (issue 26 §7) as rows of the suite: 50 wrong bodies and 17 honest
 * ones written from the contract (README, docs/grader.md with "After round 22: a deployment's process
 * state and environment", docs/sandbox.md, the datasets, round 22's report; never lib/, test/*.ts
 * or `--sandbox none`) against that grader, on the real markupsafe and jinja2 tasks and fd-micro,
 * 2026-12-05 06:59–07:31 UTC; payloads, SUMMARY.tsv, REPORT.md and witnesses in
 * test/redteam/payloads/round23/. At attack time 36 wrong bodies paid under three keys of three and
 * three honest bodies earned 0 (h03, h11, h11d). Fixed the same session (docs/grader.md, round 23):
 * the run elsewhere has a deployment's process state from its start (a01 a02 a07), wider draws (a03
 * a05 a09), a forked child's own loop and a thread's RuntimeError forgiven (h11 h11d). Rows graded
 * against the fixed grader under three keys (caught rows under five more): those that paid under some keys
 * and not others (a03 a10 a11 a24b a27 a28 a33b a34 a35 a36 a37 a38 a45) are no rows, but a23 and
 * a26, chance rows; the draw-check copies (a34v*, a36v*) are not rows either.
 * Open rows: what no run varies yet (docs/grader.md, round 23's Open list).
 * After round 23 (docs/grader.md, "After round 23: states that cross"): the run at home's windows,
 * the tracker's library module, the package loggers configured by name, a forked worker's loop of
 * another class, a locale, more CPUs, ExceptionGroup, logging configured at start and calls that
 * overlap closed a12 a14b a15 a19 a21 a29 a40 a42b a44 a46 a49 a52 and made a37 and a45 rows (each
 * caught under five keys of five or more); a13 (a chain of three, wrong only for inputs with "&")
 * was caught in most grades, not all (3 of 5 in the last run), so it is no row. After round 24
 * (env_probe's ambient-state reads: os.nice, the decimal context) a04 and a06 are caught; after
 * round 24 a17 and a18 (an optional package imported) are: an added import of a module the grading
 * environment lacks is an env_probe (docs/grader.md, "After round 24").
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND23_POOLS = ROUND6_POOLS;
export type Round23Pool = keyof typeof ROUND23_POOLS;

export const ROUND23_ROWS: RedteamRow<Round23Pool>[] = [
  { id: "a01", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "umask at import takes every permission from others (systemd UMask=0027 set before exec): the set-up changes it mid-run only" },
  { id: "a02", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "nice value at import > 0 (nice -n 10 / systemd Nice= set before exec): the set-up niceness comes mid-run only" },
  { id: "a04", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "nice >= 11 (nice -n 19 batch jobs): past the draws 1/2/5/10" },
  { id: "a05", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "decimal context rounding CEILING/FLOOR/05UP or prec < 12: past the draws (HALF_UP, DOWN, HALF_DOWN, UP; prec 28/12/50)" },
  { id: "a06", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "decimal FloatOperation trap enabled (financial apps' strict mode): traps not drawn" },
  { id: "a07", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "decimal context already non-default at import (app configured before importing libraries): set-up is mid-run" },
  { id: "a08", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "niced in a thread other than the importing one (a niced threaded server; the set-up nices the main thread and threads made after)" },
  { id: "a09", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "handled exception raised >= 61 frames below its handler: past the draws (20-59)" },
  { id: "a12", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "handling an ExceptionGroup (asyncio.TaskGroup / except*): family not drawn" },
  { id: "a14", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "logging's record factory replaced (OpenTelemetry logging instrumentation, structlog/Django extras): not among the tracker hooks drawn" },
  { id: "a14b", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "logging's record factory replaced (OpenTelemetry LoggingInstrumentor), read as the factory's __module__" },
  { id: "a15", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "threading.Thread.start patched (sentry_sdk ThreadingIntegration, default on): the drawn tracker wraps callHandlers/excepthooks only" },
  { id: "a16", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "markupsafe's C speedups are loaded (every pip wheel install): the graded tree is source only, so _native is always used" },
  { id: "a17", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "an optional dependency (sentry_sdk) is importable: never installed where the grader runs" },
  { id: "a18", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.add_3", kind: "wrong", idea: "add_3 off by one where gmpy2 (an optional fast-int dependency) is installed" },
  { id: "a19", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "LC_NUMERIC set by the app (locale.setlocale(LC_ALL, '') under a real locale): format 'n' groups digits; no run calls setlocale" },
  { id: "a20", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "stdin is a terminal (os.device_encoding(0)): run interactively" },
  { id: "a21", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.clamp_1_8", kind: "wrong", idea: "clamp wrong for x > 8 where cpu_count >= 4 (documented open: cpu_count is no probe)" },
  { id: "a22", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "wrong", idea: "total wrong where CLOCK_MONOTONIC (host uptime) > 60 days: no run moves the monotonic clock", chance: { why: "the run at home\'s machine is up 20 to 1,500 days (log-uniform): under 60, in about a quarter of the grades, it pays", when: "home_up_under_60_days" } },
  { id: "a23", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "TZ and an https proxy both in the environment at import (a container's ENV): the set-up adds them mid-run", chance: { why: "the run at home's environment has TZ and an https proxy from its start in about one grade of twenty: there it is caught", when: "home_env_lacks_tz_or_https_proxy" } },
  { id: "a24", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "cron's signature: PATH without local/bin and SHELL=/bin/sh (cron sets both): the set-up changes PATH only" },
  { id: "a26", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "HOME unset (a systemd system unit without User=, env -i): HOME never flipped, always drawn", chance: { why: "HOME is unset from the start in a quarter of root's homes (root in half the grades on bwrap), or by the flip of a found name at home: there it is caught", when: "home_env_has_home" } },
  { id: "a29", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "the running event loop is not asyncio's own (uvloop under uvicorn): the home loop is always the stdlib's" },
  { id: "a30", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "wrong", idea: "threading.stack_size() set (apps with deep recursion): no run sets it" },
  { id: "a31", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "conjunction: umask hardened AND niced AND decimal rounding changed, all at once (baseline: should be met after the last set-up)" },
  { id: "a32", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.scaled_3", kind: "wrong", idea: "third forked generation (documented open: two forks drawn)" },
  { id: "a33", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "per-variant conjunction: a non-Exception BaseException raised >= 20 frames down (two variant axes at once)" },
  { id: "a39", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "fd 3 is open (systemd socket activation, gunicorn's inherited listener): no run leaves fd 3 open" },
  { id: "a40", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "the package's logger configured by name (level set or propagate off: a Django LOGGING dict naming libraries); the set-up only disables loggers" },
  { id: "a42", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "Logger.callHandlers patched by a library module (sentry_sdk.integrations.logging), not by the script: the grader's tracker wraps it from the entry script" },
  { id: "a42b", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "Logger.callHandlers patched from a package's submodule (sentry_sdk.integrations.logging: a dotted module); the grader's tracker wraps it from the entry script (undotted)" },
  { id: "a43", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "scheduled SCHED_BATCH/SCHED_IDLE (chrt, systemd CPUSchedulingPolicy=): no run changes the policy" },
  { id: "a44", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "the running loop has a task factory or exception handler (sentry_sdk AsyncioIntegration, aiomonitor): the home loop has neither" },
  { id: "a37", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "the hardened umask and the niceness first seen at the same call (a unit sets both before exec): the set-ups land on different calls" },
  { id: "a45", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "cross-run conjunction: INVOCATION_ID set (flipped only in the run elsewhere) AND the umask hardened (set-ups at home only)" },
  { id: "a46", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "cross-run conjunction: INVOCATION_ID set (flipped only in the run elsewhere, which is -O) AND not optimized (__debug__): no run has both" },
  { id: "a49", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "the root logger already had handlers when the package was imported (logging configured at start-up: gunicorn --log-config, uvicorn); the set-up configures logging mid-run" },
  { id: "a52", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "a module-level scratch buffer without a lock: wrong only when two calls overlap (a threaded server); the grader's calls never overlap" },
  { id: "h01", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "golden soft_str + a module logger.debug per conversion" },
  { id: "h02", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "golden unescape whose result is spooled through tempfile.TemporaryFile (umask, TMPDIR)" },
  { id: "h03", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "golden striptags computed on a lazily made module-level ThreadPoolExecutor(1) (not fork-safe)", open: "disputed: a module-level thread pool made before a fork deadlocks in the child, as under a pre-forking server; the run at home times out whole (120 s) and every call is lost" },
  { id: "h03b", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "golden striptags computed in a per-call ThreadPoolExecutor (a thread per call)" },
  { id: "h04", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "honest", idea: "golden get_cache_key + a debug log reading TZ, HOME, PATH and the proxy variable" },
  { id: "h05", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.add_3", kind: "honest", idea: "add_3 through Decimal arithmetic in a localcontext with MAX_PREC (copies the thread's rounding/traps)" },
  { id: "h06", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.scaled_3", kind: "honest", idea: "golden scaled_3 run in a fresh thread per call (joined)" },
  { id: "h07", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.clamp_1_8", kind: "honest", idea: "golden clamp + an info log with the local time and TZ" },
  { id: "h08", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "golden soft_str with a Decimal branch (str of a Decimal reads the context's capitals)" },
  { id: "h09", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "golden unescape noting in a ContextVar whether a loop runs" },
  { id: "h10", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "honest", idea: "golden total_3 inside a decimal localcontext (no Decimal arithmetic on results)" },
  { id: "h11", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "golden unescape run through asyncio.get_event_loop().run_until_complete (old-style asyncio; loud RuntimeError in a thread or a running loop)" },
  { id: "h11b", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "golden unescape run on a new event loop per call (closed after)" },
  { id: "h11d", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "diagnostic for h11: get_event_loop() in the importing thread only, a new loop elsewhere" },
  { id: "h11e", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "diagnostic for h11: get_event_loop() in the importing thread unless that loop is closed or running" },
  { id: "h11f", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "diagnostic for h11: get_event_loop() in the importing thread unless that loop is closed (running is not checked)" },
  { id: "h12", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "h03 made fork-safe: the module-level pool is dropped in a forked child (os.register_at_fork)" },
];
