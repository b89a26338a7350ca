/**
 * The behavioural runner's sandbox side (issue 26 §1): harness/behave.py calls a package's functions
 * on inputs the grader hands it (a request file bound read-only at /opt/composer-lab-cfg, outside
 * the tree under test) and writes what they did as plain data; harness/oracle_trace.py records the
 * ORIGINAL's calls under its target tests at build time. Both run through the lab's one Sandbox
 * interface (bwrap, Docker, any kind added beside them); a read-only bwrap run goes through the warm
 * grader's behave zygote (warm.ts, forkserver.py --kind behave: an interpreter that has imported
 * behave.py and the standard library only, forked per run into the cold path's containment; no
 * previous run's state or output survives in a fork). Nothing the sandbox
 * writes is evaluated: its lines are parsed as JSON under a size limit and checked against the zod
 * schemas below, and any line that does not fit fails the whole run.
 */
import { createHmac, randomUUID } from "node:crypto";
import { chmodSync, cpSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import deepEqual from "fast-deep-equal";
import { z } from "zod";
import { transientDir } from "../core/index.js";
import { BwrapSandbox } from "./bwrap.js";
import { type Bytecode, moduleBytecode, placeModule } from "./bytecode.js";
import { CFG_MOUNT, HARNESS_MOUNT, harnessDir, sleepShim } from "./harness-dir.js";
import { CALLING, SETUPS, ELSEWHERE_ENV, drawClocks, drawHome, flipEnv, flipOf, keepEnv, moreCpus, type StartState, ELSEWHERE_PATHS, SESSION_ENV, ZONEINFO, anotherMachine, clockEnv, fakeTime, moveTimes, type Clock, type Home } from "./machine.js";
import { PYENV_MOUNT, findPyEnv, type PyEnv, type RepoLayout, repoLayoutAsync, SYSTEM_PYTHON, pytestCompat, pytestVersion } from "./pyenv.js";
import { findPytestConfig } from "./pytest.js";
import { SANDBOX_WORKDIR, baseEnv, type MaskSpec, type RunResult, type Sandbox } from "./types.js";
import { WarmWorkerGone, warmWorker } from "./warm.js";

/** A serialized value (behave.py's tagged tree). */
export type BValue =
  | { t: "none" }
  | { t: "bool"; v: boolean }
  | { t: "int" | "float" | "str" | "bytes" | "bytearray" | "class"; v: string }
  | { t: "complex"; v: [string, string] }
  | { t: "list" | "tuple" | "set" | "frozenset"; v: BValue[] }
  | { t: "dict"; v: [BValue, BValue][] }
  | { t: "inst"; cls: string; base?: BValue; dict?: [string, BValue][]; opaque?: string; factory?: string | null }
  | { t: "std"; cls: StdClass; v: string };

/** Value types behave.py writes by value: the standard library's C types (a Decimal's str, a date's
 *  ISO form) and the runner's own str subclass and `__html__` object (their text). */
export const STD_CLASSES = ["decimal.Decimal", "datetime.date", "datetime.datetime", "datetime.time", "behave.Text", "behave.TextStr", "behave.Html"] as const;
export type StdClass = (typeof STD_CLASSES)[number];

// The schema is built once (z.lazy calls its getter on every parse) and picks its variant by `t`
// (a plain union tries each in turn): parsing a run's output was ≈ 9 ms of host CPU a run.
let bvalueSchema: z.ZodType<BValue> | undefined;
export const BValue: z.ZodType<BValue> = z.lazy(() =>
  (bvalueSchema ??= z.discriminatedUnion("t", [
    z.object({ t: z.literal("none") }).strict(),
    z.object({ t: z.literal("bool"), v: z.boolean() }).strict(),
    z.object({ t: z.enum(["int", "float", "str", "bytes", "bytearray", "class"]), v: z.string() }).strict(),
    z.object({ t: z.literal("complex"), v: z.tuple([z.string(), z.string()]) }).strict(),
    z.object({ t: z.enum(["list", "tuple", "set", "frozenset"]), v: z.array(BValue) }).strict(),
    z.object({ t: z.literal("dict"), v: z.array(z.tuple([BValue, BValue])) }).strict(),
    z.object({ t: z.literal("std"), cls: z.enum(STD_CLASSES), v: z.string() }).strict(),
    z.object({ t: z.literal("inst"), cls: z.string(), base: BValue.optional(), dict: z.array(z.tuple([z.string(), BValue])).optional(), opaque: z.string().optional(), factory: z.string().nullable().optional() }).strict(),
  ]) as unknown as z.ZodType<BValue>),
);

export const BExc = z.object({
  type: z.string(),
  builtin: z.string(),
  /** The project's classes on the exception's real MRO, most derived first (absent: none). */
  own: z.array(z.string()).optional(),
}).strict();
const Post = { post: z.array(BValue), postkw: z.array(z.tuple([z.string(), BValue])) };
/** What one call did. */
export const BOutcome = z.discriminatedUnion("k", [
  z.object({ k: z.literal("return"), ret: BValue, ...Post, ms: z.number().optional() }).strict(),
  z.object({ k: z.literal("raise"), exc: BExc, ...Post, ms: z.number().optional() }).strict(),
  z.object({ k: z.literal("unserializable"), why: z.string(), ms: z.number().optional() }).strict(),
  z.object({ k: z.literal("timeout"), ms: z.number().optional() }).strict(),
  z.object({ k: z.literal("error"), why: z.string(), ms: z.number().optional() }).strict(),
]);
export type BOutcome = z.infer<typeof BOutcome>;

/** An outcome's JSON with its time left out (outcomes compared as answers, not as timings; `ms` is
 *  only ever an outcome's own field). Without a replacer: a replacer function is called for every
 *  key of every value, ≈ 10 ms a grade. */
export const timeless = (o: BOutcome | null | undefined): string => {
  if (!o || !("ms" in o)) return JSON.stringify(o ?? null);
  const { ms: _ms, ...answer } = o;
  return JSON.stringify(answer);
};

/** Whether two outcomes are the same answer, their times aside: `timeless(a) === timeless(b)` without
 *  the two texts (a golden grade compares thousands of outcome pairs: ≈ 12 ms of JSON a grade so). */
export const sameTimeless = (a: BOutcome | null | undefined, b: BOutcome | null | undefined): boolean =>
  a && b ? deepEqual({ ...a, ms: 0 }, { ...b, ms: 0 }) : timeless(a) === timeless(b);

/** Kinds a caller passes that the oracle's calls never hold (behave.py _as_kind): a call's `as`
 *  gives its list (or tuple) at a slot as one of them, built from its items: a collections.deque or
 *  a dict's keys view (left a list where an item is unhashable), values view or items view (the items
 *  in a dict keyed by their positions: an items view yields (position, item) pairs), or an
 *  OrderedDict's keys view (`okeys`). Round 30's w05 kept an identity
 *  memo for deques only; w06 counted such inputs. No one-shot iterator: an honest value memo that
 *  reads its argument twice (`tuple(xs)` for the key, then `sum(xs)`) stores a wrong answer under
 *  the right key and hands it to the next list of those items, a bug outside any contract that
 *  passes lists. No array.array: its module is not loaded in the runner, and its import mid-run
 *  would be a sign a body could read. */
export const FOREIGN_KINDS = ["deque", "keys", "values", "items", "okeys"] as const;
export type ForeignKind = (typeof FOREIGN_KINDS)[number];
/** One argument given as a foreign kind (BCall.as): its slot and kind, or a deque's with its maxlen. */
export const ForeignSlot = z.union([z.tuple([z.string(), z.enum(FOREIGN_KINDS)]), z.tuple([z.string(), z.literal("deque"), z.number().int().positive()])]);
export type ForeignSlot = z.infer<typeof ForeignSlot>;

export const BCall = z.object({
  id: z.string(),
  symbol: z.number().int().nonnegative(),
  pos: z.array(BValue),
  kw: z.array(z.tuple([z.string(), BValue])),
  /** The id of an earlier call of the run whose argument objects this call is given, each refilled
   *  in place with this call's own (a list, dict, set or bytearray of the same kind at the same slot;
   *  behave.py _refill): a caller that reuses its list (lib/env/behaviour.ts inPlaceAsks). */
  inplace: z.string().optional(),
  /** Arguments given as a foreign kind (FOREIGN_KINDS): each slot (a position, or `=name`) and kind;
   *  a deque may carry a third item, its `maxlen` (a ring: a full one where it is the items' count). */
  as: z.array(ForeignSlot).optional(),
});
export type BCall = z.infer<typeof BCall>;

export const BehaveSymbol = z.object({ module: z.string(), qualname: z.string() });
export type BehaveSymbol = z.infer<typeof BehaveSymbol>;

export const BehaveLimits = z.object({
  /** Per call (an interval timer in the runner; the sandbox's wall clock bounds the whole run). */
  call_timeout_ms: z.number().int().positive().default(2000),
  /** Per serialized value. */
  max_nodes: z.number().int().positive().default(20_000),
  max_chars: z.number().int().positive().default(200_000),
  /** The runner's stdout, at most (past it the run fails). */
  max_output_bytes: z.number().int().positive().default(4_000_000),
  /** The whole run: this plus call_timeout_ms per call, at most 120 s (× Sandbox.slowdown). */
  base_timeout_ms: z.number().int().positive().default(10_000),
  /** A cold run whose output stays silent this long is stopped (RunOptions.stallMs; behave.py
   *  writes at least once a second while it makes calls): a body that hangs elsewhere or at home,
   *  where no per-call timer runs, costs this rather than the whole run's time (round 13's h30, a
   *  thread pool in a forked worker, took 120 s a grade). BehaveRunOptions.slowestMs raises it. */
  stall_ms: z.number().int().positive().default(30_000),
  memory_mb: z.number().int().positive().default(1024),
});
export type BehaveLimits = z.output<typeof BehaveLimits>;

export interface BehaveRequest {
  symbols: BehaveSymbol[];
  calls: BCall[];
  /** Package roots (relative to the repo) and the project's top-level names (for the serializer). */
  roots: string[];
  project: string[];
  /** Each call this many times (the builder's determinism check). */
  repeat?: number;
  /** The builder's: record the lines each call's first run executes (BehaveRun.coverage). */
  coverage?: boolean;
  /** At home: the calls whose arguments the original left as they were, which a burst's threads
   *  share (the same objects, `self` among them, as a server's handlers share one app's) instead of
   *  each taking a deep copy. */
  shared?: ReadonlySet<string>;
  /** At home: the files (relative to the repo) whose every line, and every C function their code
   *  calls, is a point where a burst's threads take turns: the files the completion changed. The
   *  package's other files take turns as their functions are entered (the original's code, whose
   *  races are the original's); absent (the builder): those alone. */
  fine?: string[];
  /** Latent paths (lib/env/behaviour.ts): one file of the tree (relative to the repo) compiled with
   *  these sites forced to a side (an `if`'s or `x if c else y`'s test made the constant, a `try`'s
   *  body raising what its first handler catches). Never at home. */
  force?: { file: string; sites: ForcedSite[] };
  /** With `force`: the sites in functions are forced from this call on (the calls before it build
   *  the state a forced side meets). */
  force_from?: number;
  /** Latent paths' first run: record the (line, next line) steps of these files' frames
   *  (BehaveRun.arcs). Never at home. */
  arcs?: string[];
  /** Latent paths' first run: these files compiled with their expression sites' values recorded
   *  (an if's, while's or conditional expression's test, an operand, a filter, a bool in a value's
   *  place: BehaveRun.seen), the values going on unchanged. Never at home. */
  seen?: { file: string; sites: SitePlace[] }[];
  /** Latent paths' first run: from call `force_from` on, the clocks these files read by a call
   *  (behave.py _CLOCK_READS: time's, os.times, resource.getrusage, datetime's now and today) answer
   *  moved on, the wall and monotonic ones by wall[0] seconds at call `force_from`, rising
   *  geometrically to wall[1] at the last call, the CPU ones from cpu[0] to cpu[1]: an age since
   *  import or a CPU time across calls meets what long-lived processes read. `over: "history"`
   *  (the run elsewhere): the offsets rise over the history's first block instead, from its first
   *  call to its last, and hold from then on (real clocks before it): a deployment's steady traffic,
   *  which an age summed from per-call gaps meets too, then a burst at the real pace, which a
   *  window of rates meets (round 27's a10). Never at home. */
  jump?: { files: string[]; wall: [number, number]; cpu: [number, number]; over?: "history" };
  /** A history (the run elsewhere, lib/env/behaviour.ts): these calls made in turn, in blocks (each
   *  block's `n` calls before call `at`), their outcomes not written, until they are all made or `ms`
   *  of its own time has passed since the first (the time the runner waited for a CPU not counted,
   *  up to HISTORY_WALL_CAP × `ms` of wall time: BehaveRun.historyWaited); the end line says how many were made (BehaveRun.history). A call
   *  with an `inplace` (any id) is given its symbol's buffer (its first history call's objects), refilled in place
   *  (behave.py _history). The calls `record` names have their outcomes written
   *  (BehaveRun.historyOutcomes: the refills judged against twins, lib/env/refills.ts). The calls of
   *  a symbol `keeps` names (its original leaves its arguments as they are) have their arguments
   *  watched, the history's and the main loop's, while they run and after (BehaveRun.argsChanged,
   *  argsChangedAfter; `seed` draws when a held call's objects are checked again: behave.py _Watch).
   *  Never at home. */
  history?: { blocks: { at: number; n: number }[]; calls: BCall[]; ms: number; record?: string[]; keeps?: number[]; seed?: number };
  /** Which calls' first answers are, or hold, one of their arguments or an earlier call's argument or
   *  answer, or an item of one (a list, dict, set, bytearray or deque: behave.py _Aliasing;
   *  BehaveRun.aliased): the original's, the graded run's and the run elsewhere's, compared by
   *  lib/env/behaviour.ts. */
  alias?: boolean;
}

/** A history's wall time is at most this many times its `ms` (sent as its `wall_cap`; behave.py _history_over): its own
 *  time (the time the runner waited for a CPU not counted) is judged, up to this. */
export const HISTORY_WALL_CAP = 3;

/** Where a site of a file is (lib/tasks/pyast.py latent_sites finds them; lib/tasks' LatentSite is
 *  this with what the grader needs to judge which sides ran). */
export const SitePlace = z.object({
  /** operand, compif, value: one operand of an and/or test, a comprehension's filter or a bool
   *  in a value's place (a comparison, a `not`, a call that answers a bool; forced only where the
   *  value met is a bool), found by its whole span; index: a constant table's index of the world's
   *  (forced to the entry after or before the one met, where it is an int index or a key), found by the subscript's span; case: a match's case (found by its pattern's
   *  place). */
  kind: z.enum(["if", "ifexp", "while", "try", "operand", "compif", "value", "index", "case"]),
  line: z.number().int(),
  /** The node's column as Python's ast gives it (a UTF-8 byte offset). */
  col: z.number().int(),
  end_line: z.number().int(),
  end_col: z.number().int(),
  /** In a function: forced from request.force_from on; at module level: from the import on. */
  in_function: z.boolean(),
  /** try: the lines of the body's statements that side false skips (its imports and bare lookups). */
  skip: z.array(z.number().int()).optional(),
});

export type SitePlace = z.infer<typeof SitePlace>;

/** A site forced to a side (BehaveRequest.force). */
export const ForcedSite = SitePlace.extend({ side: z.boolean() });
export type ForcedSite = z.infer<typeof ForcedSite>;

export interface BehaveRun {
  /** call id → one outcome per repeat; absent when the run failed as a whole. */
  outcomes: Map<string, BOutcome[]> | null;
  /** The environment variables the package looked up by name in this run (the graded run only). */
  env?: EnvLookups;
  /** Why the run as a whole is not trusted (null when it is). */
  failure: string | null;
  /** call id → the lines its first run executed (request.coverage only). */
  coverage?: Map<string, string[]>;
  /** call id → the str regexes the code its first run executed works with: compiled patterns in the
   *  executed frames' module globals (and their classes' attributes) and those compiled or looked up
   *  through re's functions during the call (request.coverage only; flags without re.UNICODE). */
  regexes?: Map<string, BehaveRegex[]>;
  /** The keys of the tables (dicts and sets of 16–20,000 entries) in the executed code's module
   *  globals, up to 48 a table and 512 a run (request.coverage only): strings and ints (as digits). */
  literals?: { strings: string[]; ints: string[] };
  /** What the calls asked of the machine (the audit hook's lines, in the order written; empty: nothing). */
  probes?: BehaveProbe[];
  /** request.arcs: "FILE_INDEX:LINE:NEXT_LINE", each step once (FILE_INDEX into request.arcs). */
  arcs?: string[];
  /** request.seen: "FILE_INDEX:SITE_INDEX:SIDE" (SIDE 1 or 0), each side a site's value took (a
   *  bool, or a test's value of a plain type), once. */
  seen?: string[];
  /** request.history: how many of its calls were made. */
  history?: number;
  /** request.history: the ms of wall time it was given past its `ms` for the time the runner's
   *  thread waited for a CPU (behave.py _history_over: its time is its own, up to
   *  HISTORY_WALL_CAP times `ms` of wall time). */
  historyWaited?: number;
  /** request.history: the ms of the process's CPU its blocks spent (behave.py _history). */
  historyCpu?: number;
  /** request.history.keeps: how many watched calls (the history's or the main loop's) changed an
   *  argument's contents while they ran (shallow: behave.py _watched, _same_item), and the first's id. */
  argsChanged?: { n: number; first: string };
  /** request.history.keeps: how many watched calls had an argument's contents changed after they
   *  returned, by a later call (behave.py _Watch), and the first's id. */
  argsChangedAfter?: { n: number; first: string };
  /** request.alias: the calls whose first answer is, or holds, an argument or an earlier call's
   *  argument or answer, or an item of one. */
  aliased?: string[];
  /** request.history.record: the outcome of each recorded history call that was made, by id (its
   *  answer and its arguments after the call). */
  historyOutcomes?: Map<string, BOutcome>;
  run: RunResult;
  path: "warm" | "cold";
}

const StartLine = z.object({ ev: z.literal("start") }).strict();
export const BehavePattern = z.object({ pattern: z.string().max(2000), flags: z.number().int().nonnegative() }).strict();
export type BehavePattern = z.infer<typeof BehavePattern>;
/** A regex a call reached; `used`: the call invoked one of its methods (match, sub, ...: a C call of a
 *  Pattern's method seen by sys.setprofile), otherwise it only sat in the executed code's modules. */
export type BehaveRegex = BehavePattern & { used: boolean };
export const CallLine = z.object({
  ev: z.literal("call"), id: z.string(), out: z.array(BOutcome), cov: z.array(z.string()).max(100_000).optional(),
  /** indices into the run's pattern table, which each call's re_new extends (behave.py's _Coverage.take_patterns) */
  re: z.array(z.number().int().nonnegative()).max(64).optional(),
  re_new: z.array(z.tuple([z.string().max(2000), z.number().int().nonnegative()])).max(256).optional(),
  re_used: z.array(z.number().int().nonnegative()).max(64).optional(),
  /** table keys first seen in this call (behave.py's _Coverage._table_keys) */
  lit_new: z.array(z.tuple([z.enum(["s", "i"]), z.string().max(40)])).max(512).optional(),
}).strict();
/** The graded run's end: how many calls, and the environment variables the package looked up by
 *  name (found there or not: behave.py _EnvLookups), which the run at home is given the other way. */
const EnvLookups = z.object({ found: z.array(z.string().max(256)).max(64), missing: z.array(z.string().max(256)).max(64), defaults: z.record(z.string().max(256)).optional(), whole: z.literal(true).optional() }).strict();
export type EnvLookups = z.infer<typeof EnvLookups>;
/** [how many, the first's id] (behave.py _Watch). */
const Counted = z.tuple([z.number().int().positive(), z.string().max(200)]);
const EndLine = z.object({ ev: z.literal("end"), n: z.number().int(), env: EnvLookups.optional(), arcs: z.array(z.string().regex(/^\d+:\d+:\d+$/).max(40)).max(50_000).optional(), seen: z.array(z.string().regex(/^\d+:\d+:[01]$/).max(40)).max(50_000).optional(), history: z.number().int().nonnegative().optional(), history_waited: z.number().int().nonnegative().optional(), history_cpu: z.number().int().nonnegative().optional(), changed: Counted.optional(), changed_after: Counted.optional(), aliased: z.array(z.string().max(200)).max(50_000).optional() }).strict();
/** What a call asked of the machine, seen by the runner's audit hook (behave.py _probe_hook): the
 *  call's id and what it did ("open /proc/self/status", "host name (socket.gethostname)"). */
const ProbeLine = z.object({ ev: z.literal("probe"), id: z.string().max(200), what: z.string().max(300) }).strict();
/** A recorded history call's outcome (BehaveRequest.history.record; behave.py _history), its
 *  arguments after the call "=" where they are as the runner built them (the call's own, put back
 *  by parseBehaveOutput before this schema reads the line). */
const HistLine = z.object({ ev: z.literal("hist"), id: z.string().max(200), out: BOutcome }).strict();
export type BehaveProbe = Omit<z.infer<typeof ProbeLine>, "ev">;
/** behave.py writes at most 16; a run with more wrote them itself and is not trusted. */
const MAX_PROBE_LINES = 16;

/** A probe's kind, what an oracle allows (Oracle.machine): the verb and the machine's top folder
 *  ("open /etc", "list /proc", "open a test file"), or the event's kind ("host name", "process"). */
export function probeKind(what: string): string {
  const path = /^(open|list) (\/[^/ ]*)/.exec(what);
  if (path) return what.endsWith("(a test file of the tree)") ? `${path[1]} a test file` : `${path[1]} ${path[2]}`;
  return what.split(" (")[0]!;
}
type CallLine = z.output<typeof CallLine>;

// The call lines' fast path (zod's safeParse of a line cost ≈ 10 ms of host CPU a micro grade):
// it accepts exactly what CallLine accepts without cov/re/lit (the builder's, left to zod),
// and returns the copy zod returns (fresh objects, keys in schema order); on anything else it
// returns null and zod decides, and words the failure. test/behave-parse.test.ts holds it to the
// schemas on real and fuzzed lines.
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
/** Whether `o`'s own keys are `need` (all of them) and some of `may`, nothing else. */
const keysAre = (o: Record<string, unknown>, need: readonly string[], may: readonly string[] = []): boolean => {
  const keys = Object.keys(o);
  let found = 0;
  for (const k of keys) {
    if (need.includes(k)) found++;
    else if (!may.includes(k)) return false;
  }
  return found === need.length;
};
const SCALAR_TAGS: ReadonlySet<unknown> = new Set(["int", "float", "str", "bytes", "bytearray", "class"]);
const SEQ_TAGS: ReadonlySet<unknown> = new Set(["list", "tuple", "set", "frozenset"]);
const STD_SET: ReadonlySet<unknown> = new Set(STD_CLASSES);
const isNumber = (x: unknown): x is number => typeof x === "number" && !Number.isNaN(x);
function fastValues(xs: unknown): BValue[] | null {
  if (!Array.isArray(xs)) return null;
  const out: BValue[] = new Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const v = fastValue(xs[i]);
    if (!v) return null;
    out[i] = v;
  }
  return out;
}
/** [string, BValue][] (postkw, an instance's dict). */
function fastNamed(xs: unknown): [string, BValue][] | null {
  if (!Array.isArray(xs)) return null;
  const out: [string, BValue][] = new Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const p: unknown = xs[i];
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== "string") return null;
    const v = fastValue(p[1]);
    if (!v) return null;
    out[i] = [p[0], v];
  }
  return out;
}
function fastValue(x: unknown): BValue | null {
  if (!isRecord(x)) return null;
  const t = x.t;
  if (t === "none") return keysAre(x, ["t"]) ? { t } : null;
  if (t === "bool") return keysAre(x, ["t", "v"]) && typeof x.v === "boolean" ? { t, v: x.v } : null;
  if (SCALAR_TAGS.has(t)) return keysAre(x, ["t", "v"]) && typeof x.v === "string" ? { t: t as "int", v: x.v } : null;
  if (SEQ_TAGS.has(t)) {
    const v = keysAre(x, ["t", "v"]) ? fastValues(x.v) : null;
    return v ? { t: t as "list", v } : null;
  }
  if (t === "dict") {
    if (!keysAre(x, ["t", "v"]) || !Array.isArray(x.v)) return null;
    const v: [BValue, BValue][] = new Array(x.v.length);
    for (let i = 0; i < x.v.length; i++) {
      const p: unknown = x.v[i];
      if (!Array.isArray(p) || p.length !== 2) return null;
      const k = fastValue(p[0]);
      const w = k && fastValue(p[1]);
      if (!w) return null;
      v[i] = [k!, w];
    }
    return { t, v };
  }
  if (t === "complex") {
    const v = x.v;
    return keysAre(x, ["t", "v"]) && Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "string" ? { t, v: [v[0], v[1]] } : null;
  }
  if (t === "std") return keysAre(x, ["t", "cls", "v"]) && STD_SET.has(x.cls) && typeof x.v === "string" ? { t, cls: x.cls as StdClass, v: x.v } : null;
  if (t === "inst") {
    if (!keysAre(x, ["t", "cls"], ["base", "dict", "opaque", "factory"]) || typeof x.cls !== "string") return null;
    const out: Extract<BValue, { t: "inst" }> = { t, cls: x.cls };
    if (Object.hasOwn(x, "base")) {
      const b = fastValue(x.base);
      if (!b) return null;
      out.base = b;
    }
    if (Object.hasOwn(x, "dict")) {
      const d = fastNamed(x.dict);
      if (!d) return null;
      out.dict = d;
    }
    if (Object.hasOwn(x, "opaque")) {
      if (typeof x.opaque !== "string") return null;
      out.opaque = x.opaque;
    }
    if (Object.hasOwn(x, "factory")) {
      if (typeof x.factory !== "string" && x.factory !== null) return null;
      out.factory = x.factory;
    }
    return out;
  }
  return null;
}
function fastOutcome(x: unknown): BOutcome | null {
  if (!isRecord(x)) return null;
  const k = x.k;
  const ms = Object.hasOwn(x, "ms") ? (isNumber(x.ms) ? { ms: x.ms } : null) : {};
  if (!ms) return null;
  if (k === "return" || k === "raise") {
    if (!keysAre(x, ["k", k === "return" ? "ret" : "exc", "post", "postkw"], ["ms"])) return null;
    const post = fastValues(x.post);
    const postkw = post && fastNamed(x.postkw);
    if (!postkw) return null;
    if (k === "return") {
      const ret = fastValue(x.ret);
      return ret ? { k, ret, post: post!, postkw, ...ms } : null;
    }
    const e = x.exc;
    if (!isRecord(e) || !keysAre(e, ["type", "builtin"], ["own"]) || typeof e.type !== "string" || typeof e.builtin !== "string") return null;
    const exc: z.output<typeof BExc> = { type: e.type, builtin: e.builtin };
    if (Object.hasOwn(e, "own")) {
      if (!Array.isArray(e.own) || !e.own.every((n) => typeof n === "string")) return null;
      exc.own = [...(e.own as string[])];
    }
    return { k, exc, post: post!, postkw, ...ms };
  }
  if (k === "unserializable" || k === "error") return keysAre(x, ["k", "why"], ["ms"]) && typeof x.why === "string" ? { k, why: x.why, ...ms } : null;
  if (k === "timeout") return keysAre(x, ["k"], ["ms"]) ? { k, ...ms } : null;
  return null;
}
/** A call line as CallLine.parse returns it, or null (see above). */
export function fastCallLine(x: unknown): CallLine | null {
  if (!isRecord(x) || x.ev !== "call" || !keysAre(x, ["ev", "id", "out"]) || typeof x.id !== "string" || !Array.isArray(x.out)) return null;
  const out: BOutcome[] = new Array(x.out.length);
  for (let i = 0; i < x.out.length; i++) {
    const o = fastOutcome(x.out[i]);
    if (!o) return null;
    out[i] = o;
  }
  return { ev: "call", id: x.id, out };
}

/** A call line's outcomes with the arguments after the call written "=" (behave.py run_one's
 *  `elide`: they serialized exactly as the request gave them) put back as the request's. */
function withArguments(line: unknown, call: BCall): unknown {
  if (!isRecord(line) || !Array.isArray(line.out)) return line;
  for (const o of line.out) {
    if (!isRecord(o)) continue;
    if (o.post === "=") o.post = call.pos;
    if (o.postkw === "=") o.postkw = call.kw;
  }
  return line;
}

/** Parses the runner's stdout strictly: start, one line per call in order, end; anything else,
 *  a duplicate, a missing call or an oversized line fails the whole run. */
export function parseBehaveOutput(stdout: string, calls: BCall[], repeat: number, maxLine = 2_000_000, record: ReadonlyMap<string, BCall> = new Map()): { outcomes: Map<string, BOutcome[]> | null; coverage?: Map<string, string[]>; regexes?: Map<string, BehaveRegex[]>; literals?: BehaveRun["literals"]; probes?: BehaveProbe[]; env?: EnvLookups; arcs?: string[]; seen?: string[]; history?: number; historyWaited?: number; historyCpu?: number; argsChanged?: { n: number; first: string }; argsChangedAfter?: { n: number; first: string }; aliased?: string[]; historyOutcomes?: Map<string, BOutcome>; failure: string | null } {
  const all = stdout.split("\n").filter((l) => l.length > 0);
  const fail = (why: string) => ({ outcomes: null, failure: why });
  // the audit hook's lines (behave.py _probe_hook) come between start and end, wherever the call
  // that made them was: taken out first, each held to ProbeLine, at most MAX_PROBE_LINES a run
  const probes: BehaveProbe[] = [];
  const lines: string[] = [];
  // (and the recorded history calls' lines: each one `record` names, once)
  const historyOutcomes = new Map<string, BOutcome>();
  for (const l of all) {
    if (l.startsWith('{"ev":"hist"')) {
      let h;
      try {
        const line: unknown = l.length <= maxLine ? JSON.parse(l) : null;
        const asked = isRecord(line) && typeof line.id === "string" ? record.get(line.id) : undefined;
        if (asked && isRecord(line)) withArguments({ out: [line.out] }, asked);
        h = line !== null ? HistLine.safeParse(line) : null;
      } catch {
        h = null;
      }
      if (!h?.success || !record.has(h.data.id) || historyOutcomes.has(h.data.id)) return fail("an unreadable or unasked history line");
      if (lines.length === 0) return fail("a history line before the runner's start line");
      historyOutcomes.set(h.data.id, h.data.out);
      continue;
    }
    if (!l.startsWith('{"ev":"probe"')) {
      lines.push(l);
      continue;
    }
    let p;
    try {
      p = l.length <= 1000 ? ProbeLine.safeParse(JSON.parse(l)) : null;
    } catch {
      p = null;
    }
    if (!p?.success) return fail("an unreadable probe line");
    if (lines.length === 0) return fail("a probe line before the runner's start line");
    if (probes.length >= MAX_PROBE_LINES) return fail(`more than ${MAX_PROBE_LINES} probe lines`);
    probes.push({ id: p.data.id, what: p.data.what });
  }
  if (lines.length !== calls.length + 2) return fail(`the runner wrote ${lines.length} lines, ${calls.length + 2} were due`);
  const parse = (l: string): unknown => {
    if (l.length > maxLine) throw new Error(`a line of ${l.length} characters`);
    return JSON.parse(l);
  };
  try {
    if (!StartLine.safeParse(parse(lines[0]!)).success) return fail("the first line is not the runner's start line");
    const end = EndLine.safeParse(parse(lines.at(-1)!));
    if (!end.success || end.data.n !== calls.length) return fail("the last line is not the runner's end line for these calls");
    const outcomes = new Map<string, BOutcome[]>();
    const coverage = new Map<string, string[]>();
    const regexes = new Map<string, BehaveRegex[]>();
    const table: BehavePattern[] = [];
    const literals = { strings: [] as string[], ints: [] as string[] };
    // (the switch read once a run: process.env is a slow read, ≈ 4,000 of them a run read per line)
    const fastPaths = behaveFastPaths();
    for (let i = 0; i < calls.length; i++) {
      const j = withArguments(parse(lines[i + 1]!), calls[i]!);
      const fast = fastPaths ? fastCallLine(j) : null;
      const r = fast ? { success: true as const, data: fast } : CallLine.safeParse(j);
      if (!r.success) return fail(`line ${i + 2}: not a call record`);
      if (r.data.id !== calls[i]!.id) return fail(`line ${i + 2}: another call's record where ${calls[i]!.id} was due`);
      if (r.data.out.length !== repeat) return fail(`line ${i + 2}: ${r.data.out.length} outcomes, ${repeat} were due`);
      outcomes.set(r.data.id, r.data.out);
      if (r.data.cov) coverage.set(r.data.id, r.data.cov);
      for (const [pattern, flags] of r.data.re_new ?? []) table.push({ pattern, flags });
      for (const [kind, text] of r.data.lit_new ?? []) (kind === "s" ? literals.strings : literals.ints).push(text);
      if (literals.strings.length + literals.ints.length > 512) return fail(`line ${i + 2}: more than 512 table keys in the run`);
      if (table.length > 256) return fail(`line ${i + 2}: more than 256 regexes in the run's table`);
      if (r.data.re) {
        const bad = r.data.re.find((j) => j >= table.length);
        if (bad !== undefined) return fail(`line ${i + 2}: regex ${bad} is not in the run's table (${table.length})`);
        const used = new Set(r.data.re_used ?? []);
        if ([...used].some((j) => !r.data.re!.includes(j))) return fail(`line ${i + 2}: a used regex the call did not reach`);
        regexes.set(r.data.id, r.data.re.map((j) => ({ ...table[j]!, used: used.has(j) })));
      }
    }
    return { outcomes, coverage, regexes, literals, probes, ...(end.data.env ? { env: end.data.env } : {}), ...(end.data.arcs ? { arcs: end.data.arcs } : {}), ...(end.data.seen ? { seen: end.data.seen } : {}), ...(end.data.history !== undefined ? { history: end.data.history } : {}), ...(end.data.history_waited ? { historyWaited: end.data.history_waited } : {}), ...(end.data.history_cpu !== undefined ? { historyCpu: end.data.history_cpu } : {}), ...(end.data.changed ? { argsChanged: { n: end.data.changed[0], first: end.data.changed[1] } } : {}), ...(end.data.changed_after ? { argsChangedAfter: { n: end.data.changed_after[0], first: end.data.changed_after[1] } } : {}), ...(end.data.aliased ? { aliased: end.data.aliased } : {}), ...(historyOutcomes.size ? { historyOutcomes } : {}), failure: null };
  } catch (e) {
    return fail(`unreadable output: ${(e as Error).message.slice(0, 200)}`);
  }
}

/** Whether the grader's fast paths are on (fastCallLine, the request's calls serialized once per
 *  array); COMPOSER_LAB_BEHAVE_FAST=0: zod alone and no memo, the reference they are tested against
 *  (test/behave-verdict.test.ts). */
export const behaveFastPaths = (): boolean => process.env.COMPOSER_LAB_BEHAVE_FAST !== "0";

/** `make()` once per `key` in `memo` while the fast paths are on (`fast`: the switch where the caller
 *  read it once for many keys), else every time (the reference). */
export function fastMemo<K extends object, V>(memo: WeakMap<K, V>, key: K, make: () => V, fast = behaveFastPaths()): V {
  if (!fast) return make();
  let v = memo.get(key);
  if (v === undefined) memo.set(key, (v = make()));
  return v;
}

// A request's calls as JSON, once per array (an oracle's calls, which checkBehaviour builds once
// per oracle, are ≈ 100 KB for a micro task: serializing them was ≈ 1 ms a grade). A history's calls,
// new in every grade, are one JSON.stringify (7 MB for markupsafe's: 100–130 ms memoized call by
// call and joined, 40–75 ms so).
const callsText = new WeakMap<BCall, string>();
const callsJson = (calls: BCall[]): string => {
  // (the fast paths' switch read once an array: process.env is a slow read, per call ≈ 5 ms a grade)
  const fast = behaveFastPaths();
  return `[${calls.map((c) => fastMemo(callsText, c, () => JSON.stringify(c), fast)).join(",")}]`;
};

/** A value as a history call carries it (behave.py build), as JSON text: a tree of ints within
 *  ±2^53, strs, bools, None and lists of them as JSON's own values, which json.loads makes the very
 *  objects the call takes; anything else tagged, whole (a float, a tuple, a dict; a list holding one).
 *  A JSON object is never plain, so the two never meet: the text is as injective as the tagged one.
 *  Why: a history is 8,192 calls of mutated arguments, ≈ 7 MB tagged for a micro task's lists of
 *  ints, and the runner's json.loads alone took 100–170 ms of it (1.3 MB and 32–46 ms compact). */
const CANONICAL_INT = /^(?:0|-?[1-9]\d*)$/;
function plainJson(v: BValue): string | undefined {
  switch (v.t) {
    case "none": return "null";
    case "bool": return v.v ? "true" : "false";
    case "str": return JSON.stringify(v.v);
    case "int": {
      // (a canonical decimal of up to 15 characters is its own JSON: no round trip through a double)
      if (v.v.length <= 15 && CANONICAL_INT.test(v.v)) return v.v;
      const n = v.v.length <= 16 ? Number(v.v) : NaN;
      return Number.isSafeInteger(n) ? String(n) : undefined;
    }
    case "list": {
      const parts: string[] = new Array(v.v.length);
      for (let i = 0; i < v.v.length; i++) if ((parts[i] = plainJson(v.v[i]!)!) === undefined) return undefined;
      return `[${parts.join(",")}]`;
    }
    default: return undefined;
  }
}
const compactJson = (v: BValue): string => plainJson(v) ?? JSON.stringify(v);
const historyText = new WeakMap<object, string>();

/** A history call's symbol and arguments as the request carries them, `[symbol, pos, kw]` with each
 *  argument compact (plainJson), made once per call object: the history's own test of "an input
 *  already met" (lib/env/behaviour.ts historyOf) compares these texts, and the request joins them. */
export function historyCallText(c: Pick<BCall, "symbol" | "pos" | "kw">): string {
  // (always memoized: the dedupe and the request share one text, not a fast path of either)
  let text = historyText.get(c);
  if (text === undefined) historyText.set(c, (text = `[${c.symbol},[${c.pos.map(compactJson).join(",")}],[${c.kw.map(([k, v]) => `[${JSON.stringify(k)},${compactJson(v)}]`).join(",")}]]`));
  return text;
}

/** A history's calls in the request, `[[id, symbol, pos, kw], ...]`, a fifth field `1` where a call
 *  names an `inplace` (behave.py _history: its symbol's buffer, its first history call's objects, refilled), `0`
 *  where it does not but has a sixth, its `as`. */
const historyJson = (calls: BCall[]): string => `[${calls.map((c) => `[${JSON.stringify(c.id)},${c.inplace || c.as ? `${historyCallText(c).slice(1, -1)},${c.inplace ? 1 : 0}${c.as ? `,${JSON.stringify(c.as)}` : ""}]` : historyCallText(c).slice(1)}`).join(",")}]`;

const layoutOf = async (workdir: string): Promise<RepoLayout | null> => {
  try {
    return await repoLayoutAsync(workdir);
  } catch {
    return null;
  }
};


/** A run in another process's circumstances (runBehaviour's `shift`): its runner's pid moved on by
 *  `pids`, its wall clock by `days` or by `clocks` (libfaketime, where the sandbox's /usr has it; a
 *  cold run, or a fork of the elsewhere zygote, which preloaded it). With `machine`, on another machine too: another host
 *  name, boot id and boot time (bwrap: RunOptions.hostname, procFiles), and a copy of the tree
 *  whose files' times are moved on by `days` (another inode, another mtime). What a value stable
 *  "across processes" must survive (round 9, a43 a50: keys salted with a file's mtime, the boot id). */
export interface RunShift {
  pids: number;
  days: number;
  /** The monotonic clocks (time.monotonic, perf_counter and their _ns) run this many times faster
   *  than the real one from the moment the runner starts (behave.py, before the package is
   *  imported): an age since import meets hours within milliseconds (round 11's a06). Not used by
   *  the behavioural check's run elsewhere: an honest deadline or watchdog times out under it
   *  (round 12's h11 h12 h26). */
  speed?: number;
  machine?: boolean;
  /** The wall clocks the calls run under, in consecutive blocks of about equal size (the first one
   *  at import too), each moved on from now by its `seconds`, in its zone (behave.py moves the clock
   *  between blocks). Absent: one clock, `days` on, the environment's zone. */
  clocks?: Clock[];
  /** Outside the sandbox's habits too (the behavioural check's run elsewhere, round 11): an
   *  interpreter without -I -B, another PATH and HOME, another working directory, no per-call
   *  timer, fds 1 and 2 on different files, no RLIMIT_CPU. What a body that tests for "am I being
   *  graded" would read as "no". */
  elsewhere?: boolean;
  /** On a deployment's machine (the behavioural check's run at home; implies `elsewhere`'s habits):
   *  the real clock (no libfaketime, no moved times, no other kernel: nothing of the run elsewhere's
   *  own), the zone of the machine's /etc/localtime (no TZ variable), and a host name, user,
   *  accounts, machine id and paths drawn by the grader (machine.ts drawHome). Ignores `days`,
   *  `clocks` and `machine`. */
  home?: Home;
  /** The variables the package looked up by name in the graded run, each given the other way here
   *  (machine.ts flipEnv; the run elsewhere's, cold). */
  env?: EnvLookups;
  /** The variables the original read (Oracle.env), at the graded run's values here, after `env`'s
   *  flip and the home's drawn environment (machine.ts keepEnv). */
  keep?: { names: string[]; whole: boolean };
  /** What the values `env`'s flip sets are drawn from (machine.ts deployedValue; per grade). */
  values?: string;
  /** The process state from the runner's start, before the package's import (the run elsewhere's:
   *  machine.ts StartState); not at home, whose set-ups change it mid-run. */
  state?: StartState;
  /** With `elsewhere`'s habits, a deployment's defaults where the run elsewhere changes them (the
   *  twin that makes a second history: plainTwin): hashes randomized, not optimized, no TZ (UTC), on
   *  a deployment's machine as the run at home's draw has it — its environment, its limit on open
   *  files, its user's home folder (a writable tmpfs) and where the tree, the runner and its request
   *  lie (a copy of the tree: round 39's w16 was right where the tree lay at either of the grader's
   *  two paths). */
  deployed?: { env: Record<string, string>; nofile: number; home: string; tree: string; harness: string; cfg: string };
}

/** How the run elsewhere differs from the graded run beyond its interpreter (another hash seed):
 *  another pid (a fresh PID namespace numbers every runner alike; round 8's a16), another time
 *  (+4,000 days: round 8's a36, a key holding the date; round 11's a04 a55, a date past 2028 or the
 *  next decade), another machine (host name, user, boot and machine ids, kernel release, CPUs, a
 *  copy of the tree with other inodes and mtimes: rounds 9–10), outside the sandbox's habits
 *  (interpreter flags, PATH, HOME, working directory, per-call timer, fds, RLIMIT_CPU: round 11's
 *  a01 a07 a14 a38 a45 a49, bodies right only where the process looks graded) and in a login
 *  session's environment (round 12's a08 a09). The monotonic clocks run at their own pace: sped up
 *  (RunShift.speed, round 11's a06, an answer that changes 20 s after import) they made honest bodies
 *  with a deadline or a watchdog time out (round 12's h11 h12 h26); an age and a timeout read the
 *  same clock, so no clock can tell them apart. */
export const ELSEWHERE_SHIFT: RunShift = { pids: 37, days: 4000, machine: true, elsewhere: true };

/** The run at home (beside the run elsewhere, its sampled calls again): on a
 *  deployment's machine, drawn per grade (machine.ts drawHome: host name, user, accounts, paths,
 *  a zone of tzdata's in /etc/localtime), at the real time, with the run elsewhere's habits (no
 *  -I -B, a login session's environment, no per-call timer). What it meets: a body right only where
 *  a grader runs — UTC (the graded run), or a clock, zone change, TZ rule, user or host name of the
 *  run elsewhere's (round 14's a05 a10 a11 a14) — and wrong at home in another zone. */
export const HOME_SHIFT: RunShift = { pids: 37, days: 0, elsewhere: true };

/** The run elsewhere's plain twin, which makes a history too (lib/env/behaviour.ts history_plain): a
 *  cold run with the run elsewhere's habits (no -I -B, another working directory and pid) and a
 *  deployment's defaults for everything the run elsewhere changes (RunShift.deployed: the real
 *  clock, hashes randomized, not optimized, UTC), on the machine `home` draws (its environment
 *  without TZ and LD_PRELOAD: UTC, no allocator; its open-file limit, home folder and paths), with
 *  the names the original reads kept. Every condition the run elsewhere changes is then met by a
 *  history on both of its sides, so a body wrong after thousands of calls except where it reads one
 *  (the pinned hash seed, -O, a zone, a path, a moved clock, a fixed variable read late: round 39)
 *  meets the other side in a history too. */
export function plainTwin(home: Home, keep?: { names: string[]; whole: boolean }): RunShift {
  const env = Object.fromEntries(Object.entries(home.env).filter(([n]) => n !== "TZ" && n !== "LD_PRELOAD"));
  return { pids: 37, days: 0, elsewhere: true, ...(keep ? { keep } : {}), deployed: { env, nofile: home.nofile, home: home.home, tree: home.tree, harness: home.harness, cfg: home.cfg } };
}

/** The behavioural check's runs elsewhere and at home drawn from `seed` (the grader's per grade:
 *  lib/env/behaviour.ts; the builder's per task, to find the original's calls whose answers depend
 *  on where they ran: lib/tasks/oracle.ts). `env`: the graded run's lookups, flipped elsewhere
 *  (flipEnv) and, for half the names found (drawn), unset at home; `keep`: the names the original
 *  read, at the graded run's values in both (keepEnv). */
export function drawShifts(seed: Buffer, sandbox: Pick<Sandbox, "name">, opts: { env?: EnvLookups; keep?: { names: string[]; whole: boolean }; asRoot?: boolean; stateAt?: number } = {}): { away: RunShift; home: RunShift } {
  const { env, keep } = opts;
  // (root at home only where uid 0 is the sandbox's user namespace's: bwrap; a container's uid 0 is its root)
  // (each variable the package looked up by name, the other way in the run elsewhere; the run at
  // home keeps its drawn environment, a body wrong only where a variable is as the graded run had
  // it meeting the draw that has it so, but for half the names found, drawn, unset: a body wrong
  // only where one is set and another is not meets that there. A missed one is set at home only in
  // a short window in the middle (environ3, below): from the start, a body's escape keyed on one,
  // as PYTEST_CURRENT_TEST, would fire wherever the set-ups are; round 19's a10 and round 20's a03
  // a04 paid so)
  const home = drawHome(seed, { root: sandbox.name === "bwrap", asRoot: opts.asRoot, stateAt: opts.stateAt });
  const half = (n: string) => (createHmac("sha256", seed).update(`env ${n}`).digest()[0]! & 1) === 1;
  if (env) home.env = flipEnv(home.env, { found: env.found.filter(half), missing: [] });
  const values = createHmac("sha256", seed).update("values").digest("hex");
  // (and the missed ones set at home as the run elsewhere sets them, in a window of the run (the
  // environ3 set-up), none the steps before change: a missed one set meets the set-ups and
  // unoptimized code, and every set-up meets it unset too; round 23's a45 a46, round 22's a18b)
  if (env) {
    const stepped = new Set([...Object.keys(home.setup.environ[0]), ...Object.keys(home.setup.environ[1])]);
    home.setup.environ[2] = Object.fromEntries(Object.entries(flipOf({ ...env, found: [] }, values).set).filter(([n]) => !stepped.has(n)));
  }
  // (the run elsewhere with a process state from its start: the home's other draw of it)
  return { away: { ...ELSEWHERE_SHIFT, clocks: drawClocks(seed, ELSEWHERE_SHIFT.days), state: home.setup.atStart, ...(env ? { env, values } : {}), ...(keep ? { keep } : {}) }, home: { ...HOME_SHIFT, home, ...(keep ? { keep } : {}) } };
}

/** A copy of `workdir` whose every file and folder has its times moved on by `days`. */
function movedCopy(workdir: string, days: number): { path: string; remove: () => void } {
  const dir = transientDir("behave-moved-");
  cpSync(workdir, dir.path, { recursive: true, verbatimSymlinks: true });
  if (days) moveTimes(dir.path, days);
  return dir;
}

/** A plain run's environment (the sandbox's base variables and a login session's): the graded run's,
 *  and the one the builder replayed the original in, so the original's answers hold for its values. */
export const GRADED_ENV: Readonly<Record<string, string>> = baseEnv({ ...SESSION_ENV });

export interface BehaveRunOptions {
  pyenv?: PyEnv | null;
  /** A plain run: false runs it cold (default warm where bwrap's warm grader works). A run
   *  elsewhere: true forks it from the warm grader's elsewhere zygote (default cold). */
  warm?: boolean;
  masks?: MaskSpec[];
  shift?: RunShift;
  /** The slowest graded time of the run's calls: the run may stay silent STALL_FACTOR× that (a
   *  burst makes one call from up to 32 threads) where that is over BehaveLimits.stall_ms;
   *  Infinity: no stall clock (a run of the original whose calls' times are not known). */
  slowestMs?: number;
}

/** How many times a call's graded time a run may stay silent for (a 32-thread burst of it, twice over). */
export const STALL_FACTOR = 64;

/** How `calls` calls split over `clocks` (RunShift.clocks): consecutive blocks of about equal size,
 *  each with its first call's index, its size, its offset and its zone ("UTC0": none given). */
export function clockBlocks(clocks: Clock[], calls: number): { at: number; calls: number; seconds: number; tz: string }[] {
  const start = (j: number) => Math.floor((j * calls) / clocks.length);
  return clocks.map((c, j) => ({ at: start(j), calls: start(j + 1) - start(j), seconds: c.seconds, tz: c.tz ?? "UTC0" }));
}

const PY_KEYWORDS = new Set("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(" "));
const PY_NAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;
const pyName = (part: string) => PY_NAME.test(part) && !PY_KEYWORDS.has(part);
/** The run at home's entry script and what its request says of it (behave.py _home_steps). */
export interface HomeEntry {
  /** the script's text (its file is `home.entry`, the runner `home.runner + ".py"` beside it) */
  text: string;
  /** "symbol|positional count|keyword names" → [route, the names from the script's global to the
   *  function]: a call of that shape is written out on a line of its own */
  named: Record<string, [number, string[]]>;
  /** how many copies of each call line the script has (the calls take turns among them) */
  copies: number;
}

/**
 * The run at home's entry script, made per run, as a deployment's script looks to the package it
 * calls: a file of a drawn name whose first lines (after a docstring or none) import the runner
 * (behave.py under a drawn module name beside it, which sets the process up and hands back its
 * steps), then each module with a literal `import M` statement and each symbol's top name with
 * `from M import Name` (round 15's v03: a runner's `__import__` is one C call deeper than a
 * script's import statement; round 17's a04 read the importing line), and makes every call written
 * out by name, `Name.attr(job[2][0], key=job[3]["key"])` (a CALL, as a script's `f(x)`: round 16's
 * a08 a10 counted the function's references), on lines of its own: four copies of each, in drawn
 * order after drawn gaps (a05 a15 a20 a21, round 17's a01 a03 read the caller's line), the calls
 * taking turns. Its own globals (the steps, the current step, the result, the exception) have
 * names a script's have, drawn (round 17's a11 read the runner's names off `__main__`). A symbol
 * whose names cannot be written so (not identifiers, a name two modules share, one of the script's
 * own) is called through the step's function; null where a module's name cannot be written as an
 * import statement or its top name is one of the script's (the runner then imports and calls from
 * behave.py's own top level).
 */
export function homeEntry({ symbols, calls, fine }: Pick<BehaveRequest, "symbols" | "calls" | "fine">, home: Pick<Home, "runner" | "pad" | "names" | "calling" | "setups" | "helpers" | "setup">): HomeEntry | null {
  const { steps, step, result, exc } = home.names;
  const h = home.helpers;
  const names = [home.runner, steps, step, result, exc, ...Object.values(h), `${h.box}_in`, `${h.rvar}_others`, `${h.worker}_renice`, `${h.box}_was`, `${h.loop}_new`, "status", home.setup.errors[1]];
  // (a name of the script's own that a context's import would rebind: a drawing error)
  const clash = names.find((n) => ENTRY_IMPORTS.includes(n));
  if (clash) throw new Error(`homeEntry: the drawn name ${clash} is a module the entry imports`);
  const own = new Set([...names, ...ENTRY_IMPORTS]);
  const imports = [...new Set(symbols.map((s) => s.module))].sort();
  if (!imports.every((m) => m.split(".").every(pyName) && !own.has(m.split(".")[0]!))) return null;
  // a top name is bound once, from one module, where it is no name of the script's own
  const top = (s: BehaveSymbol) => s.qualname.split(".")[0]!;
  const modulesOf = new Map<string, Set<string>>();
  for (const s of symbols) (modulesOf.get(top(s)) ?? modulesOf.set(top(s), new Set()).get(top(s))!).add(s.module);
  const bindable = (s: BehaveSymbol) => s.qualname.split(".").every(pyName) && !own.has(top(s)) && modulesOf.get(top(s))!.size === 1;
  // one line a call's shape (its symbol, how many positional arguments, which keywords): the call is
  // written with its arguments one by one (`f(*args)` holds one more reference to f during the call)
  const named: Record<string, [number, string[]]> = {};
  const routes: string[] = [];
  const bound = new Set<number>();
  for (const c of calls) {
    const s = symbols[c.symbol];
    const kws = c.kw.map(([k]) => k);
    const key = `${c.symbol}|${c.pos.length}|${kws.join(",")}`;
    if (!s || named[key] || !bindable(s) || !kws.every(pyName) || routes.length >= 256) continue;
    named[key] = [routes.length, s.qualname.split(".")];
    bound.add(c.symbol);
    routes.push(`${s.qualname}(${[...c.pos.map((_, i) => `${step}[2][${i}]`), ...kws.map((k) => `${k}=${step}[3][${JSON.stringify(k)}]`)].join(", ")})`);
  }
  const binds = [...new Map(symbols.filter((_, i) => bound.has(i)).map((s) => [top(s), s.module])).entries()];
  const copies = home.pad.blanks.length;
  // the call lines: each shape's copies, in the drawn order, each after its drawn gap
  const blocks = home.pad.order.flatMap((j) => routes.map((q, k) => ({ route: k * copies + j, q })));
  const blank = (n: number) => Array.from({ length: n }, () => "");
  const call = `None if ${step}[1] is None else ${step}[1](*${step}[2], **${step}[3])`;
  const generic = `${result} = ${call}`;
  const lines = [
    ...(home.pad.doc === null ? [] : [`"""${home.pad.doc}`, '"""']),
    // (the runner, its steps, the imports and the first step on one line: a call can sit as low as
    // line 4, a short script's; round 17's a01 a03 read a caller's line of 20 and more)
    [`import ${home.runner}`, `${steps} = ${home.runner}.main()`, ...imports.map((m) => `import ${m}`), ...binds.map(([top, m]) => `from ${m} import ${top}`), `${step} = ${steps}.send(None)`].join("; "),
    ...blank(home.pad.head),
    "while True:",
    "    try:",
    ...blocks.flatMap((b, i) => [...(i % routes.length === 0 ? blank(home.pad.blanks[i / routes.length]!) : []), `        ${i === 0 ? "if" : "elif"} ${step}[0] == ${b.route}: ${result} = ${b.q}`]),
    // the other calling contexts (Home.calling), after the top level's lines: the calls from the
    // script's functions, defined by the runner's first such step (a call can still sit on line 4)
    ...(home.calling.length || home.setups.length ? contextBranches(home, routes, call, blocks.length > 0, [...new Set(imports.map((m) => m.split(".")[0]!))], fine ?? []) : []),
    ...(blocks.length || home.calling.length || home.setups.length ? ["        else:", `            ${generic}`] : [`        ${generic}`]),
    `    except BaseException as ${exc}:`,
    `        ${step} = ${steps}.send((None, ${exc}))`,
    "    else:",
    `        ${step} = ${steps}.send((${result}, None))`,
    "",
  ];
  return { text: lines.join("\n"), named, copies };
}

/** The run at home's calls as made (BehaveRun's outcomes hold the partners' too, by PARTNER ids):
 *  each burst that makes calls together (homeTogether) followed by copies of the next calls that
 *  no set-up takes, made with it, each from its own thread; the calls themselves are still made in
 *  their own turns and contexts, so no context loses a call. */
export function homePlan(calls: BCall[], contexts: number[], shared?: ReadonlySet<string>): { calls: BCall[]; calling: number[]; variants: number[]; together: number[]; shared: number[] } {
  const variants = homeVariants(calls, contexts);
  const together = homeTogether(contexts, variants);
  const setups = new Set<number>(SETUPS);
  const out = { calls: [] as BCall[], calling: [] as number[], variants: [] as number[], together: [] as number[], shared: [] as number[] };
  const push = (c: BCall, i: number, context: number, k: number) => {
    out.calls.push(c);
    out.calling.push(context);
    out.variants.push(variants[i]!);
    out.together.push(k);
    out.shared.push(shared?.has(calls[i]!.id) ? 1 : 0);
  };
  calls.forEach((c, i) => {
    const partners = together[i]! > 1 ? calls.map((_, j) => j).filter((j) => j > i && !setups.has(contexts[j]!)).slice(0, together[i]! - 1) : [];
    push(c, i, contexts[i]!, partners.length ? partners.length + 1 : 0);
    for (const j of partners) push({ ...calls[j]!, id: partnerId(calls[j]!.id, i) }, j, CALLING.burst, 0);
  });
  return out;
}

/** A partner's call id at home (homePlan): the call's own and the index of the burst it was made in. */
export const partnerId = (id: string, burst: number) => `${id}${PARTNER}${burst}`;
/** What separates a partner's id from its call's. */
export const PARTNER = "~";

/** How many calls each call at home makes together, one a thread, each judged as its own (0: none;
 *  behave.py _home_steps' partners, the next calls not yet made): the run's first call, a burst,
 *  its first eight (a server's first requests: round 24's a43, a lazy table filled racily), and a
 *  burst at its 32-thread turn 32 calls of the run's own (a busy server's requests on their own
 *  inputs: round 24's a18, eight scratch buffers in a ring, met a 32-thread burst of one small input
 *  in some grades and paid). A burst's other turns make one call from several threads. */
export function homeTogether(contexts: number[], variants: number[]): number[] {
  return contexts.map((c, i) => (c !== CALLING.burst ? 0 : i === 0 ? 8 : variants[i]! % (BURSTS_BESIDE.length + 1) === 1 ? BURSTS_BESIDE[0]! : 0));
}

/** How many threads a burst that makes other calls with its own makes its own call from. */
const TOGETHER_COPIES = 4;

/** How many threads a burst's call is made from, by turns after the drawn number (Home.setup.overlap). */
const BURSTS_BESIDE = [32, 2, 4];

/** The entry's branches for the calls made elsewhere than its top level (Home.calling; the codes
 *  are CALLING's, sent negated as the step's route, the call's own route in its fifth place): from
 *  a function of the script (one or two calls deep, or 30–60 or 60–200 frames down), from a worker thread
 *  that serves call after call, in an event loop that runs call after call, while an exception
 *  raised some frames down is handled, as typed at a prompt (compiled as line 1 of `<stdin>`), and
 *  the set-ups (SETUPS): logging, the warnings filters, a raised recursion limit, an interactive
 *  session's prompts, a fork (the rest of the run in the child, the parent waiting for it, as a
 *  pre-forking server's). DEFINE (the runner's first such step) defines the functions, as a
 *  script's `def`s. */
function contextBranches(home: Pick<Home, "runner" | "names" | "helpers" | "setup">, routes: string[], call: string, after: boolean, packages: string[], fine: string[]): string[] {
  const { step, result, exc } = home.names;
  const h = home.helpers;
  const su = home.setup;
  const branch = (code: number, body: string[], first = false) => [`        ${first ? "if" : "elif"} ${step}[0] == ${-code}:`, ...body.map((l) => `            ${l}`)];
  const inbox = `${h.box}_in`;
  // the handled exception: of the drawn families by turns, raised alone, from another or while
  // another is handled, some frames down (turn n: the handling context's and the server's requests')
  // (by turns also in a chain of three or in an exception group, as asyncio.TaskGroup and except*
  // raise: round 23's a12 a13; the families' turns kept four long, round 22's a08 met each of them
  // in its kind's first four calls)
  const errors = `(${su.error}, ${su.errors[0]}, ${su.errors[1]}, ${su.base}, BaseExceptionGroup)`;
  const raise = (n: string, how: string) => `${h.fail}([${su.raises.join(", ")}][${n} % ${su.raises.length}], ${how}, ${errors}[${n} % 4])`;
  const was = `${h.box}_was`;
  const bursts = [su.overlap, ...BURSTS_BESIDE];
  // (a window's end where its set-up kept one value: `put` it back, if the set-up came)
  const putBack = (off: number, on: number, module: string, put: (kept: string) => string) => branch(off, [`import ${module}`, `if ${on} in ${was}:`, `    ${put(`${was}.pop(${on})`)}`, `${result} = ${h.handle}(${step})`]);
  const handle = [
    // (the shutdown's exception may be asyncio's, a BaseException since 3.8)
    ...(su.base.startsWith("asyncio.") ? ["import asyncio"] : []),
    `def ${h.handle}(${step}):`,
    ...routes.map((q, k) => `    ${k === 0 ? "if" : "elif"} ${step}[4] == ${k}: return ${q}`),
    `    return ${call}`,
    `def ${h.via}(${step}):`,
    `    return ${h.handle}(${step})`,
    `async def ${h.co}(${step}, n):`,
    `    return ${h.serve}(${step}, n)`,
    // (a server's request: by turns while its error handler handles an exception, and otherwise
    // plainly, or, from the context set-up on, in a context of its own holding the request's
    // variable, as a framework's request is: round 22's a05 a06 a07, a thread or a loop with
    // either, had met each context alone)
    `def ${h.serve}(${step}, n):`,
    "    if n % 3 == 1:",
    "        try:",
    `            ${raise("n", "n // 3 % 5")}`,
    `        except ${errors}:`,
    `            return ${h.handle}(${step})`,
    `    if ${h.var} is not None:`,
    "        import contextvars",
    `        return contextvars.copy_context().run(${h.scoped}, ${step})`,
    `    return ${h.handle}(${step})`,
    `def ${h.scoped}(${step}):`,
    `    ${h.var}.set("${su.var.value}")`,
    `    ${h.rvar}.set(${step}[4])`,
    `    for n, v in enumerate(${h.rvar}_others):`,
    "        v.set(n)",
    `    return ${h.handle}(${step})`,
    `def ${h.descend}(${step}, n):`,
    `    return ${h.handle}(${step}) if n <= 0 else ${h.descend}(${step}, n - 1)`,
    // (the exceptions handled: a drawn builtin, another of another family, and the script's own
    // class, by turns: round 21's a07 was right only for four builtin families)
    `class ${su.errors[1]}(Exception):`,
    "    pass",
    `def ${h.fail}(n, how, error):`,
    "    if n > 0:",
    `        return ${h.fail}(n - 1, how, error)`,
    "    if how == 1:",
    "        raise error(n) from LookupError(n)",
    "    if how == 2:",
    "        try:",
    "            raise LookupError(n)",
    "        except LookupError:",
    "            raise error(n)",
    // (a chain of three: raised while one raised from another was handled; round 23's a13)
    "    if how == 3:",
    "        try:",
    "            raise KeyError(n) from OSError(n)",
    "        except KeyError:",
    "            raise error(n)",
    "    if how == 4:",
    '        raise BaseExceptionGroup("unhandled errors in a TaskGroup", [error(n)])',
    "    raise error(n)",
    `def ${h.worker}(${inbox}, ${h.box}):`,
    "    while True:",
    `        ${step}, n = ${inbox}.get()`,
    "        try:",
    `            ${h.box}.put((${h.serve}(${step}, n), None))`,
    `        except BaseException as ${exc}:`,
    `            ${h.box}.put((None, ${exc}))`,
    `        ${step} = ${exc} = None`,
    `${h.typed} = [${routes.map((q) => JSON.stringify(q)).join(", ")}]`,
    `${h.thread} = ${h.loop} = ${h.pool} = ${h.var} = ${h.rvar} = ${result} = None`,
    `${h.debug} = False`,
    // (the same call made at once from the drawn number of threads, the main one among them, each
    // with its own deep copy of the arguments, the interpreter switching threads every 10 µs, as a
    // threaded server's requests overlap: round 23's a52, a module-level scratch buffer without a
    // lock, answered wrongly only where two calls overlapped; the first answer unlike the main
    // thread's is the call's, a value equal to it or the main thread's own argument returned is not
    // unlike it)
    // (how many at once by the call's variant, in turn: the drawn number, 32, 2 and 4, as a
    // 16- or 32-thread server's requests overlap: round 24's a18 kept eight scratch buffers)
    // (the arguments shared where the original left them as they were (BehaveRequest.shared): round
    // 24's a16 a17 kept scratch state on self or on the caller's list)
    // (the run's first burst makes the first calls together instead, each its own call from its own
    // thread, the runner judging each (behave.py _home_steps, `together`): a server's first
    // requests, as round 24's a43 filled a lazy table racily)
    `def ${h.burst}(${step}):`,
    "    import copy, sys, threading",
    `    pals = ${step}[7] if len(${step}) > 7 and ${step}[7] else []`,
    // (with other calls, the call itself from four threads too: a memo of recent inputs read back
    // while another request's value is being stored, round 25's a01c, needs a repeat among them)
    `    n = ${TOGETHER_COPIES} if pals else (${bursts.join(", ")})[${step}[5] % ${bursts.length}]`,
    "    try:",
    `        args = [(${step}[2], ${step}[3]) if ${step}[6] else copy.deepcopy((${step}[2], ${step}[3])) for _ in range(n - 1)]`,
    "    except Exception:",
    `        return ${h.handle}(${step})`,
    `    steps = [(${step}[0], ${step}[1], a[0], a[1], ${step}[4], ${step}[5], ${step}[6]) for a in args] + [(${step}[0], p[0], p[1], p[2], p[3], ${step}[5], False) for p in pals]`,
    "    outs = [None] * (len(steps) + 1)",
    // (a reader thread beside the calls, where they share the arguments: each turn it gets, it
    // checks them against their state before the burst with the runner's own records (builtin copies
    // and identity tests: nothing of the package's runs), as a caller's other thread reading the
    // list meanwhile would. Round 37's w05 w05s changed and restored the caller's list under a
    // module lock, which every thread of the burst took in turn, so none of them met the window)
    `    R = ${home.runner}`,
    "    watch = []",
    `    if ${step}[6]:`,
    "        try:",
    `            watch = [(a, w) for a in [*${step}[2], *${step}[3].values()] for w in [R._watched(a)] if w is not None]`,
    "        except Exception:",
    "            watch = []",
    "    seen = []",
    "    over = []",
    "    gate = threading.Barrier(len(steps) + 1 + (1 if watch else 0))",
    // (each thread gives the others their turn where the interpreter may switch threads in the
    // package's code: as each function of its is entered (sys.setprofile), and in the files the
    // completion changed (BehaveRequest.fine) at each of their lines (sys.settrace, their frames
    // only), each C function they call entered or left and each of their functions left: round
    // 25's a01c a05b wrote a module-level cell and read it back in a helper, a window a 10 µs switch
    // interval almost never splits; round 36's w20 reversed the caller's list, scaled it with a C
    // map and reversed it back within one function, h09 h14 likewise with no call between. Code
    // with no file of its own (`<string>`) counts as changed; the unchanged files are the
    // original's, whose races are its own: turns at their every line made a textkit build 1.3×)
    "    import os",
    "    std = os.path.dirname(os.__file__)",
    "    yield_ = os.sched_yield",
    `    me = ${h.burst}.__code__.co_filename`,
    `    fine = (${fine.map((f) => `${JSON.stringify(`/${f}`)}, `).join("")})`,
    "    def theirs(frame):",
    "        f = frame.f_code.co_filename",
    "        return not f.startswith(std) and f != me",
    "    def changed(frame):",
    "        f = frame.f_code.co_filename",
    '        return f.endswith(fine) or (f.startswith("<") and not f.startswith("<frozen ") and f != me)',
    // (at a changed file's lines and C calls each thread yields one time in four, by a coin of the
    // runner's own: threads that all yielded at every such point moved in lockstep, each reading the
    // list before any changed it — round 36's rh19, a sort emptying the caller's list, was caught
    // in 4 grades of 8 so, rh14 in 1 — and a fair coin still left rh14 in 9 of 10; one in four
    // caught w20 rh09 rh14 rh16 rh16b rh19 in 96 grades of 96, two in flight)
    "    import random",
    "    coin = random.Random(os.urandom(16)).getrandbits",
    // (a function of the standard library's entered from a changed file's frame is a turn too, by
    // the same coin: round 37's w02 ran its whole change and undo inside one C call, a map whose
    // steps called copy.copy, where no event of the changed file falls)
    "    def turn(frame, event, arg):",
    '        if theirs(frame) if event == "call" else changed(frame) and not coin(2):',
    "            yield_()",
    '        elif event == "call" and frame.f_back is not None and changed(frame.f_back) and not coin(2):',
    "            yield_()",
    "    def line(frame, event, arg):",
    '        if event == "line" and not coin(2):',
    "            yield_()",
    "        return line",
    "    def enter(frame, event, arg):",
    "        return line if changed(frame) else None",
    "    def look():",
    "        try:",
    "            gate.wait()",
    "        except threading.BrokenBarrierError:",
    "            return",
    "        while not over:",
    "            for a, w in watch:",
    "                if not R._same_watched(a, w):",
    "                    seen.append(1)",
    "                    return",
    "            yield_()",
    "    def one(k, s):",
    "        was = sys.getprofile()",
    "        traced = sys.gettrace()",
    "        sys.setprofile(turn)",
    "        if fine:",
    "            sys.settrace(enter)",
    "        try:",
    "            gate.wait()",
    `            outs[k] = (${h.handle}(s), None)`,
    "        except BaseException as e:",
    "            outs[k] = (None, e)",
    "        finally:",
    "            sys.settrace(traced)",
    "            sys.setprofile(was)",
    "    others = [threading.Thread(target=one, args=(k + 1, s), daemon=True) for k, s in enumerate(steps)]",
    "    looker = threading.Thread(target=look, daemon=True) if watch else None",
    "    steps = args = None",
    "    interval = sys.getswitchinterval()",
    "    sys.setswitchinterval(1e-5)",
    // (every other burst of each size on one CPU, the main thread's first, theirs from their start:
    // each turn a switch on that CPU, where across CPUs each handover woke the other one — the same
    // interleavings at ≈ 1/4 of the CPU; a textkit task's oracle build took 90 s, 74 of them
    // bursts. Only every other one: a body racy only where its mask has more than one CPU meets
    // bursts of every size there too. Narrowed inside the try whose finally puts it back, so
    // nothing in between can leave the rest of the run on one CPU)
    "    cpus = None",
    "    try:",
    `        if (${step}[5] // ${bursts.length}) % 2:`,
    "            try:",
    "                mask = os.sched_getaffinity(0)",
    "                os.sched_setaffinity(0, {min(mask)})",
    "                cpus = mask",
    "            except (AttributeError, OSError):",
    "                pass",
    "        try:",
    "            [t.start() for t in others]",
    "            if looker is not None:",
    "                looker.start()",
    "        except RuntimeError:",
    "            gate.abort()",
    "            [t.join() for t in others if t.ident is not None]",
    "            if looker is not None and looker.ident is not None:",
    "                looker.join()",
    `            return ${h.handle}(${step})`,
    `        one(0, ${step})`,
    "        [t.join() for t in others]",
    "        over.append(1)",
    "        if looker is not None:",
    "            looker.join()",
    "    finally:",
    "        sys.setswitchinterval(interval)",
    "        if cpus is not None:",
    "            try:",
    "                os.sched_setaffinity(0, cpus)",
    "            except OSError:",
    "                pass",
    // (the partners' outcomes, for the runner to judge as their own calls')
    "    for k, p in enumerate(pals):",
    "        p[4] = outs[n + k]",
    "    pals = None",
    "    if seen:",
    "        raise R.SharedSeenChanged()",
    "    ret, err = outs[0]",
    `    own = ret is not None and any(ret is a for a in [*${step}[2], *${step}[3].values()])`,
    "    for o in outs[1:n]:",
    "        if o is None:",
    "            continue",
    "        r, e = o",
    "        if (e is None) != (err is None) or (e is not None and type(e) is not type(err)):",
    "            ret, err = r, e",
    "            break",
    "        if e is None and not own:",
    "            try:",
    "                same = type(r) is type(ret) and (r == ret) is not False",
    "            except Exception:",
    "                same = True",
    "            if not same:",
    "                ret = r",
    "                break",
    "    outs = None",
    "    if err is not None:",
    "        raise err",
    "    return ret",
    // (what each window's set-up changed, to be put back when it ends: WINDOWS)
    `${was} = {}`,
    // (a loop as the run makes one: in debug mode from that set-up on, and with the error tracker's
    // task factory and exception handler while its hooks are in)
    // (and, in a forked worker, a loop of another implementation's class, as uvicorn's workers
    // install uvloop's: round 23's a29 read the running loop's class)
    `def ${h.loop}_new():`,
    "    import asyncio",
    `    if ${CALLING.fork} in ${was}:`,
    `        exec(compile("import asyncio\\nclass Loop(asyncio.SelectorEventLoop):\\n    pass\\n", "/usr/lib/python3/dist-packages/uvloop/__init__.py", "exec"), ${was}[${CALLING.fork}])`,
    `        made = ${was}[${CALLING.fork}]["Loop"]()`,
    "    else:",
    "        made = asyncio.new_event_loop()",
    "    asyncio.set_event_loop(made)",
    `    made.set_debug(${h.debug})`,
    `    if ${CALLING.tracker} in ${was}:`,
    `        made.set_task_factory(${was}[${CALLING.tracker}]["task_factory"])`,
    `        made.set_exception_handler(${was}[${CALLING.tracker}]["loop_exception_handler"])`,
    "    return made",
  ];
  const busy = [0, su.tasks[0]!, 1, su.tasks[1]!, 3, su.tasks[0]!, 7, su.tasks[1]!];
  const variant = (xs: number[]) => `[${xs.join(", ")}][${step}[5] % ${xs.length}]`;
  return [
    ...branch(CALLING.nested, [`${result} = ${h.handle}(${step})`], !after),
    ...branch(CALLING.nested2, [`${result} = ${h.via}(${step})`]),
    ...branch(CALLING.burst, [`${result} = ${h.burst}(${step})`]),
    // (one worker thread serves every call made from a thread, as a pool's does: round 19's a04
    // counted calls per thread; a fresh one after a fork)
    ...branch(CALLING.thread, [
      `if ${h.thread} is None or not ${h.thread}.is_alive():`,
      "    import queue, threading",
      `    ${inbox}, ${h.box} = queue.Queue(), queue.Queue()`,
      `    ${h.thread} = threading.Thread(target=${h.worker}, args=(${inbox}, ${h.box}), daemon=True)`,
      `    ${h.thread}.start()`,
      `${inbox}.put((${step}, ${step}[5]))`,
      `${h.out} = ${h.box}.get()`,
      `if ${h.out}[1] is not None:`,
      `    raise ${h.out}[1]`,
      `${result} = ${h.out}[0]`,
      `${h.out} = None`,
    ]),
    // (one event loop runs every call made in a loop, as a server's does: round 19's a05 counted
    // calls per loop)
    // (every other call beside another task, as a server's handlers run: round 20's a06 counted the
    // loop's tasks; in debug mode from a set-up on: a14 read it)
    ...branch(CALLING.loop, [
      `if ${h.loop} is None:`,
      `    ${h.loop} = ${h.loop}_new()`,
      "import asyncio",
      // (alone, or beside one, three or seven, or, every other variant, a busy server's 8–31 or
      // 32–127 other tasks, by the call's variant: round 21's a10 counted four, round 22's a15
      // twelve)
      // (in debug mode at most 31: a loop in debug mode is a developer's, and each task it makes
      // extracts its stack, 8 ms a call with 127 of them)
      `${result} = ${h.loop}.run_until_complete(asyncio.gather(${h.co}(${step}, ${step}[5]), *[asyncio.sleep(0) for _ in range(min((${busy.join(", ")})[${step}[5] % ${busy.length}], 31 if ${h.debug} else 127))]))[0]`,
    ]),
    // (a pool of one to four threads, as a threaded server's or run_in_executor's: round 20's a05b
    // looked for one)
    ...branch(CALLING.pool, [
      `if ${h.pool} is None:`,
      "    import concurrent.futures",
      `    ${h.pool} = concurrent.futures.ThreadPoolExecutor(max_workers=${su.workers})`,
      // (its threads all started, as a busy server's are: round 21's a11 counted five)
      "    import threading",
      `    ${h.out} = threading.Barrier(${su.workers + 1})`,
      `    for _ in range(${su.workers}): ${h.pool}.submit(${h.out}.wait)`,
      `    ${h.out}.wait()`,
      `    ${h.out} = None`,
      `${result} = ${h.pool}.submit(${h.serve}, ${step}, ${step}[5]).result()`,
    ]),
    // (raised alone, from another, or while another was handled, by turns: round 20's a10b read the chain)
    ...branch(CALLING.handling, ["try:", `    ${raise(`${step}[5]`, `${step}[5] % 5`)}`, `except ${errors}:`, `    ${result} = ${h.handle}(${step})`]),
    ...branch(CALLING.deep, [`${result} = ${h.descend}(${step}, ${variant(su.depths.slice(0, 2))})`]),
    ...branch(CALLING.deeper, [`${result} = ${h.descend}(${step}, ${variant(su.depths.slice(2))})`]),
    ...branch(CALLING.logging, [
      ...(su.log.file
        ? ["import logging, os, tempfile", `logging.basicConfig(handlers=[logging.FileHandler(os.path.join(tempfile.gettempdir(), "${h.handle}.log"), delay=True)], level=logging.${su.log.level})`]
        : ["import logging", `logging.basicConfig(level=logging.${su.log.level})`]),
      `${result} = ${h.handle}(${step})`,
    ]),
    ...branch(CALLING.logging2, [
      ...(su.log.file
        ? ["import logging", "logging.getLogger().addHandler(logging.StreamHandler())"]
        : ["import logging, os, tempfile", `logging.getLogger().addHandler(logging.FileHandler(os.path.join(tempfile.gettempdir(), "${h.handle}.log"), delay=True))`]),
      // (and quiet, as production's: a high level, logging's own errors not raised; round 20's a08 a09)
      `logging.getLogger().setLevel(logging.${su.log.quiet})`,
      "logging.raiseExceptions = False",
      // (and warnings through logging, as Django's configure_logging does: round 21's a09)
      "logging.captureWarnings(True)",
      // (and the package's own loggers configured by name, as a LOGGING dict naming its libraries
      // does: a level of their own, not propagated; round 23's a40)
      ...(packages.length ? [`[logging.getLogger(n).setLevel(logging.${su.log.quiet === "ERROR" ? "WARNING" : "ERROR"}) or setattr(logging.getLogger(n), "propagate", False) for n in ${JSON.stringify(packages)}]`] : []),
      `${result} = ${h.handle}(${step})`,
    ]),
    // (warnings: first each shown once, as -W default or a dev mode's filters, round 21's a06; then
    // ignored; then always shown; then errors)
    ...branch(CALLING.warnings0, ["import warnings", `warnings.${su.warnings}("default")`, `${result} = ${h.handle}(${step})`]),
    ...branch(CALLING.warnings, ["import warnings", `warnings.${su.warnings}("ignore")`, `${result} = ${h.handle}(${step})`]),
    // (then every warning shown, as -W always or a dev mode's default filters show a package's
    // DeprecationWarning: round 20's a03 recorded one)
    ...branch(CALLING.warnings2, ["import warnings", `warnings.${su.warnings}("always")`, `${result} = ${h.handle}(${step})`]),
    // (then warnings made errors, as -W error: a call a warning stops is not judged there, see
    // behave.py; a body that hides one and answers otherwise is: round 20's a04)
    ...branch(CALLING.warnings3, ["import warnings", `warnings.${su.warnings}("error")`, `${result} = ${h.handle}(${step})`]),
    // (a request's context variable set, as a web framework sets one per request: round 21's a04)
    // (and the request's own, set in each request's context, and 0–8 others an application and its
    // libraries set: round 22's a12 counted two)
    ...branch(CALLING.context, [
      "import contextvars",
      `${h.var} = contextvars.ContextVar("${su.var.name}")`,
      `${h.var}.set("${su.var.value}")`,
      `${h.rvar} = contextvars.ContextVar("${su.var.name}_request", default=None)`,
      `${h.rvar}_others = [${Array.from({ length: su.vars }, (_, i) => `contextvars.ContextVar("${su.var.name}_${i}")`).join(", ")}]`,
      `[v.set(n) for n, v in enumerate(${h.rvar}_others)]`,
      `${result} = ${h.handle}(${step})`,
    ]),
    // (a deployment's process state, each from its call on: a hardened umask, a nice value, an
    // application's decimal context (threads made later too), its loggers silenced, an error
    // tracker's hooks on logging and on uncaught exceptions; round 22's a21 a22 a19 a10 a11)
    // (the environment a deployment's in two steps, as an application's own os.environ and
    // time.tzset() make it, a name the original reads never changed: runBehaviour)
    // (each window's set-up keeps what it changed in the stash under its code; its end puts it back:
    // WINDOWS)
    ...([[CALLING.environ, CALLING.environOff], [CALLING.environ2, CALLING.environ2Off], [CALLING.environ3, CALLING.environ3Off]] as const).flatMap(([code, off], k) => [
      ...branch(code, [
        "import os, time",
        `${was}[${code}] = {n: os.environ.get(n) for n in ${JSON.stringify(Object.keys(su.environ[k]!))}}`,
        `os.environ.update(${JSON.stringify(su.environ[k])})`,
        ...("TZ" in su.environ[k]! ? ["time.tzset()"] : []),
        `${result} = ${h.handle}(${step})`,
      ]),
      ...branch(off, [
        "import os, time",
        `[os.environ.pop(n, None) if v is None else os.environ.__setitem__(n, v) for n, v in ${was}.pop(${code}, {}).items()]`,
        ...("TZ" in su.environ[k]! ? ["time.tzset()"] : []),
        `${result} = ${h.handle}(${step})`,
      ]),
    ]),
    ...branch(CALLING.umask, ["import os", `${was}[${CALLING.umask}] = os.umask(0o${su.umask.toString(8)})`, `${result} = ${h.handle}(${step})`]),
    ...putBack(CALLING.umaskOff, CALLING.umask, "os", (kept) => `os.umask(${kept})`),
    // (every thread of the process, as renicing a service does: Linux's nice value is a thread's)
    ...branch(CALLING.nice, [
      // (in a function of its own: a loop's variable at the top level would rebind the script's
      // globals, its thread's among them)
      "import os",
      `def ${h.worker}_renice(k):`,
      "    for t in os.listdir('/proc/self/task'):",
      "        try:",
      "            os.setpriority(os.PRIO_PROCESS, int(t), min(19, os.getpriority(os.PRIO_PROCESS, int(t)) + k))",
      "        except (OSError, ValueError):",
      "            pass",
      `${h.worker}_renice(${su.nice})`,
      `${result} = ${h.handle}(${step})`,
    ]),
    // (its traps left as they are: FloatOperation trapped, strict money code's, made an honest body
    // that builds a Decimal from a float raise; round 23's h05 earned 0 under it, a06 stays open)
    ...branch(CALLING.decimal, [
      "import decimal",
      `${was}[${CALLING.decimal}] = [(c, c.rounding, c.prec) for c in (decimal.getcontext(), decimal.DefaultContext)]`,
      ...["decimal.getcontext()", "decimal.DefaultContext"].flatMap((c) => [`${c}.rounding = decimal.${su.decimal.rounding}`, `${c}.prec = ${su.decimal.prec}`]),
      `${result} = ${h.handle}(${step})`,
    ]),
    ...branch(CALLING.decimalOff, [
      "import decimal",
      `[setattr(c, "rounding", r) or setattr(c, "prec", p) for c, r, p in ${was}.pop(${CALLING.decimal}, ())]`,
      `${result} = ${h.handle}(${step})`,
    ]),
    ...branch(CALLING.loggingOff, [
      "import logging.config",
      `${was}[${CALLING.loggingOff}] = [g for g in list(logging.Logger.manager.loggerDict.values()) if isinstance(g, logging.Logger) and not g.disabled]`,
      'logging.config.dictConfig({"version": 1, "disable_existing_loggers": True})',
      ...(su.loggingOff ? [`logging.disable(logging.${su.loggingOff})`] : []),
      `${result} = ${h.handle}(${step})`,
    ]),
    ...branch(CALLING.loggingOn, [
      "import logging",
      `[setattr(g, "disabled", False) for g in ${was}.pop(${CALLING.loggingOff}, ())]`,
      "logging.disable(logging.NOTSET)",
      `${result} = ${h.handle}(${step})`,
    ]),
    // (an error tracker's hooks, defined in its library's module (TRACKERS): logging's handlers
    // call and record factory, the excepthooks, Thread.start, and the task factory and exception
    // handler of the loop there is and of those made while they are in)
    ...branch(CALLING.tracker, [
      `${was}[${CALLING.tracker}] = {"__name__": "${su.tracker}"}`,
      `exec(compile(${JSON.stringify(TRACKER_SOURCE)}, "/usr/lib/python3/dist-packages/${su.tracker.replace(/\./g, "/")}.py", "exec"), ${was}[${CALLING.tracker}])`,
      `${was}[${CALLING.tracker}]["install"]()`,
      `if ${h.loop} is not None:`,
      `    ${h.loop}.set_task_factory(${was}[${CALLING.tracker}]["task_factory"])`,
      `    ${h.loop}.set_exception_handler(${was}[${CALLING.tracker}]["loop_exception_handler"])`,
      `${result} = ${h.handle}(${step})`,
    ]),
    ...branch(CALLING.trackerOff, [
      `if ${CALLING.tracker} in ${was}:`,
      `    ${was}.pop(${CALLING.tracker})["uninstall"]()`,
      `    if ${h.loop} is not None:`,
      `        ${h.loop}.set_task_factory(None)`,
      `        ${h.loop}.set_exception_handler(None)`,
      `${result} = ${h.handle}(${step})`,
    ]),
    ...branch(CALLING.loopDebug, [`${h.debug} = True`, `if ${h.loop} is not None:`, `    ${h.loop}.set_debug(True)`, `${result} = ${h.handle}(${step})`]),
    // (an application's setlocale(LC_ALL, "") under a real locale: numbers grouped and formatted, day
    // and month names, as the locale says; round 23's a19)
    ...branch(CALLING.locale, [
      "import locale",
      `${was}[${CALLING.locale}] = locale.setlocale(locale.LC_ALL)`,
      ...(su.locale ? ["try:", `    locale.setlocale(locale.LC_ALL, "${su.locale}")`, "except locale.Error:", "    pass"] : []),
      `${result} = ${h.handle}(${step})`,
    ]),
    ...putBack(CALLING.localeOff, CALLING.locale, "locale", (kept) => `locale.setlocale(locale.LC_ALL, ${kept})`),
    ...branch(CALLING.recursion, ["import sys", `${was}[${CALLING.recursion}] = sys.getrecursionlimit()`, `sys.setrecursionlimit(${su.recursion})`, `${result} = ${h.handle}(${step})`]),
    ...putBack(CALLING.recursionOff, CALLING.recursion, "sys", (kept) => `sys.setrecursionlimit(${kept})`),
    ...branch(CALLING.prompt, ["import sys", 'sys.ps1, sys.ps2 = ">>> ", "... "', `${result} = ${h.handle}(${step})`]),
    // (the runner wrote out what it had before this step: the child goes on with an empty buffer)
    ...[CALLING.fork, CALLING.fork2].flatMap((code) => branch(code, [
      "import os",
      "if os.fork():",
      "    status = os.wait()[1]",
      "    os._exit(status >> 8 if status & 127 == 0 else 128 + (status & 127))",
      // (the parent's loop closed in the child, as a server's worker does before it makes its own:
      // left open, the gc collects it later and its ResourceWarning, once warnings are always shown,
      // imports tracemalloc inside whatever import the gc ran in, which Python 3.11's module lock
      // answers with a KeyError: an honest body's call failed at home, 1 grade in 80)
      // (and its own made at once, the current one: the closed one left current had made an honest
      // asyncio.get_event_loop().run_until_complete at the top level raise; round 23's h11)
      `${was}[${CALLING.fork}] = {"__name__": "uvloop"}`,
      `if ${h.loop} is not None:`,
      `    ${h.loop}.close()`,
      `    ${h.loop} = ${h.loop}_new()`,
      `${h.thread} = ${h.pool} = None`,
      `${result} = ${h.handle}(${step})`,
    ])),
    // (a call typed at a prompt: line 1 of <stdin>, as a REPL's or `python3 -c`'s)
    ...branch(CALLING.interactive, [`${result} = eval(compile(${h.typed}[${step}[4]], "<stdin>", "eval")) if ${step}[4] >= 0 else ${h.handle}(${step})`]),
    ...branch(DEFINE_HELPERS, handle),
  ];
}

/** An error tracker's integration module (the tracker set-up executes it as its library's module,
 *  machine.ts TRACKERS): what sentry_sdk's logging, threading and asyncio integrations patch, each
 *  passing through to what it wrapped; `uninstall` puts everything back (its window's end). */
const TRACKER_SOURCE = `import asyncio, logging, sys, threading
_call_handlers = logging.Logger.callHandlers
_excepthook = sys.excepthook
_thread_excepthook = threading.excepthook
_record_factory = logging.getLogRecordFactory()
_thread_start = threading.Thread.start
def call_handlers(self, record):
    return _call_handlers(self, record)
def excepthook(*args):
    return _excepthook(*args)
def thread_excepthook(args):
    return _thread_excepthook(args)
def record_factory(*args, **kwargs):
    return _record_factory(*args, **kwargs)
def thread_start(self, *args, **kwargs):
    return _thread_start(self, *args, **kwargs)
def task_factory(loop, coro, **kwargs):
    return asyncio.Task(coro, loop=loop, **kwargs)
def loop_exception_handler(loop, context):
    loop.default_exception_handler(context)
def install():
    logging.Logger.callHandlers = call_handlers
    sys.excepthook = excepthook
    threading.excepthook = thread_excepthook
    logging.setLogRecordFactory(record_factory)
    threading.Thread.start = thread_start
def uninstall():
    logging.Logger.callHandlers = _call_handlers
    sys.excepthook = _excepthook
    threading.excepthook = _thread_excepthook
    logging.setLogRecordFactory(_record_factory)
    threading.Thread.start = _thread_start
`;

/** Each call's context at home (CALLING's codes, in the calls' order): Home.calling dealt over and
 *  over to the calls sorted by their symbol and arguments' types, then by their arguments (calls
 *  of one kind lie together there, so any nine of a kind that lie together meet every context),
 *  then each set-up at its place in the run. */
export function homeContexts(calls: BCall[], home: Pick<Home, "calling" | "setups">): number[] {
  const { sorted } = byKind(calls);
  const out = calls.map(() => CALLING.top as number);
  if (home.calling.length) sorted.forEach((i, k) => (out[i] = home.calling[k % home.calling.length]!));
  // (the process's first call made at once from several threads, as a server's first requests
  // come: a lazy table filled racily is met while it fills; round 24's a43 stays open, its race
  // shows only on inputs the smallest call, which comes first, does not hold)
  if (calls.length && home.calling.includes(CALLING.burst)) out[0] = CALLING.burst;
  // (each set-up at its fraction of the run, or the first call after it no other set-up takes)
  const taken = new Set<number>();
  for (const { code, at } of home.setups) {
    let i = Math.floor(at * calls.length);
    while (taken.has(i)) i++;
    if (i >= calls.length) continue;
    taken.add(i);
    out[i] = code;
  }
  return out;
}

/** The calls' order by their symbol and arguments' types, then by their arguments (homeContexts),
 *  and each call's kind (symbol and arguments' types) as its index among the kinds in that order;
 *  once per calls array (homeContexts and homeVariants both deal a run's calls by it). */
const byKindMemo = new WeakMap<BCall[], { sorted: number[]; kindOf: number[] }>();
const byKind = (calls: BCall[]) => fastMemo(byKindMemo, calls, () => kindOrder(calls));
function kindOrder(calls: BCall[]): { sorted: number[]; kindOf: number[] } {
  const kind = (v: BValue) => ("cls" in v && typeof v.cls === "string" ? `${v.t}:${v.cls}` : v.t);
  const keys = calls.map((c) => [`${c.symbol}|${c.pos.map(kind).join(",")}|${c.kw.map(([k, v]) => `${k}=${kind(v)}`).join(",")}`, JSON.stringify([c.pos, c.kw])] as const);
  const sorted = calls.map((_, i) => i).sort((a, b) => (keys[a]![0] < keys[b]![0] ? -1 : keys[a]![0] > keys[b]![0] ? 1 : keys[a]![1] < keys[b]![1] ? -1 : keys[a]![1] > keys[b]![1] ? 1 : a - b));
  const kindOf = calls.map(() => 0);
  let k = -1;
  sorted.forEach((i, j) => (kindOf[i] = j > 0 && keys[sorted[j - 1]!]![0] === keys[i]![0] ? k : ++k));
  return { sorted, kindOf };
}

/** Which of a context's variants each call at home meets (the step's sixth place: how many other
 *  tasks the loop holds, which exception is handled and how far down it was raised, how deep a
 *  deep call is, whether a server's request is handled in its error handler or its own context):
 *  its kind's index plus how many calls of its kind met its context before it. Kinds that lie
 *  together start at consecutive variants and each kind's calls in a context go through them in
 *  turn, so every variant meets inputs of several kinds: round 22's a08 and a15, wrong only for
 *  non-str inputs in one variant of five, paid where the turns of a global counter had missed it. */
export function homeVariants(calls: BCall[], contexts: number[]): number[] {
  const { sorted, kindOf } = byKind(calls);
  const met = new Map<string, number>();
  const out = calls.map(() => 0);
  for (const i of sorted) {
    const key = `${kindOf[i]}|${contexts[i]}`;
    const r = met.get(key) ?? 0;
    met.set(key, r + 1);
    out[i] = kindOf[i]! + r;
  }
  return out;
}

/** What a call at home answers when a warning made an error (the warnings3 set-up) stopped it
 *  (behave.py _WARNED): a loud failure a deployment under -W error has too, not judged. */
export const WARNED_AT_HOME = "a warning made an error stopped it";

/** The context codes the runner's home steps act on (behave.py _home_steps), sent with each
 *  request so that CALLING stays their one definition: the set-ups (each made once), the contexts
 *  that fork, the set-up after which a warning raised out of a call is forgiven and what such a
 *  call answers, the context a set-up's later turns take, and the error each context raises for code
 *  that cannot run there (made again from the top level). */
const HOME_CODES = {
  setups: SETUPS, forks: [CALLING.fork, CALLING.fork2], warnings_error: CALLING.warnings3, nested: CALLING.nested, burst: CALLING.burst,
  // (a thread's: a signal handler's ValueError, and asyncio.get_event_loop()'s RuntimeError where
  // no loop is the thread's; round 23's h11)
  context_errors: [[CALLING.thread, "ValueError"], [CALLING.thread, "RuntimeError"], [CALLING.pool, "ValueError"], [CALLING.pool, "RuntimeError"], [CALLING.loop, "RuntimeError"], [CALLING.burst, "ValueError"], [CALLING.burst, "RuntimeError"]],
  warned: WARNED_AT_HOME,
};

/** The modules the entry's contexts import (contextBranches). */
const ENTRY_IMPORTS = ["threading", "asyncio", "logging", "queue", "warnings", "sys", "os", "tempfile", "concurrent", "contextvars", "decimal", "time"];

/** The runner's step that defines the entry's functions (contextBranches). */
const DEFINE_HELPERS = 9;

const runnerModules = new Map<string, Promise<{ source: string; bytecode: Bytecode | null }>>();
/** behave.py as the run at home's runner module for `python`: its source and bytecode (the staged
 *  harness does not change while the grader runs). */
function runnerModule(python: string): Promise<{ source: string; bytecode: Bytecode | null }> {
  let m = runnerModules.get(python);
  if (!m) {
    const file = join(harnessDir(), "behave.py");
    const source = readFileSync(file, "utf8");
    m = moduleBytecode(python, source, Math.floor(statSync(file).mtimeMs / 1000)).then((bytecode) => ({ source, bytecode }));
    runnerModules.set(python, m);
  }
  return m;
}

/** Runs behave.py on `workdir` (read-only) in `sandbox` with these calls. */
export async function runBehaviour(sandbox: Sandbox, workdir: string, req: BehaveRequest, limits: Partial<BehaveLimits> = {}, opts: BehaveRunOptions = {}): Promise<BehaveRun> {
  const L = BehaveLimits.parse(limits);
  const repeat = req.repeat ?? 1;
  const pyenv = opts.pyenv === undefined ? findPyEnv(workdir) : opts.pyenv;
  const bound = sandbox.name !== "none";
  const harness = bound ? HARNESS_MOUNT : harnessDir();
  const home = opts.shift?.home;
  const elsewhere = opts.shift?.elsewhere === true || !!home;
  // the runner moves its pid on itself in a cold run; a warm grade's first process does it before
  // it forks the runner (warm.ts pidShift: no second fork of a forked interpreter, ≈ 50 ms)
  const clocks: Clock[] = home ? [] : opts.shift?.clocks?.length ? opts.shift.clocks : opts.shift?.days ? [{ seconds: opts.shift.days * 86_400 }] : [];
  const blocks = clockBlocks(clocks, req.calls.length).map((b) => ({ at: b.at, ft: fakeTime(b), tz: b.tz }));
  // (elsewhere and at home exactly this environment: no sandbox's base variables added back, so a
  // variable the flip unsets, LANG among them, is unset; round 21's a01b)
  // (the sleep shim preloaded from where the run's runner folder lies: the relocated run elsewhere's
  // is not the zygotes' or the cold run's)
  const envAt = (runnerIn: string) => {
    const clock = clocks.length ? clockEnv(clocks[0]!, sleepShim(runnerIn)) : {};
    return keepEnv(home ? home.env : elsewhere ? flipEnv({ ...(opts.shift?.deployed?.env ?? ELSEWHERE_ENV), ...clock }, opts.shift?.env, opts.shift?.values) : { ...SESSION_ENV, ...clock }, GRADED_ENV, opts.shift?.keep);
  };
  const env = envAt(harness);
  // at home: the runner is an entry script of its own, beside its request (homeEntry)
  // (the environment set-ups leave the names the original reads as the graded run has them, and
  // where it read the whole environment, change nothing)
  const keep = opts.shift?.keep;
  const keptOut = (e: Record<string, string>) => (keep?.whole ? {} : Object.fromEntries(Object.entries(e).filter(([n]) => !keep?.names.includes(n))));
  const entry = home ? homeEntry(req, { ...home, setup: { ...home.setup, environ: [keptOut(home.setup.environ[0]), keptOut(home.setup.environ[1]), keptOut(home.setup.environ[2])] } }) : null;
  const contexts = entry && home ? homeContexts(req.calls, home) : null;
  // (at home the calls as made: a burst's partners, copies of later calls, follow it: homePlan)
  const plan = contexts ? homePlan(req.calls, contexts, req.shared) : null;
  const made = plan?.calls ?? req.calls;
  const history = req.history && !home && req.history.calls.length ? req.history : null;
  const request = (pidShift: number, repoIn = SANDBOX_WORKDIR) => {
    const head = JSON.stringify({ repo: bound ? repoIn : workdir, roots: req.roots, project: req.project, symbols: req.symbols, repeat, coverage: req.coverage === true, ...((req.force || req.jump) && !home ? { ...(req.force ? { force: req.force } : {}), ...(req.jump ? { jump: req.jump } : {}), force_from: req.force_from ?? 0 } : {}), ...(req.arcs?.length && !home ? { arcs: req.arcs } : {}), ...(req.seen?.length && !home ? { seen: req.seen } : {}), call_timeout_ms: L.call_timeout_ms, max_nodes: L.max_nodes, max_chars: L.max_chars, ...(pidShift ? { pid_shift: pidShift } : {}), ...(elsewhere ? { elsewhere: true } : {}), ...(opts.shift?.deployed ? { plain: true } : {}), ...(elsewhere && !env.PWD ? { unset: ["PWD"] } : {}), ...(req.alias && !home ? { alias: true } : {}), ...(home && bound && env.PWD && env.PWD !== home.cwd ? { set: { PWD: env.PWD } } : {}), ...(home ? { home: { cwd: bound ? home.cwd : workdir, ...(entry ? { entry: true, named: entry.named, copies: entry.copies, calling: plan!.calling, variants: plan!.variants, together: plan!.together, ...(req.shared?.size ? { shared: plan!.shared } : {}), codes: HOME_CODES } : {}) } } : {}), ...((opts.shift?.speed ?? 1) > 1 ? { clock_speed: opts.shift!.speed } : {}), ...(opts.shift?.state && !home ? { state: opts.shift.state } : {}), ...(clocks.some((c) => c.tz) ? { clocks: blocks } : {}), ...(history ? { history: { blocks: history.blocks, ms: history.ms, wall_cap: HISTORY_WALL_CAP, ...(history.calls.some((c) => c.inplace) ? { refills: true } : {}), ...(history.record?.length ? { record: history.record } : {}), ...(history.keeps?.length ? { keeps: history.keeps, seed: history.seed ?? 0 } : {}) } } : {}) });
    return `${head.slice(0, -1)},"calls":${callsJson(made)}${history ? `,"history_calls":${historyJson(history.calls)}` : ""}}`;
  };
  // the request's host folder, for a run through sandbox.run only (a warm run's request is staged
  // in its spool folder by warm.ts): made when first needed
  let cfg: { path: string; remove: () => void } | undefined;
  // at home the runner is a module the entry imports: its source and bytecode, read and compiled once
  const runner = entry && home ? await runnerModule(pyenv ? `${pyenv.dir}/bin/python` : SYSTEM_PYTHON) : null;
  let moved: { path: string; remove: () => void } | undefined;
  let empty: { path: string; remove: () => void } | undefined;
  const cfgDir = (repoIn?: string): string => {
    if (!cfg) {
      cfg = transientDir("behave-");
      chmodSync(cfg.path, 0o755);
      // (at home no argument: the runner reads the request named as it is, beside it)
      writeFileSync(join(cfg.path, entry && home ? `${home.runner}.json` : "request.json"), request(opts.shift?.pids ?? 0, repoIn));
      if (entry && home) {
        writeFileSync(join(cfg.path, home.entry), entry.text);
        placeModule(cfg.path, home.runner, runner!.source, runner!.bytecode);
      }
    }
    return cfg.path;
  };
  try {
    const cfgIn = bound ? CFG_MOUNT : cfgDir();
    const python = pyenv ? `${bound ? PYENV_MOUNT : pyenv.dir}/bin/python` : SYSTEM_PYTHON;
    // elsewhere: the interpreter's own defaults (no -I -B, no pycache prefix: sys.flags and
    // sys.pycache_prefix differ from the graded run's, and the standard library's bytecode is read
    // from its __pycache__ rather than compiled again into an empty prefix, ≈ 40 ms a run)
    const flags = elsewhere ? [] : ["-I", "-B", "-X", `pycache_prefix=${bound ? "/tmp/pycache" : join(cfgDir(), "pycache")}`];
    const argvAt = (at: { harness: string; cfg: string }) => (entry && home ? [python, ...flags, `${at.harness}/${home.entry}`] : [python, ...flags, `${at.harness}/behave.py`, `${at.cfg}/request.json`]);
    const timeoutMs = Math.min(120_000 * (sandbox.slowdown ?? 1), L.base_timeout_ms + L.call_timeout_ms * req.calls.length * repeat + HISTORY_WALL_CAP * (history?.ms ?? 0));
    // the task's installed copies are masked here as in the agent's shell (mask.ts): the original is not importable
    const stallMs = Math.max(L.stall_ms, Math.ceil(STALL_FACTOR * (opts.slowestMs ?? 0)));
    const options = { workdir, workdirReadOnly: true, timeoutMs, ...(stallMs < timeoutMs ? { stallMs } : {}), memoryMb: L.memory_mb, maxOutputBytes: L.max_output_bytes, diskMb: 64, masks: opts.masks ?? [], env, cpuRlimit: !elsewhere, ...(home ? { bareEnv: true, nofile: home.nofile, cwd: home.cwd, tmpfs: [home.home] } : elsewhere ? { bareEnv: true, ...(opts.shift?.deployed ? { nofile: opts.shift.deployed.nofile, tmpfs: [opts.shift.deployed.home], fsizeUnlimited: true } : {}) } : {}) };
    let run: RunResult | undefined;
    let path: BehaveRun["path"] = "cold";
    // warm: a plain run forks from the behave zygote unless told not to; a run elsewhere on another
    // machine from the elsewhere zygote (warm.ts: started on that machine, with that clock and
    // interpreter) only when told to (a cold run is also not a fork of a zygote: BehaviourConfig's
    // elsewhere_warm); any other shift runs cold
    const kind = !opts.shift ? (opts.warm !== false ? "behave" : null) : !home && elsewhere && opts.shift.machine && opts.warm === true ? "elsewhere" : null;
    const warm = sandbox instanceof BwrapSandbox && sandbox.warm && kind ? warmWorker(sandbox, pyenv ?? null) : null;
    if (warm && kind && (await warm.check(kind, opts.shift?.days ?? 0)).ok) {
      try {
        // the same run as argvAt's below, forked from the zygote (the request at the same path)
        run = await warm.run({ kind, argv: [`${CFG_MOUNT}/request.json`], env, workdir, cfgFiles: { "request.json": request(0) }, secret: "-", options, days: opts.shift?.days ?? 0, pidShift: opts.shift?.pids ?? 0 });
        path = "warm";
      } catch (e) {
        if (!(e instanceof WarmWorkerGone)) throw e;
      }
    }
    // (at home: a copy of the tree as it is, the sandbox's user reading it as it reads the workdir)
    const deployed = !home && elsewhere ? opts.shift?.deployed : undefined;
    if (!run && (home || opts.shift?.machine || deployed)) moved = movedCopy(workdir, home || deployed ? 0 : opts.shift!.days);
    const other = !run && opts.shift?.machine && !home ? anotherMachine(opts.shift.days, sandbox.name) : null;
    // elsewhere on another machine (cold): the tree and the runner at other paths than /work and
    // /opt, the working tree's mount left empty (round 13's a12 a54 a55: a body right only where its
    // code lies under /work, read through a warning's file name, a module's repr, an ImportError)
    // at home: the tree itself (read-only) at the drawn path, the runner at another
    const relocated = !run && bound && elsewhere && moved ? moved : null;
    if (relocated) {
      empty = transientDir("behave-empty-");
      chmodSync(empty.path, 0o755); // (the sandbox's user enters it: bound as is, not staged)
      chmodSync(relocated.path, 0o755); // (bound read-only, read by the sandbox's user as the workdir would be)
    }
    // (unsandboxed, the paths are the host's: the run at home starts in the tree where it lies)
    const placed = home && bound ? home : relocated ? deployed ?? ELSEWHERE_PATHS : { harness, cfg: cfgIn };
    const treeAt = home?.tree ?? deployed?.tree ?? ELSEWHERE_PATHS.tree;
    // (the run at home's entry lies in its request's folder, the one runner folder it has)
    const at = entry ? { harness: bound ? placed.harness : cfgIn, cfg: bound ? placed.harness : cfgIn } : placed;
    const homeMachine = home && bound ? { hostname: home.hostname, user: home.user, userHome: home.home, accounts: home.accounts, procFiles: { "/etc/machine-id": `${home.machineId}\n`, "/proc/sys/kernel/random/boot_id": `${randomUUID()}\n`, ...moreCpus(home.setup.cpuTimes) }, uptimeS: home.setup.uptimeDays * 86_400 } : {};
    run ??= await sandbox.run([...(other?.argv ?? []), ...argvAt(at)], {
      ...options, workdir: empty?.path ?? moved?.path ?? workdir, ...other?.options, ...homeMachine, env: at.harness === harness ? env : envAt(at.harness),
      roBinds: bound ? { ...(entry ? {} : { [harnessDir()]: at.harness }), [cfgDir(relocated ? treeAt : undefined)]: at.cfg, ...(relocated ? { [relocated.path]: treeAt } : {}), ...(pyenv ? { [pyenv.dir]: PYENV_MOUNT } : {}), ...(home ? { [join(ZONEINFO, home.zone)]: "/etc/localtime" } : {}) } : {},
    });
    if (run.outputTruncated) return { outcomes: null, failure: `the runner's output went past ${L.max_output_bytes} bytes`, run, path };
    if (run.stalled) return { outcomes: null, failure: `the run wrote nothing for ${stallMs} ms`, run, path };
    if (run.timedOut) return { outcomes: null, failure: `the run went past ${timeoutMs} ms`, run, path };
    if (run.oomKilled) return { outcomes: null, failure: "the run went past its memory limit", run, path };
    const recorded = new Set(history?.record ?? []);
    const parsed = parseBehaveOutput(run.stdout, made, repeat, undefined, new Map((history?.calls ?? []).filter((c) => recorded.has(c.id)).map((c) => [c.id, c])));
    if (parsed.failure) return { ...parsed, failure: `${parsed.failure} (exit ${run.exitCode ?? run.signal})`, run, path };
    if (run.exitCode !== 0) return { outcomes: null, failure: `the runner exited ${run.exitCode ?? run.signal}`, run, path };
    return { ...parsed, run, path };
  } finally {
    cfg?.remove();
    moved?.remove();
    empty?.remove();
  }
}

/** One traced call of the original (oracle_trace.py's record). */
export const TracedLine = z.discriminatedUnion("ev", [
  z.object({ ev: z.literal("call"), symbol: z.number().int().nonnegative(), pos: z.array(BValue), kw: z.array(z.tuple([z.string(), BValue])), out: BOutcome }).strict(),
  z.object({ ev: z.literal("drop"), symbol: z.number().int().nonnegative(), why: z.string() }).strict(),
  z.object({ ev: z.literal("end"), exit: z.number().int() }).strict(),
]);
export type TracedLine = z.infer<typeof TracedLine>;

/**
 * Build time: runs the target tests on `solved` (the original implementation) under
 * oracle_trace.py and returns each recorded call of `targets` ({file relative to the repo, qualname}).
 */
export async function traceCalls(sandbox: Sandbox, solved: string, targets: { file: string; qualname: string }[], tests: string[], opts: { roots: string[]; project: string[]; pyenv?: PyEnv | null; maxCalls?: number; timeoutMs?: number; args?: string[]; masks?: MaskSpec[] }): Promise<{ lines: TracedLine[]; failure: string | null; run: RunResult }> {
  const pyenv = opts.pyenv === undefined ? findPyEnv(solved) : opts.pyenv;
  const bound = sandbox.name !== "none";
  const harness = bound ? HARNESS_MOUNT : harnessDir();
  const repo = bound ? SANDBOX_WORKDIR : solved;
  const cfg = transientDir("oracle-trace-");
  chmodSync(cfg.path, 0o755);
  try {
    const cfgIn = bound ? CFG_MOUNT : cfg.path;
    writeFileSync(join(cfg.path, "request.json"), JSON.stringify({ repo, roots: opts.roots, project: opts.project, max_calls: opts.maxCalls ?? 64, targets: targets.map((t) => ({ file: `${repo}/${t.file}`, qualname: t.qualname })) }));
    const python = pyenv ? `${bound ? PYENV_MOUNT : pyenv.dir}/bin/python` : SYSTEM_PYTHON;
    const pinned = findPytestConfig(solved, tests);
    let pinnedPath = pinned ? `${repo}/${pinned}` : `${harness}/pytest.ini`;
    if (pinned) {
      const compat = pytestCompat(readFileSync(join(solved, pinned), "utf8"), pinned, pytestVersion(pyenv ? `${pyenv.dir}/bin/python` : SYSTEM_PYTHON));
      if (compat.replacement !== null) {
        const name = pinned.split("/").pop()!;
        writeFileSync(join(cfg.path, name), compat.replacement);
        pinnedPath = `${cfgIn}/${name}`;
      }
    }
    const argv = [python, "-I", "-B", "-X", `pycache_prefix=${bound ? "/tmp/pycache" : join(cfg.path, "pycache")}`, `${harness}/oracle_trace.py`, `${cfgIn}/request.json`, "--",
      "-c", pinnedPath, `--rootdir=${repo}`, `--confcutdir=${repo}`, "-p", "no:cacheprovider", "-q", "--no-header", "-p", "no:randomly", ...(opts.args ?? []), ...tests];
    const run = await sandbox.run(argv, {
      workdir: solved, workdirReadOnly: false, timeoutMs: opts.timeoutMs ?? 300_000, maxOutputBytes: 64_000_000,
      env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" }, masks: opts.masks ?? [],
      roBinds: bound ? { [harnessDir()]: HARNESS_MOUNT, [cfg.path]: cfgIn, ...(pyenv ? { [pyenv.dir]: PYENV_MOUNT } : {}) } : {},
    });
    const lines: TracedLine[] = [];
    for (const l of run.stdout.split("\n")) {
      if (!l) continue;
      const r = TracedLine.safeParse(JSON.parse(l));
      if (!r.success) return { lines, failure: `the tracer wrote a line that is not a record: ${l.slice(0, 120)}`, run };
      lines.push(r.data);
    }
    if (!lines.some((l) => l.ev === "end")) return { lines, failure: `the tracer did not finish (exit ${run.exitCode ?? run.signal}${run.timedOut ? ", timed out" : ""}): ${run.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 400)}`, run };
    return { lines, failure: null, run };
  } finally {
    cfg.remove();
  }
}

export { layoutOf as behaveLayout };
