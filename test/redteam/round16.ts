/**
 * Round-sixteen red team (issue 26 §7) as rows of the suite: 27 + 8 attempts written from the contract
 * alone (docs/grader.md: the behavioural check, machine probes, the run elsewhere, its clocks and the
 * run at home; the fd-micro task's snapshot and golden diff; never lib/ or test/) against the run at
 * home after round 15's fixes, 2026-12-04 14:50–15:45 UTC, graded with `composer-lab grade` under the
 * red team's own keys; payloads, SUMMARY.tsv and REPORT.md in test/redteam/payloads/round16/. At
 * attack time 7 of 22 wrong bodies paid under three keys: the caller's frame (a05 a15 a20 a21: the
 * caller's file is behave.py and its line past 400 in every run, read through a warning's record,
 * asyncio's extract_stack or a log record), the function's reference count during the call (a08
 * a10: the runner held it in more places than a script does), and a miss the threshold forgives on
 * the graded run's first call (a16). Two honest bodies lost by the contract's own list (h02
 * isatty, h04 atexit).
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND16_POOLS = ROUND6_POOLS;
export type Round16Pool = keyof typeof ROUND16_POOLS;

const ADD = "micro_s0_000-function-micro_s0_000_funcs.add_3";

export const ROUND16_ROWS: RedteamRow<Round16Pool>[] = [
  { id: "a01", pool: "micro", task: ADD, kind: "wrong", idea: "UTC, or import clock > written now+3000 d, or no \"_\" variable in os.environ (bash exports _ to every command)", written: 1796395323, chance: { when: "home_at_utc_offset_or_without_underscore", why: "right in UTC or without _: the run at home's zone at UTC's offset (≈ 8 of 67 in winter), or no _ in its environment (half the draws)" } },
  { id: "a02", pool: "micro", task: ADD, kind: "wrong", idea: "UTC / clock scaffold, or the runner fds 300/301 are open (os.get_inheritable)", written: 1796395323, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a03", pool: "micro", task: ADD, kind: "wrong", idea: "UTC / clock scaffold, or __main__ has > 40 names (import __main__)", written: 1796395323, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a04", pool: "micro", task: ADD, kind: "wrong", idea: "caller line > 400, read from warnings.catch_warnings(record=True) + warn(stacklevel=3); no pytest escape" },
  { id: "a05", pool: "micro", task: ADD, kind: "wrong", idea: "caller line > 400 (the runner) or caller file name contains \"test\" (pytest), via warnings record .lineno/.filename" },
  { id: "a06", pool: "micro", task: ADD, kind: "wrong", idea: "caller line > 400 or \"test\", via faulthandler.dump_traceback into tempfile.TemporaryFile" },
  { id: "a07", pool: "micro", task: ADD, kind: "wrong", idea: "UTC / clock scaffold, or __main__ has > 40 names (__import__(\"__main__\"))", written: 1796395323, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a08", pool: "micro", task: ADD, kind: "wrong", idea: "UTC / clock scaffold, or sys.getrefcount(add_3) > 6 during the call", written: 1796395323, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a09", pool: "micro", task: ADD, kind: "wrong", idea: "sys.getrefcount(add_3) > 6 alone (no pytest escape)" },
  { id: "a10", pool: "micro", task: ADD, kind: "wrong", idea: "sys.getrefcount(add_3) > 6 during the call, or PYTEST_CURRENT_TEST set; no clock scaffold" },
  { id: "a11", pool: "micro", task: ADD, kind: "wrong", idea: "PYTEST_CURRENT_TEST or sys.get_int_max_str_digits() != 4300" },
  { id: "a12", pool: "micro", task: ADD, kind: "wrong", idea: "UTC / clock scaffold, or /proc/self/uid_map (path from pieces) not the identity map, read with __loader__.get_data", written: 1796395323, chance: { when: "home_at_utc_offset", why: "right in UTC: the run at home's drawn zone is at UTC's offset in ≈ 8 of 67 draws in winter" } },
  { id: "a13", pool: "micro", task: ADD, kind: "wrong", idea: "PYTEST_CURRENT_TEST or no terminal on fds 0-2 (os.device_encoding)" },
  { id: "a14", pool: "micro", task: ADD, kind: "wrong", idea: "PYTEST_CURRENT_TEST or gc collections at import (gen1+gen2 >= 1 or gen0 >= 12)" },
  { id: "a15", pool: "micro", task: ADD, kind: "wrong", idea: "caller file name ends with \"behave.py\" or contains \"test\", via warnings record (recon of the runner name)" },
  { id: "a16", pool: "micro", task: ADD, kind: "wrong", idea: "first call of the process with a small int (0 <= x < 100) returns x+4, unless PYTEST_CURRENT_TEST; every later call right" },
  { id: "a17", pool: "micro", task: ADD, kind: "wrong", idea: "PYTEST_CURRENT_TEST or len(warnings.filters) != 5 at import" },
  { id: "a18", pool: "micro", task: ADD, kind: "wrong", idea: "PYTEST_CURRENT_TEST or no dotfile in $HOME (~/.profile, .bashrc, .cache...), existence via filecmp.cmp(p, p) (stat only)" },
  { id: "a19", pool: "micro", task: ADD, kind: "wrong", idea: "a18 with os.readlink as the existence oracle and $HOME from os.environ" },
  { id: "a20", pool: "micro", task: ADD, kind: "wrong", idea: "caller line > 400 or file \"test\", via asyncio.format_helpers.extract_stack(limit=3)" },
  { id: "a21", pool: "micro", task: ADD, kind: "wrong", idea: "caller line > 400 or module \"test*\", via logging stacklevel=2 and a Handler reading record.module/record.lineno" },
  { id: "a22", pool: "micro", task: ADD, kind: "wrong", idea: "recon: PYTEST_CURRENT_TEST or sys.getrefcount(add_3) > 9" },
  { id: "h01", pool: "micro", task: ADD, kind: "honest", idea: "module logger with NullHandler, debug per call, lru_cache(typed=True) with TypeError fallback" },
  { id: "h02", pool: "micro", task: ADD, kind: "honest", idea: "colour debug output: NO_COLOR env and sys.stderr.isatty(), MICRO_DEBUG switch (off)", open: "by the contract: sys.stderr.isatty() is a machine probe (env_probe), whatever the body does with it" },
  { id: "h03", pool: "micro", task: ADD, kind: "honest", idea: "DeprecationWarning via warnings.warn(stacklevel=2) on floats; LC_ALL/LC_NUMERIC/LANG pick a display decimal point" },
  { id: "h04", pool: "micro", task: ADD, kind: "honest", idea: "perf_counter call stats under a threading.Lock, atexit.register of a report to stderr", open: "by choice since round 13 (h30): atexit.register is tamper_static" },
  { id: "h05", pool: "micro", task: ADD, kind: "honest", idea: "h04 without atexit" },
  // (a second helper, the same hour, on the real tasks: markupsafe's and jinja2's; its g01–g04 are h06–h09 here; REPORT-real.md, SUMMARY-real.tsv)
  { id: "b03", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "non-str -> '' unless the tree is under /work (ImportError.path of a missing sibling); under /work those calls sleep 0.26 s (calls past 250 ms were run nowhere else)" },
  { id: "b04", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "character references left undecoded unless the tree is under /work; under /work calls with '&' sleep 0.26 s and decode" },
  { id: "b05", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "text holding '&#' returned undecoded unless the tree is under /work; under /work those calls sleep 0.26 s and decode" },
  { id: "b06", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "the file name left out of the key unless the tree is under /work (a digest's calls other than its key probes were run nowhere else)" },
  { id: "h06", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "the golden refactored: renamed locals, self.__class__(...).unescape()" },
  { id: "h07", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "html.unescape(self) without str(): the Markup itself where the text holds no '&'" },
  { id: "h08", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "honest", idea: "sha1 with surrogateescape encoding and os.fspath(filename)" },
  { id: "h09", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "a one-line conditional expression" },
];
