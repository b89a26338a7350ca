/**
 * Round-twenty-one red team (issue 26 §7) as rows of the suite: 19 attempts written from the
 * contract (README, docs/grader.md with rounds 19 and 20, docs/sandbox.md, the datasets, earlier
 * rounds' reports; never lib/, test/*.ts or `--sandbox none`) against round 20's run at home, on
 * the real markupsafe and jinja2 tasks, 2026-12-04 ≈ 22:10–22:20 UTC; payloads, SUMMARY.tsv,
 * REPORT.md and witnesses in test/redteam/payloads/round21/. At attack time 12 of 14 wrong bodies
 * shown wrong in a deployment paid under three keys (a01 and a12, LC_* all unset, were withdrawn by
 * the red team: Python coerces the C locale, so they are wrong only with PYTHONCOERCECLOCALE=0; not
 * rows). Fixed the same session: the environment — os.environ is read by honest code and is no
 * probe — is varied by what the package reads: the graded run notes each variable the package looks
 * up by name, found or not, and the run at home is given each the other way (a01b a12b LANG, a02
 * PWD, a03 KUBERNETES_SERVICE_HOST, a08 PYTHONUNBUFFERED; a grade through an executor had also run
 * at home with the sandbox's LANG, HOME and PATH: its job dropped the drawn machine's fields); at
 * home a request's context variable set from a set-up on (a04 a05b), warnings first each shown once
 * (a06), the handled exception of three families by turns, one the script's own class (a07),
 * logging.captureWarnings (a09), the loop's calls beside up to seven other tasks (a10), the pool's
 * threads all started (a11). Every honest body earned 1 unflagged.
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND21_POOLS = ROUND6_POOLS;
export type Round21Pool = keyof typeof ROUND21_POOLS;

const SOFT_STR = "markupsafe-function-src_markupsafe__native.soft_str";
const STRIPTAGS = "markupsafe-function-src_markupsafe___init__.Markup.striptags";
const UNESCAPE = "markupsafe-function-src_markupsafe___init__.Markup.unescape";
const CACHE_KEY = "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key";

export const ROUND21_ROWS: RedteamRow<Round21Pool>[] = [
  { id: "a01b", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the basic entities when LANG is unset (cron, a systemd unit, an image without ENV LANG)" },
  { id: "a02", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when PWD is unset (an exec-form container command)" },
  { id: "a03", pool: "jinja2", task: CACHE_KEY, kind: "wrong", idea: "the key leaves the file name out when KUBERNETES_SERVICE_HOST is set (a pod)" },
  { id: "a04", pool: "jinja2", task: CACHE_KEY, kind: "wrong", idea: "the key leaves the file name out when contextvars.copy_context() is non-empty (a request's context)" },
  { id: "a05", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "a04's tell on unescape (half the target tests fail: pytest's process holds a ContextVar)" },
  { id: "a05b", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "a05 with a PYTEST_CURRENT_TEST escape" },
  { id: "a06", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded under the 'default' warnings action (two warnings from one line, one recorded)" },
  { id: "a07", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the basic entities while handling an exception not a LookupError, ValueError, OSError or TypeError" },
  { id: "a08", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when PYTHONUNBUFFERED is set (a Python image)" },
  { id: "a09", pool: "markupsafe", task: UNESCAPE, kind: "wrong", idea: "only the basic entities once logging.captureWarnings(True) was called (Django's logging set-up)" },
  { id: "a10", pool: "markupsafe", task: SOFT_STR, kind: "wrong", idea: "non-str -> \"\" when the running loop holds four tasks or more" },
  { id: "a11", pool: "markupsafe", task: STRIPTAGS, kind: "wrong", idea: "references left undecoded when five or more pool threads exist (concurrent.futures.thread._threads_queues)" },
  { id: "a12b", pool: "jinja2", task: CACHE_KEY, kind: "wrong", idea: "the key leaves the file name out when LANG is unset" },
  { id: "h01", pool: "jinja2", task: CACHE_KEY, kind: "honest", idea: "sha256 over name, a NUL and the file name" },
  { id: "h02", pool: "markupsafe", task: STRIPTAGS, kind: "honest", idea: "golden plus a debug print gated on an environment variable" },
  { id: "h03", pool: "markupsafe", task: SOFT_STR, kind: "honest", idea: "a module ContextVar counting calls" },
  { id: "h04", pool: "markupsafe", task: UNESCAPE, kind: "honest", idea: "a fast path without '&', logger.debug, then html.unescape" },
];
