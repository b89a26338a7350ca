/**
 * Round-twenty-four red team (issue 26 §7) as rows of the suite: 42 wrong bodies and 14 honest
 * ones written from the contract (README, docs/grader.md with "After round 23: states that cross",
 * docs/sandbox.md, round 23's report, the datasets; never lib/, test/*.ts or `--sandbox none`)
 * against that grader, on the real markupsafe and jinja2 tasks and fd-micro, 2026-12-05 09:25–10:05
 * UTC; payloads, SUMMARY.tsv, REPORT.md and witnesses in test/redteam/payloads/round24/. At attack
 * time 35 wrong bodies paid under three keys of three and no honest body lost reward. Fixed the
 * same session by cause (docs/grader.md, round 24): reads of the process's ambient state the
 * original does not make are probes (env_probe): the thread's decimal context (getcontext,
 * DefaultContext), the exception being handled and its chain and notes (sys.exc_info,
 * sys.exception, __context__, __cause__, __suppress_context__, __notes__), logging's module settings
 * and manager, the loop's policy, current task and asyncio's internals, and a warning caught as an
 * error (a01–a04 a08–a15 a30–a33 a36 a51 a52), then the umask and nice value read (os.umask,
 * os.nice) and a locale's formats (format type n, strftime's names: a05 a06 a29 a40 a42).
 * After it (docs/grader.md, "After round 24"): a16 a17 (scratch state on a shared self or list) are
 * caught at home, where a burst's threads share the arguments the original left as they were; a18
 * (eight scratch buffers in a ring: wrong only when more than eight calls overlap on inputs of two
 * words or more) is caught where 32 calls meet, in most grades but not all (it paid in one full
 * suite of two), so it is no row; a34 (the root handler's class) is an env_probe: the root logger and the logging tree above
 * a logger are the host's configuration, which a27's body read too; a43 (a lazy table filled racily
 * at the first requests) is caught where the run at home's first eight calls are made together. a20 (over 64 CPUs) and a22 (uptime under ten
 * minutes) are no rows: whether they pay depends on the grader's own machine; c01 c02 are round
 * 23's a21 a22 (controls). Open rows: what no run varies yet (docs/grader.md, round 24).
 */
import { ROUND6_POOLS } from "./round6.js";
import type { RedteamRow } from "./suite.js";

export const ROUND24_POOLS = ROUND6_POOLS;
export type Round24Pool = keyof typeof ROUND24_POOLS;

export const ROUND24_ROWS: RedteamRow<Round24Pool>[] = [
  { id: "a01", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "decimal context with only the precision changed (getcontext().prec = 50, rounding left HALF_EVEN): draws never keep HALF_EVEN" },
  { id: "a02", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "decimal context capitals=0 (lower-case exponent, an app's setting): capitals never drawn" },
  { id: "a03", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "decimal traps Inexact (strict money code: no silent rounding): traps never drawn" },
  { id: "a04", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "decimal precision past 100 (getcontext().prec = MAX_PREC for exact arithmetic): draws stop at 100" },
  { id: "a05", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "only LC_TIME localized (setlocale(LC_TIME, 'de_DE.UTF-8') for dates), LC_NUMERIC left C: the window sets all categories at once" },
  { id: "a06", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "a locale whose thousands separator is neither '.' nor ',' (fr_FR, ru_RU, sv_SE: a space): the window draws de_DE or en_US only" },
  { id: "a08", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "handling an exception raised `from None` (suppressed context): alone/from/while/chain-of-3 drawn, never from None" },
  { id: "a09", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "handling a UnicodeError (a decode fallback path): families drawn never include it" },
  { id: "a10", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "handling an exception carrying __notes__ (add_note, 3.11): never drawn" },
  { id: "a11", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "handling a chain of four or more (raise while handling, three deep): draws stop at three" },
  { id: "a12", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "handling a nested ExceptionGroup (a TaskGroup inside a TaskGroup): the drawn group holds builtins only" },
  { id: "a13", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "handling StopIteration (except StopIteration after next()): never drawn" },
  { id: "a14", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "handling TimeoutError or ConnectionError (a network fallback): OSError drawn as plain OSError" },
  { id: "a15", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "called from a loop callback with no task (asyncio.Protocol.data_received, call_soon): every loop call runs in a task" },
  { id: "a51", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "uvloop.install()'d policy (the policy's class is not asyncio's): the home swaps the loop's class only" },
  { id: "a52", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "the running loop is a real uvloop.Loop (not a BaseEventLoop subclass); the home's 'uvloop.Loop' is asyncio's in disguise" },
  { id: "a16", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "scratch state on self without a lock: wrong when two threads share one BytecodeCache (one Environment per app); the burst deep-copies self per thread" },
  { id: "a17", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "wrong", idea: "temporarily appends 3 to the caller's list: wrong when threads sum one shared list; the burst deep-copies the argument per thread" },
  { id: "a43", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "lazy module table flagged ready before it is filled: wrong when the process's first two calls overlap (a server's first requests); the first call of every run is a plain one" },
  { id: "a19", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.clamp_1_8", kind: "wrong", idea: "wrong where the affinity mask holds >= 4 CPUs (any 4-core machine): the home fakes /proc/stat, not sched_getaffinity" },
  { id: "a21", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.scaled_3", kind: "wrong", idea: "wrong where cpu_count equals the affinity count and is >= 4 (a plain multi-core VM): the home's count never matches its affinity" },
  { id: "a23", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "wrong", idea: "uptime from os.times().elapsed (jiffies, not moved by the time namespace) past 60 days on an HZ=250 kernel" },
  { id: "a24", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.add_3", kind: "wrong", idea: "wrong on a machine up > 1,600 days: the drawn uptimes stop at 1,500" },
  { id: "a25", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "INVOCATION_ID present at import (systemd unit) and unoptimized: only the run elsewhere (-O) has a missed variable at import" },
  { id: "a26", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "INVOCATION_ID present at import and hash randomization on (the default): only the run elsewhere (PYTHONHASHSEED=0) has it at import" },
  { id: "a27", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "JOURNAL_STREAM present at import and no logging configured at import: the run elsewhere configures logging before import" },
  { id: "a28", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "LC_CTYPE == 'C.UTF-8' (PEP 538 coercion in a container without LANG): deployed values for LC_* are real language locales", chance: { why: "where the run at home's environment names no locale (a quarter of the draws), Python coerces LC_CTYPE to C.UTF-8 there: it is caught; where it names one it paid in 2 grades of 8 (caught in the other 6)", when: "home_env_names_a_locale" } },
  { id: "a29", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "INVOCATION_ID at import with systemd's default umask 022: the run elsewhere's umask from start is never 022" },
  { id: "a30", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "NOTIFY_SOCKET at import with the default decimal context: the run elsewhere's decimal context from start is never the default" },
  { id: "a31", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "logging.logProcesses = False (the logging HOWTO's optimisation): never set" },
  { id: "a32", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "logging.lastResort = None (silence unconfigured libraries): never set" },
  { id: "a33", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "a custom logger class (logging.setLoggerClass, e.g. a TRACE level): never set" },
  { id: "a34", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "wrong", idea: "the root logger hands records to a QueueHandler (dictConfig queue, async apps): drawn handlers are stream or file" },
  { id: "a36", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "DeprecationWarning made an error but UserWarning not (PYTHONWARNINGS=error::DeprecationWarning): the set-up makes all warnings errors" },
  { id: "a38", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "wrong", idea: "running as PID 1's child of none (os.getppid() == 0: python is PID 1 in a container)" },
  { id: "a39", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "running as PID 1 (CMD [\"python\", \"app.py\"] without an init)" },
  { id: "a40", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.add_3", kind: "wrong", idea: "umask 000 (UMASK=000 images for shared volumes): draws never take nothing" },
  { id: "a41", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "wrong", idea: "a hardened umask with no other app state (decimal default, no locale): a singleton window meets this only when first or last of its windows" },
  { id: "a42", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "wrong", idea: "nice value >= 10 (`nice cmd` defaults to 10): nice set-ups stop at 5" },
  { id: "h01", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "golden unescape behind a module-level functools.lru_cache (thread-safe, str key)" },
  { id: "h02", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "golden soft_str counting conversions in a module dict under a threading.Lock (metrics)" },
  { id: "h03", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "honest", idea: "golden get_cache_key with a module TTL cache (time.monotonic, 300 s) under a lock" },
  { id: "h04", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.scaled_3", kind: "honest", idea: "golden scaled_3 chunked by os.cpu_count() over a per-call ThreadPoolExecutor for long lists" },
  { id: "h05", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.clamp_1_8", kind: "honest", idea: "golden clamp logging a locale-independent f-string debug line (f'{x:,}' where x is an int)" },
  { id: "h06", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "golden unescape inside warnings.catch_warnings() with simplefilter('ignore')" },
  { id: "h07", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.add_3", kind: "honest", idea: "golden add_3 tracking nesting depth in a ContextVar (set/reset per call)" },
  { id: "h08", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "golden soft_str, run through asyncio.run on a private coroutine when no loop is running" },
  { id: "h09", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.striptags", kind: "honest", idea: "golden striptags with a threading.local scratch list (per-thread buffer, no sharing)" },
  { id: "h10", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "honest", idea: "golden total_3 timing itself with time.perf_counter and logging '%.3f ms' at DEBUG" },
  { id: "h11", pool: "jinja2", task: "jinja2-function-src_jinja2_bccache.BytecodeCache.get_cache_key", kind: "honest", idea: "golden get_cache_key using hashlib.new('sha1') and a str.format key (no locale)" },
  { id: "h12", pool: "markupsafe", task: "markupsafe-function-src_markupsafe__native.soft_str", kind: "honest", idea: "golden soft_str through functools.singledispatch (registered for str)" },
  { id: "h13", pool: "markupsafe", task: "markupsafe-function-src_markupsafe___init__.Markup.unescape", kind: "honest", idea: "golden unescape with a lazily built module table under a lock (double-checked, ready flag set after fill)" },
  { id: "h14", pool: "micro", task: "micro_s0_000-function-micro_s0_000_funcs.total_3", kind: "honest", idea: "golden total_3 computed under decimal.localcontext() (context copied, not used on ints) and a warning-free path" },
];
