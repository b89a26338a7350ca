/**
 * The behavioural oracle of a task (issue 26 §1): what the ORIGINAL implementation of the deleted
 * symbols did, recorded at build time, kept outside the snapshot (<pool>/oracle/<task_id>.json,
 * beside golden/; the snapshot copy — tasks/<id>/repo — never includes it):
 *  - visible calls: every call of a deleted symbol made while the target tests ran on the solved
 *    tree (oracle_trace.py), with arguments, return value or raised exception class, and the
 *    arguments after the call (mutations);
 *  - hidden calls: generated inputs of the same shapes (each leaf of an argument perturbed: ints,
 *    floats, strings, bytes, list lengths; instance state kept as traced), answered by the original.
 * Every call is replayed on the original in a fresh sandboxed interpreter (behave.py) twice; a call
 * whose replays disagree with each other (or a visible one with its trace) is dropped as
 * state-dependent, so what remains is what the symbol does with these inputs alone. A symbol whose
 * calls cannot be replayed as plain data (callbacks, open resources, generators, objects of classes
 * outside the project) is `not_applicable`, with the reason.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Rng, tempDir } from "../core/index.js";
import { BCall, BOutcome, BValue, masksFor, projectNames, pytestArgsFromCommand, repoLayout, runBehaviour, scanMasks, traceCalls, type BehaveSymbol, type PyEnv, type Sandbox, type TracedLine } from "../sandbox/index.js";
import { moduleName } from "./closure.js";
import { applyUnifiedDiff } from "./diffs.js";
import type { FeatureDeletionTask } from "./schema.js";

export const ORACLE_VERSION = 1;

export const OracleCall = BCall.extend({ hidden: z.boolean(), expect: BOutcome, /** a hidden call between the visible extremes of a numeric argument (spanningCalls) */ span: z.boolean().optional() });
export type OracleCall = z.infer<typeof OracleCall>;

export const OracleSymbol = z.object({
  file: z.string(),
  qualname: z.string(),
  module: z.string().nullable(),
  status: z.enum(["checked", "not_applicable"]),
  /** Why the check does not apply (null when checked). */
  why: z.string().nullable(),
  traced: z.number().int(),
  visible: z.number().int(),
  hidden: z.number().int(),
  /** Calls left out, by reason. */
  dropped: z.record(z.number().int()),
});
export type OracleSymbol = z.infer<typeof OracleSymbol>;

export const Oracle = z.object({
  version: z.literal(ORACLE_VERSION),
  task_id: z.string(),
  built_at: z.string(),
  /** ok: at least one symbol is checked; not_applicable: none is (see symbols[].why); error: the build failed (why). */
  status: z.enum(["ok", "not_applicable", "error"]),
  why: z.string().nullable(),
  roots: z.array(z.string()),
  project: z.array(z.string()),
  symbols: z.array(OracleSymbol),
  calls: z.array(OracleCall),
});
export type Oracle = z.infer<typeof Oracle>;

export const oraclePath = (pool: string, taskId: string): string => join(pool, "oracle", `${taskId}.json`);

const cache = new Map<string, { mtime: number; oracle: Oracle }>();

/** Reads an oracle file (zod-checked; cached by path and mtime). */
export function readOracle(path: string): Oracle {
  const mtime = statSync(path).mtimeMs;
  const hit = cache.get(path);
  if (hit && hit.mtime === mtime) return hit.oracle;
  const r = Oracle.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!r.success) throw new Error(`${path}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
  cache.set(path, { mtime, oracle: r.data });
  return r.data;
}

export function writeOracle(pool: string, oracle: Oracle): string {
  const p = oraclePath(pool, oracle.task_id);
  mkdirSync(join(pool, "oracle"), { recursive: true });
  writeFileSync(`${p}.tmp`, JSON.stringify(Oracle.parse(oracle)) + "\n");
  renameSync(`${p}.tmp`, p);
  return p;
}

// ---- comparison ---------------------------------------------------------------------------------

export const CompareOptions = z.object({
  /** Floats agree within this relative (and absolute) tolerance. */
  float_rel_tol: z.number().min(0).default(1e-9),
  float_abs_tol: z.number().min(0).default(1e-12),
  /** type: the same exception class; family: the same first builtin exception class on its MRO
   *  (a project's ValueError subclass matches ValueError); raised: any exception. */
  exceptions: z.enum(["type", "family", "raised"]).default("family"),
  /** Compare the arguments after the call (mutations) too. */
  mutations: z.boolean().default(true),
});
export type CompareOptions = z.output<typeof CompareOptions>;

const canon = (v: BValue): string => JSON.stringify(v);

export function sameValue(a: BValue, b: BValue, o: CompareOptions): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case "none":
      return true;
    case "bool":
      return a.v === (b as typeof a).v;
    case "float": {
      const x = Number(a.v);
      const y = Number((b as typeof a).v);
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
      if (x === y) return true;
      return Math.abs(x - y) <= Math.max(o.float_abs_tol, o.float_rel_tol * Math.max(Math.abs(x), Math.abs(y)));
    }
    case "int": case "str": case "bytes": case "bytearray": case "class":
      return a.v === (b as typeof a).v;
    case "complex": {
      const c = b as typeof a;
      return sameValue({ t: "float", v: a.v[0] }, { t: "float", v: c.v[0] }, o) && sameValue({ t: "float", v: a.v[1] }, { t: "float", v: c.v[1] }, o);
    }
    case "list": case "tuple": case "set": case "frozenset": {
      const c = b as typeof a;
      return a.v.length === c.v.length && a.v.every((x, i) => sameValue(x, c.v[i]!, o));
    }
    case "dict": {
      const c = b as typeof a;
      if (a.v.length !== c.v.length) return false;
      const byKey = new Map(c.v.map(([k, v]) => [canon(k), v]));
      return byKey.size === c.v.length && a.v.every(([k, v]) => byKey.has(canon(k)) && sameValue(v, byKey.get(canon(k))!, o));
    }
    case "inst": {
      const c = b as typeof a;
      if (a.cls !== c.cls || a.opaque !== undefined || c.opaque !== undefined || (a.factory ?? null) !== (c.factory ?? null)) return false;
      if ((a.base === undefined) !== (c.base === undefined) || (a.base && !sameValue(withoutDefaultEntries(a.base, a.factory, o), withoutDefaultEntries(c.base!, c.factory, o), o))) return false;
      const da = new Map(a.dict ?? []);
      const db = new Map(c.dict ?? []);
      // (expected, actual): every attribute the original set, equal; an extra private one (`_x`) the
      // re-implementation keeps for itself is not behaviour (round 4, H4b: a cached `_qualname`)
      return [...da].every(([k, v]) => db.has(k) && sameValue(v, db.get(k)!, o)) && [...db.keys()].every((k) => da.has(k) || k.startsWith("_"));
    }
  }
}

/** A builtin factory's empty value, as the serializer writes it. */
const FACTORY_EMPTY: Record<string, BValue> = {
  int: { t: "int", v: "0" }, float: { t: "float", v: "0.0" }, bool: { t: "bool", v: false }, str: { t: "str", v: "" },
  bytes: { t: "bytes", v: "" }, bytearray: { t: "bytearray", v: "" }, list: { t: "list", v: [] }, tuple: { t: "tuple", v: [] }, set: { t: "set", v: [] },
  frozenset: { t: "frozenset", v: [] }, dict: { t: "dict", v: [] },
};

/** A defaultdict's entries that hold its factory's empty value dropped: `d[k]` reads the same with
 *  or without them, so an implementation that touched `d[k]` on its way (round 3, H05: a lookup
 *  before a check) behaves as one that did not. */
function withoutDefaultEntries(base: BValue, factory: string | null | undefined, o: CompareOptions): BValue {
  const empty = factory ? FACTORY_EMPTY[factory] : undefined;
  if (!empty || base.t !== "dict") return base;
  return { t: "dict", v: base.v.filter(([, v]) => !sameValue(v, empty, o)) };
}

/** Whether `actual` agrees with `expected`; the reason when not (never naming the values). */
export function sameOutcome(expected: BOutcome, actual: BOutcome, opts: Partial<CompareOptions> = {}): { ok: boolean; why: string | null } {
  const o = CompareOptions.parse(opts);
  const no = (why: string) => ({ ok: false, why });
  if (actual.k === "timeout") return no("timed out");
  if (actual.k === "error") return no(`could not be called (${actual.why})`);
  if (actual.k === "unserializable") return no(`its result is not plain data (${actual.why})`);
  if (expected.k !== "return" && expected.k !== "raise") return no(`the oracle has no outcome (${expected.k})`);
  if (expected.k === "return" && actual.k === "raise") return no(`raised ${actual.exc.type} where the original returned`);
  if (expected.k === "raise" && actual.k === "return") return no(`returned where the original raised ${expected.exc.type}`);
  if (expected.k === "return" && actual.k === "return" && !sameValue(expected.ret, actual.ret, o)) return no(actual.ret.t === expected.ret.t ? `returned a different ${expected.ret.t === "inst" ? expected.ret.cls : expected.ret.t}` : `returned a ${actual.ret.t === "inst" ? actual.ret.cls : actual.ret.t} where the original returned a ${expected.ret.t === "inst" ? expected.ret.cls : expected.ret.t}`);
  if (expected.k === "raise" && actual.k === "raise") {
    const e = expected.exc;
    const a = actual.exc;
    if (o.exceptions === "type" && e.type !== a.type) return no(`raised ${a.type} where the original raised ${e.type}`);
    if (o.exceptions === "family" && e.builtin !== a.builtin) return no(`raised ${a.type} (a ${a.builtin}) where the original raised ${e.type} (a ${e.builtin})`);
  }
  if (o.mutations) {
    const ep = (expected as { post: BValue[] }).post;
    const ap = (actual as { post: BValue[] }).post;
    if (ep.length !== ap.length || ep.some((v, i) => !sameValue(v, ap[i]!, o))) return no("left its arguments in a different state");
    const ek = (expected as { postkw: [string, BValue][] }).postkw;
    const ak = new Map((actual as { postkw: [string, BValue][] }).postkw);
    if (ek.some(([k, v]) => !ak.has(k) || !sameValue(v, ak.get(k)!, o))) return no("left its keyword arguments in a different state");
  }
  return { ok: true, why: null };
}

// ---- hidden inputs ------------------------------------------------------------------------------

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 _-.,;:<>&'\"/!";

/** A string near `s`: its own characters, those of the symbol's other visible strings (so the
 *  characters the tests care about — delimiters, markup — keep turning up), a few others; or a
 *  splice of two visible strings. */
function mutateString(rng: Rng, s: string, pool: string[]): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)]!;
  if (pool.length > 1 && rng.next() < 0.25) {
    const a = pick(pool);
    const b = pick(pool);
    return a.slice(0, Math.floor(rng.next() * (a.length + 1))) + b.slice(Math.floor(rng.next() * (b.length + 1)));
  }
  const shared = [...new Set([...s, ...pool.join("")])];
  const len = Math.max(0, s.length + Math.floor(rng.next() * 5) - 2);
  const out: string[] = [];
  for (let i = 0; i < len; i++) {
    const r = rng.next();
    out.push(i < s.length && r < 0.35 ? s[i]! : r < 0.75 && shared.length ? pick(shared) : pick([...ALPHABET]));
  }
  return out.join("");
}

/** Every str leaf of some values (the pool hidden strings draw from). */
export function stringsOf(vs: BValue[], out: string[] = []): string[] {
  for (const v of vs) {
    if (v.t === "str") out.push(v.v);
    else if (v.t === "list" || v.t === "tuple" || v.t === "set" || v.t === "frozenset") stringsOf(v.v, out);
    else if (v.t === "dict") stringsOf(v.v.flat(), out);
    else if (v.t === "inst") stringsOf([...(v.base ? [v.base] : []), ...(v.dict ?? []).map(([, x]) => x)], out);
  }
  return out;
}

/** A value of the same shape as `v`, its leaves perturbed (instance state and classes kept). */
export function mutateValue(rng: Rng, v: BValue, depth = 0, pool: string[] = []): BValue {
  const m = (x: BValue) => mutateValue(rng, x, depth + 1, pool);
  switch (v.t) {
    case "int": {
      const n = BigInt(v.v);
      const mag = n < 0n ? -n : n;
      const span = mag > 10n ? mag * 2n : 10n;
      const r = rng.next();
      const d = r < 0.5 ? BigInt(Math.floor(rng.next() * 7) - 3) : BigInt(Math.floor((rng.next() * 2 - 1) * Number(span > 1_000_000n ? 1_000_000n : span)));
      return { t: "int", v: String(n + (d === 0n ? 1n : d)) };
    }
    case "float": {
      const x = Number(v.v);
      const y = Number.isFinite(x) ? x * (0.5 + rng.next()) + (rng.next() - 0.5) : x;
      return { t: "float", v: String(Number.isInteger(y) ? `${y}.0` : y) };
    }
    case "bool":
      return rng.next() < 0.5 ? { t: "bool", v: !v.v } : v;
    case "str":
      return { t: "str", v: mutateString(rng, v.v, pool) };
    case "bytes": case "bytearray": {
      const bytes = v.v.match(/../g) ?? [];
      const len = Math.max(0, bytes.length + Math.floor(rng.next() * 3) - 1);
      return { t: v.t, v: Array.from({ length: len }, (_, i) => (i < bytes.length && rng.next() < 0.5 ? bytes[i]! : Math.floor(rng.next() * 256).toString(16).padStart(2, "0"))).join("") };
    }
    case "list": case "tuple": case "set": case "frozenset": {
      if (depth > 8) return v;
      let items = v.v.map((x) => (rng.next() < 0.7 ? m(x) : x));
      const r = rng.next();
      if (items.length && r < 0.2) items = items.filter((_, i) => i !== Math.floor(rng.next() * items.length));
      else if (items.length && r < 0.4) items = [...items, m(items[Math.floor(rng.next() * items.length)]!)];
      if (v.t === "set" || v.t === "frozenset") {
        const seen = new Map(items.map((x) => [JSON.stringify(x), x]));
        items = [...seen.keys()].sort().map((k) => seen.get(k)!);
      }
      return { t: v.t, v: items };
    }
    case "dict":
      return depth > 8 ? v : { t: "dict", v: v.v.map(([k, x]) => [k, rng.next() < 0.7 ? m(x) : x]) };
    case "inst":
      if (v.opaque || depth > 8) return v;
      if (v.base) return { ...v, base: m(v.base) };
      return v.dict ? { ...v, dict: v.dict.map(([k, x]) => [k, rng.next() < 0.5 ? m(x) : x]) } : v;
    default:
      return v;
  }
}

/** Whether a value can be rebuilt in the runner (plain data, project instances and classes). */
export function replayable(v: BValue): string | null {
  switch (v.t) {
    case "list": case "tuple": case "set": case "frozenset":
      for (const x of v.v) {
        const w = replayable(x);
        if (w) return w;
      }
      return null;
    case "dict":
      for (const [k, x] of v.v) {
        const w = replayable(k) ?? replayable(x);
        if (w) return w;
      }
      return null;
    case "inst":
      if (v.opaque) return `${v.cls}: ${v.opaque}`;
      if (v.base) {
        const w = replayable(v.base);
        if (w) return w;
      }
      for (const [, x] of v.dict ?? []) {
        const w = replayable(x);
        if (w) return w;
      }
      return null;
    default:
      return null;
  }
}

export const OracleOptions = z.object({
  /** Visible (traced) calls kept per symbol, at most. */
  max_visible: z.number().int().positive().default(24),
  /** Hidden calls per symbol: at least this many generated (when shapes allow), at most max_hidden. */
  min_hidden: z.number().int().nonnegative().default(8),
  max_hidden: z.number().int().nonnegative().default(32),
  /** Variants generated per visible call (before the cap). */
  per_visible: z.number().int().positive().default(4),
  seed: z.number().int().default(26),
  timeoutMs: z.number().int().positive().default(300_000),
});
export type OracleOptions = z.input<typeof OracleOptions>;

const hashSeed = (s: string, seed: number): number => {
  let h = seed | 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
};

/** Calls like the visible ones with one numeric positional argument at `n` evenly spaced values
 *  strictly between the smallest and largest the visible calls gave it (ints stay ints). */
function spanningCalls(visible: { pos: BValue[]; kw: [string, BValue][] }[], n: number): { pos: BValue[]; kw: [string, BValue][] }[] {
  const out: { pos: BValue[]; kw: [string, BValue][] }[] = [];
  const width = Math.max(0, ...visible.map((c) => c.pos.length));
  for (let k = 0; k < width; k++) {
    const at = visible.filter((c) => c.pos[k]?.t === "int" || c.pos[k]?.t === "float");
    if (at.length < 2 || at.some((c) => c.pos[k]!.t !== at[0]!.pos[k]!.t)) continue;
    const xs = at.map((c) => Number((c.pos[k] as { v: string }).v)).filter(Number.isFinite);
    const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
    const isInt = at[0]!.pos[k]!.t === "int";
    if (!(hi > lo) || (isInt && (hi - lo > 1e9 || !Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)))) continue;
    const values = new Set<number>();
    for (let j = 1; j <= n; j++) {
      const x = lo + ((hi - lo) * j) / (n + 1);
      const v = isInt ? Math.round(x) : x;
      if (v > lo && v < hi) values.add(v);
    }
    [...values].forEach((v, j) => {
      const src = at[j % at.length]!;
      const pos = src.pos.map((p, q) => (q === k ? (isInt ? { t: "int" as const, v: String(v) } : { t: "float" as const, v: Number.isInteger(v) ? `${v}.0` : String(v) }) : p));
      out.push({ pos, kw: src.kw });
    });
  }
  return out;
}

/** The solved tree of a task: its snapshot with the golden diff applied (what gate 4 checks). */
export function solvedCopy(task: FeatureDeletionTask): { path: string; remove: () => void } {
  if (task.broken.kind !== "dir") throw new Error(`${task.task_id}: the oracle needs a directory snapshot`);
  const tmp = tempDir(`oracle-${task.task_id}-`);
  cpSync(task.broken.path, tmp.path, { recursive: true });
  applyUnifiedDiff(tmp.path, task.golden_diff);
  return tmp;
}

/**
 * Builds a task's oracle: traces the original under the target tests, generates hidden inputs,
 * replays everything on the original twice. Never throws for what the task's code does: a failed
 * build is an oracle with status "error" and the reason.
 */
export async function buildOracle(task: FeatureDeletionTask, sandbox: Sandbox, options: OracleOptions & { pyenv?: PyEnv | null } = {}): Promise<Oracle> {
  const o = OracleOptions.parse(options);
  const base = { version: ORACLE_VERSION, task_id: task.task_id, built_at: new Date().toISOString() } as const;
  let solved: { path: string; remove: () => void } | undefined;
  try {
    solved = solvedCopy(task);
    const layout = repoLayout(solved.path);
    const roots = layout.roots.length ? layout.roots : ["."];
    const project = [...new Set(layout.packages.map((p) => p.name.split(".")[0]!))];
    const symbols: OracleSymbol[] = task.deleted_symbols.map((d) => ({ file: d.file, qualname: d.qualname, module: moduleName(d.file, roots), status: "not_applicable", why: null, traced: 0, visible: 0, hidden: 0, dropped: {} }));
    const drop = (i: number, why: string) => (symbols[i]!.dropped[why] = (symbols[i]!.dropped[why] ?? 0) + 1);
    if (!symbols.length) return { ...base, status: "not_applicable", why: "the task names no deleted symbol", roots, project, symbols, calls: [] };
    // installed copies of the project masked (mask.ts): the original answers from the tree, not a copy
    const snap = (task.broken as { path: string }).path;
    const plan = await scanMasks(sandbox, snap, projectNames(snap, (task as { mask?: { names: string[]; dists: string[] } }).mask ?? null), { pyenv: options.pyenv });
    const traced = await traceCalls(sandbox, solved.path, task.deleted_symbols, task.fail_to_pass, { roots, project, pyenv: options.pyenv, args: pytestArgsFromCommand(task.test_command), timeoutMs: o.timeoutMs, maxCalls: 4 * o.max_visible, masks: masksFor(plan, "pytest") });
    if (traced.failure) return { ...base, status: "error", why: `tracing the original: ${traced.failure}`, roots, project, symbols, calls: [] };
    const candidates: (Omit<OracleCall, "expect"> & { traced?: BOutcome })[] = [];
    const seen = new Set<string>();
    for (const l of traced.lines as TracedLine[]) {
      if (l.ev === "end") continue;
      const s = symbols[l.symbol];
      if (!s) continue;
      s.traced++;
      if (l.ev === "drop") {
        drop(l.symbol, l.why);
        continue;
      }
      if (s.module === null) {
        drop(l.symbol, "the symbol's file is not an importable module");
        continue;
      }
      if (l.out.k !== "return" && l.out.k !== "raise") {
        drop(l.symbol, l.out.k === "unserializable" ? `the result is not plain data (${l.out.why})` : l.out.k);
        continue;
      }
      const why = [...l.pos, ...l.kw.map(([, v]) => v)].map(replayable).find(Boolean) ?? (l.out.k === "return" ? replayable(l.out.ret) : null) ?? [...l.out.post, ...l.out.postkw.map(([, v]) => v)].map(replayable).find(Boolean);
      if (why) {
        drop(l.symbol, `not plain data: ${why}`);
        continue;
      }
      const key = JSON.stringify([l.symbol, l.pos, l.kw]);
      if (seen.has(key)) continue;
      seen.add(key);
      if (candidates.filter((c) => c.symbol === l.symbol && !c.hidden).length >= o.max_visible) continue;
      candidates.push({ id: `v${candidates.length}`, symbol: l.symbol, pos: l.pos, kw: l.kw, hidden: false, traced: l.out });
    }
    // hidden inputs: perturbed copies of the visible ones
    for (let i = 0; i < symbols.length; i++) {
      const visible = candidates.filter((c) => c.symbol === i && !c.hidden);
      if (!visible.length) continue;
      const rng = new Rng(hashSeed(`${task.task_id}:${symbols[i]!.qualname}`, o.seed));
      const pool = [...new Set(stringsOf(visible.flatMap((c) => [...c.pos, ...c.kw.map(([, v]) => v)])))];
      const want = Math.min(o.max_hidden, Math.max(o.min_hidden, visible.length * o.per_visible));
      let made = 0;
      for (let tries = 0; made < want && tries < want * 8; tries++) {
        const src = visible[tries % visible.length]!;
        // a method's receiver keeps its traced state (its invariants are the class's business)
        const method = symbols[i]!.qualname.includes(".");
        const pos = src.pos.map((v, k) => (method && k === 0 && v.t === "inst" && !v.base ? v : mutateValue(rng, v, 0, pool)));
        const kw = src.kw.map(([k, v]) => [k, rng.next() < 0.7 ? mutateValue(rng, v, 0, pool) : v] as [string, BValue]);
        const key = JSON.stringify([i, pos, kw]);
        if (seen.has(key)) continue;
        seen.add(key);
        candidates.push({ id: `h${candidates.length}`, symbol: i, pos, kw, hidden: true });
        made++;
      }
      // between the visible values: a numeric argument the tests give only at its extremes (round 4,
      // M1: clamp tested only out of range) is also called at evenly spaced points between them, so
      // a body fitted to the extremes disagrees on many hidden calls, not on one the threshold forgives
      for (const call of spanningCalls(visible, 2 * o.min_hidden)) {
        const key = JSON.stringify([i, call.pos, call.kw]);
        if (seen.has(key)) continue;
        seen.add(key);
        candidates.push({ id: `h${candidates.length}`, symbol: i, pos: call.pos, kw: call.kw, hidden: true, span: true });
      }
    }
    const calls: OracleCall[] = [];
    if (candidates.length) {
      const bsyms: BehaveSymbol[] = symbols.map((s) => ({ module: s.module ?? "", qualname: s.qualname }));
      const replay = await runBehaviour(sandbox, solved.path, { symbols: bsyms, calls: candidates.map(({ id, symbol, pos, kw }) => ({ id, symbol, pos, kw })), roots, project, repeat: 2 }, {}, { pyenv: options.pyenv, warm: false, masks: masksFor(plan, "shell") });
      if (replay.failure || !replay.outcomes) return { ...base, status: "error", why: `replaying the original: ${replay.failure}; ${replay.run.stderr.trim().split("\n").slice(-2).join(" | ").slice(0, 300)}`, roots, project, symbols, calls: [] };
      for (const c of candidates) {
        const [a, b] = replay.outcomes.get(c.id)!;
        if (a!.k !== "return" && a!.k !== "raise") {
          drop(c.symbol, `${c.hidden ? "hidden" : "visible"} replay: ${a!.k}${"why" in a! ? ` (${a!.why})` : ""}`);
          continue;
        }
        if (!sameOutcome(a!, b!, { exceptions: "type" }).ok) {
          drop(c.symbol, "replays disagree (nondeterministic)");
          continue;
        }
        if (c.traced && !sameOutcome(c.traced, a!, { exceptions: "type" }).ok) {
          drop(c.symbol, "the replay differs from the traced call (depends on state the tests set up)");
          continue;
        }
        const { traced: _t, ...call } = c;
        const { ms: _ms, ...expect } = a!;
        calls.push({ ...call, expect });
      }
    }
    for (let i = 0; i < symbols.length; i++) {
      const s = symbols[i]!;
      s.visible = calls.filter((c) => c.symbol === i && !c.hidden).length;
      s.hidden = calls.filter((c) => c.symbol === i && c.hidden).length;
      // only raising calls left (round 4, A1: the one error-path call kept, every other dropped) check
      // nothing of what the symbol computes: not applicable, so the mutation gate covers it instead
      const returning = calls.filter((c) => c.symbol === i && c.expect.k === "return").length;
      if (s.visible + s.hidden > 0 && returning > 0) s.status = "checked";
      else if (s.visible + s.hidden > 0) s.why = `only calls that raise could be replayed (${s.visible + s.hidden}; the rest dropped: ${Object.entries(s.dropped).map(([w, n]) => `${w} ×${n}`).join(", ") || "none"})`;
      else {
        const top = Object.entries(s.dropped).sort((x, y) => y[1] - x[1])[0];
        s.why = s.traced === 0 ? "the target tests never call it (directly)" : `no call can be replayed as plain data: ${top ? `${top[0]} (${top[1]} of ${s.traced})` : "none kept"}`;
      }
    }
    const checked = symbols.some((s) => s.status === "checked");
    return { ...base, status: checked ? "ok" : "not_applicable", why: checked ? null : symbols.map((s) => `${s.qualname}: ${s.why}`).join("; "), roots, project, symbols, calls };
  } catch (e) {
    return { ...base, status: "error", why: (e as Error).message.slice(0, 500), roots: [], project: [], symbols: [], calls: [] };
  } finally {
    solved?.remove();
  }
}

/** Builds and writes a pool task's oracle; returns it. */
export async function writeTaskOracle(pool: string, task: FeatureDeletionTask, sandbox: Sandbox, options: OracleOptions & { pyenv?: PyEnv | null } = {}): Promise<Oracle> {
  const oracle = await buildOracle(task, sandbox, options);
  writeOracle(pool, oracle);
  return oracle;
}

/** A task's oracle, or null when its pool has none for it. */
export function taskOracle(task: FeatureDeletionTask): Oracle | null {
  if (!task.oracle_path || !existsSync(task.oracle_path)) return null;
  return readOracle(task.oracle_path);
}

export interface RebuildOracleReport {
  pool: string;
  tasks: number;
  /** Per status: ok (some symbol checked), not_applicable, error. */
  status: Record<Oracle["status"], number>;
  calls: { visible: number; hidden: number };
  bytes: number;
  seconds: number;
  rows: { task_id: string; status: Oracle["status"]; why: string | null; visible: number; hidden: number }[];
}

/** `tasks rebuild-oracle`: (re)builds the oracle of every task of a pool (or of `only`), in place. */
export async function rebuildOracles(pool: string, sandbox: Sandbox, opts: OracleOptions & { only?: string[]; concurrency?: number; onTask?: (id: string, o: Oracle) => void } = {}): Promise<RebuildOracleReport> {
  const { readIndex, loadTask } = await import("./pool.js");
  const t0 = performance.now();
  const ids = readIndex(pool).map((e) => e.task_id).filter((id) => !opts.only?.length || opts.only.includes(id));
  const missing = (opts.only ?? []).filter((id) => !ids.includes(id));
  if (missing.length) throw new Error(`${pool}: no task ${missing.join(", ")}`);
  const rows: RebuildOracleReport["rows"] = [];
  let bytes = 0;
  const queue = [...ids];
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const oracle = await writeTaskOracle(pool, loadTask(pool, id), sandbox, opts);
      bytes += statSync(oraclePath(pool, id)).size;
      rows.push({ task_id: id, status: oracle.status, why: oracle.why, visible: oracle.calls.filter((c) => !c.hidden).length, hidden: oracle.calls.filter((c) => c.hidden).length });
      opts.onTask?.(id, oracle);
    }
  }));
  rows.sort((a, b) => ids.indexOf(a.task_id) - ids.indexOf(b.task_id));
  const status = { ok: 0, not_applicable: 0, error: 0 };
  for (const r of rows) status[r.status]++;
  return { pool, tasks: rows.length, status, calls: { visible: rows.reduce((n, r) => n + r.visible, 0), hidden: rows.reduce((n, r) => n + r.hidden, 0) }, bytes, seconds: (performance.now() - t0) / 1000, rows };
}
