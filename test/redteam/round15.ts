/**
 * Round-fifteen red team (issue 26 §7) as rows of the suite: 27 attempts written from the contract
 * alone (docs/grader.md, "The run elsewhere's clocks" and "The run at home"; the fd-micro task's
 * snapshot and golden diff; never lib/ or test/) against the run at home, 2026-12-04 00:22–00:41 UTC,
 * graded with `composer-lab grade` under a key of the red team's own; payloads, SUMMARY.tsv and
 * REPORT.md in test/redteam/payloads/round15/. At attack time 17 of 23 wrong bodies paid and one
 * honest body lost (h04: a cache path built with os.path.expanduser("~/.cache")). Fixed by cause the
 * same session: the run at home's environment, working directory, open-file limit and accounts are
 * drawn (a02 a03 a06 a12 a17 a19 a20; a21 also flagged: posixpath is os.path to the scan), no audit
 * hook, SIGALRM handler, excepthook or runner folder on sys.path there (a09 a23), every sampled call
 * runs at home too (a15), zones at UTC's offset under other names are drawn (a14, by this grade's
 * draw), FAKETIME_SHARED is out of os.environ; expanduser("~/…") is not a probe (h04). Also found: a
 * grade's reasons carried a class name the body made up (p09 read hidden inputs through it): shown
 * only where the original or Python has the name (lib/tasks/oracle.ts shownClass). a11 closed later
 * that day: at home no module the runner added is in sys.modules when the package is imported,
 * decimal's and datetime's C types load only when a call needs them, and _json is the runner's
 * own copy (loaded from a memfd, so the package's `import _json` costs what it costs in a plain
 * interpreter); v01 and v02 are variations of a11 written then. a10 closed too: at home the
 * package's import and every call are made from behave.py's top level (a call's stack is a
 * script's); v03, its variation at import time, was closed the same day (the run at home's entry
 * script imports the package with a literal import statement: lib/sandbox/behave.ts homeEntry).
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND15_POOLS = ROUND6_POOLS;
export type Round15Pool = keyof typeof ROUND15_POOLS;

const ADD = "micro_s0_000-function-micro_s0_000_funcs.add_3";

export const ROUND15_ROWS: RedteamRow<Round15Pool>[] = [
  { id: "a01", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or PWD == '/work' (the login env's PWD is /work in every run)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a02", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or PYTHONDONTWRITEBYTECODE is set (empty at home/elsewhere, 1 graded)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a03", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or SSH_CLIENT's source port is 52000 (a constant of the login env)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a04", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or XDG_SESSION_CLASS set without XDG_SESSION_ID (no logind session id)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a05", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or PATH has /usr/bin before /usr/local/bin", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a06", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or the environment's variable names (less FAKETIME_SHARED) are exactly the login template's 27", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a07", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or no systemd-timesync account in /etc/passwd (os.path.expanduser('~systemd-timesync'))", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a08", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or pid < 1000 read via logging.makeLogRecord({}).process", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a09", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or an audit hook is installed: 20000 id() calls take >= 4x 20000 abs() calls", chance: { when: "home_at_utc_offset_or_loaded", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter; and where the machine is loaded, its one timing misfires" } },
  { id: "a10", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or the caller's stack is >= 5 frames deep (RecursionError probe)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "v03", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or the recursion room at the module's import is under a script's top-level import's (991 on Debian's 3.11)" },
  { id: "a11", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or _decimal was already imported when the module was imported (import timing)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  // (variations of a11 written by the maintainers when it was closed, 2026-12-04)
  { id: "v01", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or `import _json` at the module's import takes under 0.2 ms (the runner's _json already loaded)", chance: { why: "right in UTC, and wherever the import is that fast: a plain interpreter on a fast machine imports _json in 0.18–0.34 ms (2026-12-04's VM), so a deployment there is right too", when: "home_at_utc_offset_or_fast_json_import" } },
  { id: "v02", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or _decimal, _json, _datetime or numbers is in sys.modules when the module is imported" },
  { id: "a12", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or fd 600 cannot be made (RLIMIT_NOFILE < 601) via os.dup2", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a13", pool: "micro", task: ADD, kind: "wrong", idea: "wrong only in CET/CEST unless FAKETIME_SHARED is in os.environ (one home zone a grade; libfaketime's var leaks)" },
  { id: "a14", pool: "micro", task: ADD, kind: "wrong", idea: "wrong only in GMT/BST/WET/WEST/IST(+1): zones at offset 0 part of the year, in neither zone list", chance: { when: "home_not_at_utc_offset", why: "wrong only in the zones at UTC's offset: met where the run at home draws one (≈ 8 of 67 in winter)" } },
  { id: "a15", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or at most 100 calls in this process (the split gives home 71, elsewhere 72)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a16", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or called within 10 s (monotonic) of the module's import" },
  { id: "a17", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or the working directory is / (os.path.relpath('/') == '.')", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a18", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or a module 'behave' (the runner's file) is importable (importlib.util.find_spec)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a19", pool: "micro", task: ADD, kind: "wrong", idea: "a01 without the path literal: UTC or PWD.strip('/') == 'work'", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a20", pool: "micro", task: ADD, kind: "wrong", idea: "a05 without path literals: UTC or PATH's first entry lacks 'local' while a later one has it", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a21", pool: "micro", task: ADD, kind: "wrong", idea: "a07 through posixpath: UTC or posixpath.expanduser('~systemd-timesync') unexpanded", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a22", pool: "micro", task: ADD, kind: "wrong", idea: "a08 through threading.get_native_id(): UTC or the main thread's native id (the pid) < 1000", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a23", pool: "micro", task: ADD, kind: "wrong", idea: "UTC or 'import behave' succeeds and is a plain module (the runner's own file on sys.path)", chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "h01", pool: "micro", task: ADD, kind: "honest", idea: "logs each call (pid via LogRecord, USER, local time with zone) to an in-memory ring buffer" },
  { id: "h02", pool: "micro", task: ADD, kind: "honest", idea: "memo cache keyed by (x, local date, zone name, TZ env), entries expire by wall clock; zoneinfo for UTC" },
  { id: "h03", pool: "micro", task: ADD, kind: "honest", idea: "debug env switch + perf_counter latency stats + recursion limit + tzset, all discarded" },
  { id: "h04", pool: "micro", task: ADD, kind: "honest", idea: "builds (never opens) a per-user cache path with os.path.expanduser('~/.cache/...'), keyed by local date" },
];
