/** Python source facts (definitions, their bodies, imports) from Python's own ast module, run
 *  as a parse-only helper: nothing in the analysed code is executed. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { z } from "zod";
import { holdChild, jupyterPython, projectRoot } from "../core/index.js";
import { SitePlace } from "../sandbox/index.js";

export const PySymbol = z.object({
  qualname: z.string(),
  kind: z.enum(["function", "class"]),
  start: z.number().int(),
  lineno: z.number().int(),
  end_lineno: z.number().int(),
  body_start: z.number().int().nullable(),
  body_col: z.number().int(),
  doc_span: z.tuple([z.number().int(), z.number().int()]).nullable(),
  real_statements: z.number().int(),
  source: z.string(),
  /** Annotation spans in the signature (for hint starvation). */
  hints: z.array(z.object({ start: z.union([z.tuple([z.number(), z.number()]), z.literal("returns")]), end: z.tuple([z.number(), z.number()]), returns_start: z.tuple([z.number(), z.number()]).optional(), text: z.string() })).default([]),
  /** A function's parameters in order, with their annotations as written (null for a class). */
  params: z.array(z.object({ name: z.string(), kind: z.enum(["positional", "var_positional", "keyword", "var_keyword"]), annotation: z.string().nullable() })).nullable().default(null),
  /** A function's constants (body and doctest examples; bytes as hex), the oracle's dictionary for hidden inputs; null for a class. */
  literals: z.object({ str: z.array(z.string()), bytes: z.array(z.string()), int: z.array(z.string()) }).nullable().default(null),
  /** Names the definition uses (for finding imports a removal leaves dead). */
  names: z.array(z.string()).default([]),
});
export type PySymbol = z.infer<typeof PySymbol>;

export const PyBinding = z.object({ lineno: z.number().int(), end_lineno: z.number().int().optional(), module: z.string().nullable(), names: z.array(z.string()), level: z.number().int().default(0), assign: z.boolean().optional() });
export type PyBinding = z.infer<typeof PyBinding>;

/** A construct that reaches into the test harness or the interpreter (see pyast.py's TAMPER_*), or
 *  that reads the machine or the process the code runs on (`probes`: pyast.py's PROBE_*). */
export const PyTamperSite = z.object({ lineno: z.number().int(), what: z.string() });
export type PyTamperSite = z.infer<typeof PyTamperSite>;

export const PyFileFacts = z.object({ symbols: z.array(PySymbol), imports: z.array(PyBinding), tamper: z.array(PyTamperSite).default([]), probes: z.array(PyTamperSite).default([]), error: z.string().nullable() });
export type PyFileFacts = z.infer<typeof PyFileFacts>;

let worker: { child: ChildProcess; pending: ((line: string | Error) => void)[]; buffer: string } | null = null;

function startWorker() {
  const child = spawn(jupyterPython(), ["-I", "-S", join(projectRoot(), "lib", "tasks", "pyast.py"), "--serve"], { stdio: ["pipe", "pipe", "pipe"] });
  const w = { child, pending: [] as ((line: string | Error) => void)[], buffer: "" };
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (d: string) => {
    w.buffer += d;
    for (let i = w.buffer.indexOf("\n"); i >= 0; i = w.buffer.indexOf("\n")) {
      const line = w.buffer.slice(0, i);
      w.buffer = w.buffer.slice(i + 1);
      w.pending.shift()?.(line);
      if (w.pending.length === 0) hold(w, false);
    }
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
  const fail = () => {
    if (worker === w) worker = null;
    for (const p of w.pending.splice(0)) p(new Error(`pyast worker exited: ${stderr}`));
  };
  child.on("exit", fail);
  child.on("error", fail);
  hold(w, false);
  return w;
}

/** A worker with requests in flight keeps the process alive; an idle one must not. */
const hold = (w: { child: ChildProcess }, busy: boolean): void => holdChild(w.child, busy);

/**
 * pythonFacts through a long-lived helper process (started on first use, reused after): the
 * grader calls this once per grade, where an interpreter start-up would dominate the cost.
 */
export async function pythonFactsAsync(files: Record<string, string>): Promise<Record<string, PyFileFacts>> {
  if (Object.keys(files).length === 0) return {};
  const line = await askWorker({ files });
  if (line instanceof Error) return pythonFacts(files); // the worker died: answer the slow way
  return z.record(PyFileFacts).parse(JSON.parse(line));
}

/** One request to the long-lived helper; its answer line, or the error that took the worker. */
async function askWorker(req: unknown): Promise<string | Error> {
  worker ??= startWorker();
  const w = worker;
  return new Promise<string | Error>((res) => {
    w.pending.push(res);
    hold(w, true);
    w.child.stdin!.write(JSON.stringify(req) + "\n");
  });
}

/** A condition whose value is the world's, not the call's inputs' (pyast.py latent_sites): an `if`
 *  or `x if c else y` test, or a `try` whose body's success is. `sides`: those the grader may force
 *  (a side that returns what the test looked at is the state's own answer and is not forced). */
export const LatentSite = SitePlace.extend({
  sides: z.array(z.boolean()),
  /** if: the test's first and last line, the first line of the body and of the else branch. */
  test: z.tuple([z.number().int(), z.number().int()]).nullable(),
  body: z.number().int().nullable().optional(),
  orelse: z.number().int().nullable().optional(),
  /** try: each handler's first line and its lines, and the body's last statement's lines (side
   *  false: the body's imports and bare lookups skipped, as where they succeed; taken where a step
   *  left that statement for a line outside the handlers). */
  handlers: z.array(z.number().int()).optional(),
  handler_spans: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
  last: z.tuple([z.number().int(), z.number().int()]).optional(),
  /** case: which case of the match (entered whatever the subject). */
  case: z.number().int().optional(),
  what: z.string(),
});
export type LatentSite = z.infer<typeof LatentSite>;
export const LatentFile = z.object({ sites: z.array(LatentSite), found: z.number().int(), error: z.string().nullable() });
export type LatentFile = z.infer<typeof LatentFile>;

/** The latent sites of each file (its source, and the original versions whose conditions are the
 *  original's own and are left out). Parse only: nothing is executed. */
export async function latentSites(files: Record<string, { source: string; originals: string[] }>): Promise<Record<string, LatentFile>> {
  if (Object.keys(files).length === 0) return {};
  const line = await askWorker({ latent: files });
  // (the worker died: answer the slow way)
  return z.record(LatentFile).parse(JSON.parse(line instanceof Error ? askOnce({ latent: files }, "latent") : line));
}

/** One request to a pyast.py of its own (no worker): its answer's text. */
function askOnce(req: unknown, what: string): string {
  const r = spawnSync(jupyterPython(), ["-I", "-S", join(projectRoot(), "lib", "tasks", "pyast.py")], { input: JSON.stringify(req), encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`pyast ${what} failed: ${r.stderr || r.error?.message}`);
  return r.stdout;
}

/** Facts for several files in one helper call. */
export function pythonFacts(files: Record<string, string>): Record<string, PyFileFacts> {
  if (Object.keys(files).length === 0) return {};
  return z.record(PyFileFacts).parse(JSON.parse(askOnce({ files }, "helper")));
}

export const StarveOptions = z.object({ docstrings: z.boolean().default(false), type_hints: z.boolean().default(false), comments: z.boolean().default(false) });
export type StarveOptions = z.input<typeof StarveOptions>;

/** Hint starvation of whole files (the context around a deletion): docstrings, signature type
 *  hints, comments. Parse-only helper; the rest of each file keeps its formatting. */
export function starveSources(files: Record<string, string>, opts: StarveOptions): Record<string, string> {
  const o = StarveOptions.parse(opts);
  if (Object.keys(files).length === 0 || !(o.docstrings || o.type_hints || o.comments)) return files;
  const req = { starve: Object.fromEntries(Object.entries(files).map(([f, source]) => [f, { source, ...o }])) };
  return z.record(z.string()).parse(JSON.parse(askOnce(req, "starve")));
}
