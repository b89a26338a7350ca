/**
 * Micro feature-deletion tasks a small policy can learn: generated Python packages of short pure
 * functions over ints, strings and lists (one family each — add, clamp, repeat, prefix, count, …,
 * with seeded constants that the docstring states, or — variant hidden_constants — does not), each with
 * its own pytest tests. The packages go
 * through the real builder (Path B: coverage-mapped deletion, scrub, the four gates) like any repo,
 * so every task is validated by the same gates and its golden diff stays apart from the snapshot.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Rng } from "../core/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { buildFromRepo, type BuildHooks, type BuildReport } from "./build.js";
import { loadTask } from "./pool.js";
import type { FeatureDeletionTask } from "./schema.js";

type Value = number | string | boolean | Value[];

/** A Python literal for a value (ints, strings, booleans, lists). */
export function pyLiteral(v: Value): string {
  if (Array.isArray(v)) return `[${v.map(pyLiteral).join(", ")}]`;
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}

interface Family {
  name: string;
  /** The parameter name and the calls its two tests make. */
  arg: string;
  draw(rng: Rng): Record<string, number | string>;
  doc(p: Record<string, number | string>): string;
  body(p: Record<string, number | string>): string[];
  /** The reference implementation (what the tests' expected values come from). */
  impl(p: Record<string, number | string>, x: Value): Value;
  inputs(rng: Rng, p: Record<string, number | string>): Value[][];
  /** hidden_constants: the docstring without the constant, and an input whose expected output shows
   *  it (the first test, so a wrong body's failing assertion carries the constant). */
  hidden?: { doc: string; reveal: (p: Record<string, number | string>) => Value[] };
}

const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng.next() * (hi - lo + 1));
const ints = (rng: Rng, n: number) => Array.from({ length: n }, () => int(rng, 0, 9));
const WORDS = ["ab", "xy", "cat", "sun", "io", "map", "red", "zen"] as const;
const TAGS = ["pre_", "tmp_", "x", "v1", "_ok", "!", "db."] as const;

/** The function families; each is one or two lines of body. */
export const FAMILIES: Family[] = [
  { name: "add", arg: "x", draw: (r) => ({ k: int(r, 1, 9) }), doc: (p) => `Return x plus ${p.k}.`, body: (p) => [`return x + ${p.k}`], impl: (p, x) => (x as number) + (p.k as number), inputs: (r) => [[int(r, 0, 9)], [int(r, 10, 40)]] , hidden: { doc: "Return x plus a fixed number.", reveal: () => [0] } },
  { name: "times", arg: "x", draw: (r) => ({ k: int(r, 2, 9) }), doc: (p) => `Return x times ${p.k}.`, body: (p) => [`return x * ${p.k}`], impl: (p, x) => (x as number) * (p.k as number), inputs: (r) => [[int(r, 1, 9)], [int(r, 10, 20)]] , hidden: { doc: "Return x times a fixed number.", reveal: () => [1] } },
  { name: "minus", arg: "x", draw: (r) => ({ k: int(r, 1, 9) }), doc: (p) => `Return x minus ${p.k}.`, body: (p) => [`return x - ${p.k}`], impl: (p, x) => (x as number) - (p.k as number), inputs: (r) => [[int(r, 0, 9)], [int(r, 10, 40)]] , hidden: { doc: "Return x minus a fixed number.", reveal: () => [0] } },
  {
    name: "clamp", arg: "x", draw: (r) => { const lo = int(r, 0, 5); return { lo, hi: lo + int(r, 3, 9) }; },
    doc: (p) => `Return x limited to the range ${p.lo} to ${p.hi}.`, body: (p) => [`return max(${p.lo}, min(${p.hi}, x))`],
    impl: (p, x) => Math.max(p.lo as number, Math.min(p.hi as number, x as number)), inputs: (_r, p) => [[(p.lo as number) - 3], [(p.hi as number) + 4]],
  },
  { name: "repeat", arg: "s", draw: (r) => ({ k: int(r, 2, 4) }), doc: (p) => `Return the string s repeated ${p.k} times.`, body: (p) => [`return s * ${p.k}`], impl: (p, s) => (s as string).repeat(p.k as number), inputs: (r) => [[r.pick(WORDS)], [""]] },
  { name: "prefix", arg: "s", draw: (r) => ({ t: r.pick(TAGS) }), doc: (p) => `Return s with "${p.t}" in front.`, body: (p) => [`return ${JSON.stringify(p.t)} + s`], impl: (p, s) => `${p.t}${s}`, inputs: (r) => [[r.pick(WORDS)], [""]] , hidden: { doc: "Return s with a fixed tag in front.", reveal: () => [""] } },
  { name: "suffix", arg: "s", draw: (r) => ({ t: r.pick(TAGS) }), doc: (p) => `Return s with "${p.t}" at the end.`, body: (p) => [`return s + ${JSON.stringify(p.t)}`], impl: (p, s) => `${s}${p.t}`, inputs: (r) => [[r.pick(WORDS)], [""]] , hidden: { doc: "Return s with a fixed tag at the end.", reveal: () => [""] } },
  { name: "total", arg: "xs", draw: (r) => ({ k: int(r, 1, 9) }), doc: (p) => `Return the sum of xs plus ${p.k}.`, body: (p) => [`return sum(xs) + ${p.k}`], impl: (p, xs) => (xs as number[]).reduce((a, b) => a + b, 0) + (p.k as number), inputs: (r) => [[ints(r, 3)], [[]]] , hidden: { doc: "Return the sum of xs plus a fixed number.", reveal: () => [[]] } },
  { name: "count", arg: "xs", draw: (r) => ({ k: int(r, 0, 9) }), doc: (p) => `Return how many items of xs equal ${p.k}.`, body: (p) => [`return xs.count(${p.k})`], impl: (p, xs) => (xs as number[]).filter((v) => v === p.k).length, inputs: (r, p) => [[[p.k as number, ...ints(r, 3), p.k as number]], [[]]] },
  { name: "head", arg: "xs", draw: (r) => ({ k: int(r, 1, 3) }), doc: (p) => `Return the first ${p.k} items of xs.`, body: (p) => [`return xs[:${p.k}]`], impl: (p, xs) => (xs as number[]).slice(0, p.k as number), inputs: (r) => [[ints(r, 5)], [[]]] },
  {
    name: "largest", arg: "xs", draw: (r) => ({ k: int(r, 0, 9) }), doc: (p) => `Return the largest item of xs, or ${p.k} if xs is empty.`,
    body: (p) => ["if not xs:", `    return ${p.k}`, "return max(xs)"], impl: (p, xs) => ((xs as number[]).length ? Math.max(...(xs as number[])) : (p.k as number)), inputs: (r) => [[ints(r, 4)], [[]]],
    hidden: { doc: "Return the largest item of xs, or a fixed default if xs is empty.", reveal: () => [[]] },
  },
  { name: "multiple", arg: "x", draw: (r) => ({ k: int(r, 2, 7) }), doc: (p) => `Return True if x is a multiple of ${p.k}.`, body: (p) => [`return x % ${p.k} == 0`], impl: (p, x) => (x as number) % (p.k as number) === 0, inputs: (r, p) => [[(p.k as number) * int(r, 1, 5)], [(p.k as number) * int(r, 1, 5) + 1]] },
  { name: "scaled", arg: "xs", draw: (r) => ({ k: int(r, 2, 5) }), doc: (p) => `Return each item of xs times ${p.k}.`, body: (p) => [`return [x * ${p.k} for x in xs]`], impl: (p, xs) => (xs as number[]).map((v) => v * (p.k as number)), inputs: (r) => [[ints(r, 3)], [[]]] , hidden: { doc: "Return each item of xs times a fixed number.", reveal: () => [[1]] } },
  { name: "above", arg: "xs", draw: (r) => ({ k: int(r, 2, 7) }), doc: (p) => `Return the items of xs greater than ${p.k}.`, body: (p) => [`return [x for x in xs if x > ${p.k}]`], impl: (p, xs) => (xs as number[]).filter((v) => v > (p.k as number)), inputs: (r) => [[ints(r, 5)], [[]]] },
];

export const MicroOptions = z.object({
  /** Functions (so tasks, before the gates) in all. */
  n: z.number().int().positive().default(24),
  seed: z.number().int().default(0),
  /** Functions per generated package. */
  per_package: z.number().int().min(2).max(12).default(6),
  concurrency: z.number().int().positive().default(2),
  /** A MICRO_VARIANTS entry: "stated" (the docstring states the constants) or "hidden_constants". */
  variant: z.enum(["stated", "hidden_constants"]).default("stated"),
});
export type MicroOptions = z.input<typeof MicroOptions>;

export interface MicroFunction {
  package: string;
  name: string;
  family: string;
  source: string;
  tests: string;
}

/**
 * How a micro run writes each function (a registry: one entry per variant, the generator is shared).
 *   stated: the docstring states the constants and the name carries them (`add_5`: "Return x plus 5.").
 *   hidden_constants: neither does ("Return x plus a fixed number.", `add_k3f9`): the prompt (the stub)
 *     lacks what the body needs, and the first test's input makes the expected value show the constant
 *     (add(0) == 5, prefix("") == "pre_"), so the failing assertion of a wrong body (the real grade's
 *     feedback) or a passing sibling's body carries the information the student lacks. Only the families
 *     with such an input (FAMILIES' `hidden`) are drawn.
 */
export interface MicroVariant {
  families: Family[];
  name(fam: Family, p: Record<string, number | string>, seed: number, i: number): string;
  doc(fam: Family, p: Record<string, number | string>): string;
  inputs(fam: Family, rng: Rng, p: Record<string, number | string>): Value[][];
}

/** A short tag from (seed, index): names that say nothing about the constants. */
function nameTag(seed: number, i: number): string {
  let h = 0x811c9dc5;
  for (const ch of `${seed}:${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return "k" + (h >>> 0).toString(36).slice(0, 4);
}

export const MICRO_VARIANTS: Record<z.infer<typeof MicroOptions>["variant"], MicroVariant> = {
  stated: {
    families: FAMILIES,
    name: (fam, p) => `${fam.name}_${Object.values(p).map((v) => String(v).replace(/\W/g, "")).join("_") || "v"}`.replace(/_+$/, ""),
    doc: (fam, p) => fam.doc(p),
    inputs: (fam, rng, p) => fam.inputs(rng, p),
  },
  hidden_constants: {
    families: FAMILIES.filter((f) => f.hidden),
    name: (fam, _p, seed, i) => `${fam.name}_${nameTag(seed, i)}`,
    doc: (fam) => fam.hidden!.doc,
    inputs: (fam, rng, p) => {
      const reveal = fam.hidden!.reveal(p);
      const usual = fam.inputs(rng, p);
      return [reveal, usual.find((a) => JSON.stringify(a) !== JSON.stringify(reveal)) ?? usual[0]!];
    },
  },
};

/** The functions of a micro run (seeded: the same seed and variant write the same packages). */
export function microFunctions(opts: MicroOptions = {}): MicroFunction[] {
  const o = MicroOptions.parse(opts);
  const v = MICRO_VARIANTS[o.variant];
  const rng = new Rng(o.seed * 7919 + 17);
  const out: MicroFunction[] = [];
  for (let i = 0; i < o.n; i++) {
    const pkg = `micro_s${o.seed}_${String(Math.floor(i / o.per_package)).padStart(3, "0")}`;
    const fam = v.families[Math.floor(rng.next() * v.families.length)]!;
    const p = fam.draw(rng);
    const used = new Set(out.filter((f) => f.package === pkg).map((f) => f.name));
    let name = v.name(fam, p, o.seed, i);
    while (used.has(name)) name += "_b";
    const source = [`def ${name}(${fam.arg}):`, `    """${v.doc(fam, p)}"""`, ...fam.body(p).map((l) => `    ${l}`)].join("\n");
    const tests = v.inputs(fam, rng, p).map((args, j) => [
      `def test_${name}_${j + 1}():`,
      `    assert ${name}(${args.map(pyLiteral).join(", ")}) == ${pyLiteral(fam.impl(p, args[0]!))}`,
    ].join("\n")).join("\n\n\n");
    out.push({ package: pkg, name, family: fam.name, source, tests });
  }
  return out;
}

/** Writes each package as a small repo: <dir>/<package>/{<package>/__init__.py, <package>/funcs.py, tests/test_funcs.py}. */
export function writeMicroPackages(dir: string, fns: MicroFunction[]): string[] {
  const byPkg = new Map<string, MicroFunction[]>();
  for (const f of fns) byPkg.set(f.package, [...(byPkg.get(f.package) ?? []), f]);
  const repos: string[] = [];
  for (const [pkg, fs] of byPkg) {
    const repo = join(dir, pkg);
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(join(repo, pkg), { recursive: true });
    mkdirSync(join(repo, "tests"), { recursive: true });
    writeFileSync(join(repo, pkg, "__init__.py"), "");
    writeFileSync(join(repo, pkg, "funcs.py"), `"""Generated micro functions (composer-lab tasks micro)."""\n\n\n${fs.map((f) => f.source).join("\n\n\n")}\n`);
    writeFileSync(join(repo, "tests", "test_funcs.py"), `from ${pkg}.funcs import ${fs.map((f) => f.name).join(", ")}\n\n\n${fs.map((f) => f.tests).join("\n\n\n")}\n`);
    repos.push(repo);
  }
  return repos;
}

export interface MicroBuild {
  packages: string[];
  pool: string;
  tasks: FeatureDeletionTask[];
  reports: BuildReport[];
}

/**
 * Generates the packages under <out>/packages and builds them with the real builder (Path B, stub
 * mode, every function a candidate) into the task pool <out>/pool.
 */
export async function buildMicroTasks(out: string, sandbox: Sandbox, opts: MicroOptions = {}, hooks: BuildHooks = {}): Promise<MicroBuild> {
  const o = MicroOptions.parse(opts);
  const fns = microFunctions(o);
  const repos = writeMicroPackages(join(out, "packages"), fns);
  const pool = join(out, "pool");
  const reports: BuildReport[] = [];
  for (const repo of repos) {
    reports.push(await buildFromRepo(repo, pool, sandbox, { path: "ast", granularity: "function", mode: "stub", min_lines: 1, max: o.per_package, max_coupling: 0.5, concurrency: o.concurrency, repo_name: repo.split("/").pop() }, hooks));
  }
  const ids = reports.flatMap((r) => r.tasks);
  return { packages: repos, pool, tasks: ids.map((id) => loadTask(pool, id)), reports };
}
